// Chapter 7 (multi-head-attention.md): a layer of three heads, one head and one query followed
// through it. Q's columns, hd per head, become one matrix per head; the head's weights; its
// context, put back into its columns by the concatenation; its share of the output after
// out_proj, over every column. Every number was computed by PyTorch.
(window.attnlitKinds ??= {}).split = (d, ui) => {
  const { grid, frame, text, make, range, row, f4, BLUE, ORANGE } = attnlit, { t } = ui;
  const h = d.weights.length, n = d.words.length, c = d.queries[0].length, hd = c / h;
  const colours = [BLUE, ORANGE, "#2ca02c"]; // heads 1, 2, 3, as in the static drawing
  const pick = ui.radios(t("head"), range(1, h).map(String), d.head);
  const ask = ui.radios(t("query"), d.words, d.query);
  const W = 36, H = 22; // a cell of a matrix of numbers: "-0.35" at 11 px fits
  // A matrix of numbers at (x, y), each column tinted by the head it belongs to (strongly
  // for the chosen one), numbers in the columns `shown` picks.
  const matrix = (x, y, values, owner, shown, title, labels = true) => {
    values.forEach((cells, m) => cells.forEach((v, j) => {
      const k = owner(j);
      make(svg0, "rect", { x: x + j * W, y: y + m * H, width: W, height: H, fill: colours[k],
        "fill-opacity": k === chosen ? 0.4 : 0.12, stroke: "currentColor", "stroke-width": 0.5 });
      if (shown(j)) text(svg0, x + (j + 0.5) * W, y + (m + 0.5) * H, v.toFixed(2),
        { dy: "0.35em", "font-size": 11 });
    }));
    text(svg0, x + values[0].length * W / 2, y - 8, title, { "font-size": 13 });
    if (labels) d.words.forEach((word, m) => text(svg0, x - 5, y + (m + 0.5) * H, word,
      { "text-anchor": "end", dy: "0.35em", "font-size": 11 }));
    frame(svg0, x, y + query * H, values[0].length * W, H, { stroke: ORANGE });
  };
  const arrow = (x0, y0, x1, y1, label) => {
    make(svg0, "line", { x1: x0, y1: y0, x2: x1, y2: y1, stroke: "currentColor", "stroke-width": 1.5 });
    const a = Math.atan2(y1 - y0, x1 - x0), tip = [[x1, y1], ...[0.4, -0.4].map(s =>
      [x1 - 8 * Math.cos(a + s), y1 - 8 * Math.sin(a + s)])];
    make(svg0, "polygon", { points: tip.map(p => p.join(",")).join(" "), fill: "currentColor" });
    [label].flat().forEach((line, i) => line && text(svg0, (x0 + x1) / 2, Math.min(y0, y1) + [-7, 17][i],
      line, { "font-size": 11 })); // a second line goes under the arrow
  };
  let svg0, chosen, query;
  return (svg, narrow) => {
    svg0 = svg; chosen = pick(); query = ask();
    const own = range(chosen * hd, chosen * hd + hd - 1), mine = j => own.includes(j);
    const context = d.merged.map(cells => own.map(j => cells[j]));
    // Wide: three rows of two panels, arrows between; narrow (346 px): one column.
    const x0 = 62, top = 30, band = n * H + 54, at = narrow
      ? [[x0, top], [x0, top + band], [x0, top + 2 * band], [x0 + 196, top + 2 * band],
        [x0, top + 3 * band + 66], [x0, top + 4 * band + 66]]
      : [[x0, top], [384, top], [x0, top + band], [322, top + band], [x0, top + 2 * band + 66],
        [384, top + 2 * band + 66]];
    matrix(...at[0], d.queries, j => Math.floor(j / hd), () => true, t("Q (n, c)"));
    range(0, h - 1).forEach(k => {
      const [x, y] = [at[1][0] + k * (hd * W + 12), at[1][1]];
      matrix(x, y, d.queries.map(cells => cells.slice(k * hd, k * hd + hd)), () => k, () => true,
        t("head {name}", { name: k + 1 }), k === 0 && narrow);
      if (k === chosen) frame(svg, x - 3, y - 3, hd * W + 6, n * H + 6, { stroke: colours[k] });
    });
    text(svg, at[1][0] + (h * hd * W + (h - 1) * 12) / 2, at[1][1] + n * H + 18, "(h, n, hd)",
      { "font-size": 11 });
    const [wx, wy] = at[2], s = 30; // the chosen head's weights, one row per query
    grid(svg, wx, wy, s, d.weights[chosen], { digits: 2, font: 11, rows: d.words, cols: d.words,
      title: t("weights of head {name}", { name: chosen + 1 }), hidden: (m, p) => p > m });
    frame(svg, wx, wy + query * s, n * s, s, { stroke: ORANGE });
    const [cx, cy] = at[3]; // its context, rows as tall as the weights'
    context.forEach((cells, m) => cells.forEach((v, j) => {
      make(svg, "rect", { x: cx + j * W, y: cy + m * s, width: W, height: s, fill: colours[chosen],
        "fill-opacity": 0.4, stroke: "currentColor", "stroke-width": 0.5 });
      text(svg, cx + (j + 0.5) * W, cy + (m + 0.5) * s, v.toFixed(2), { dy: "0.35em", "font-size": 11 });
    }));
    // On a narrow screen in two lines: in one, a longer translation ran past the drawing.
    if (narrow) [t("context"), "(n, hd)"].forEach((line, i) =>
      text(svg, cx + W, cy - 24 + 16 * i, line, { "font-size": 13 }));
    else text(svg, cx + W, cy - 8, t("context (n, hd)"), { "font-size": 13 });
    frame(svg, cx, cy + query * s, hd * W, s, { stroke: ORANGE });
    matrix(...at[4], d.merged, j => Math.floor(j / hd), mine, t("concatenated (n, c)"));
    matrix(...at[5], d.shares[chosen], () => chosen, () => true,
      t("share of head {name} after out_proj", { name: chosen + 1 }), narrow);
    if (!narrow) {
      arrow(x0 + c * W + 8, top + n * H / 2, 374, top + n * H / 2, [".view", ".transpose"]);
      arrow(wx + n * s + 8, wy + n * s / 2, cx - 8, cy + n * s / 2, "× V");
      arrow(cx + W, cy + n * s + 8, x0 + c * W / 2, at[4][1] - 24);
      arrow(x0 + c * W + 8, at[4][1] + n * H / 2, 374, at[5][1] + n * H / 2, "out_proj");
    }
    return [narrow ? 346 : 676, at[5][1] + n * H + 12,
      t("head {name}, query {word}: context {vector}",
        { name: chosen + 1, word: d.words[query], vector: context[query].map(f4).join(", ") }),
      [row(t("weights"), d.weights[chosen][query]), row(t("context"), context[query]),
        row(t("share"), d.shares[chosen][query])]];
  };
};
window.attnlit?.start();
