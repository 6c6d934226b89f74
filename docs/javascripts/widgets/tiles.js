// Chapter 12 (flash-attention.md): tiled attention stepped block by block. The one block of
// scores that exists at a step, blocks computed before it (gone), each query's running
// maximum, sum and output, and the numbers moved to and from the slow memory so far against
// the textbook's. Every number was computed by PyTorch.
(window.attnlitKinds ??= {}).tiles = (d, ui) => {
  const { frame, text, make, range, f4, BLUE, ORANGE, GREY } = attnlit, { t } = ui;
  const n = d.n, B = d.size, last = d.steps.length;
  const at = ui.slider(t("step"), range(1, last).map(String), 0);
  const f2 = v => v.toFixed(2), names = range(0, n - 1).map(i => `q${i}`);
  return (svg, narrow) => {
    const k = +at() - 1, step = d.steps[k], mine = i => i >= step.rows && i < step.rows + B;
    const s = narrow ? 36 : 44, x0 = 34, y0 = 40;
    // The scores: this step's block in numbers, framed; the blocks computed before it, gone.
    range(0, n - 1).forEach(i => range(0, n - 1).forEach(j => {
      const done = d.steps.slice(0, k).some(b => i >= b.rows && i < b.rows + B && j >= b.cols && j < b.cols + B);
      const now = mine(i) && j >= step.cols && j < step.cols + B;
      make(svg, "rect", { x: x0 + j * s, y: y0 + i * s, width: s, height: s, fill: done ? GREY : "none",
        "fill-opacity": 0.3, stroke: "currentColor", "stroke-width": 0.5 });
      if (now) text(svg, x0 + (j + 0.5) * s, y0 + (i + 0.5) * s, f2(step.scores[i - step.rows][j - step.cols]),
        { dy: "0.35em", "font-size": 11 });
    }));
    frame(svg, x0 + step.cols * s, y0 + step.rows * s, B * s, B * s, { stroke: ORANGE });
    names.forEach((name, i) => text(svg, x0 - 5, y0 + (i + 0.5) * s, name,
      { "text-anchor": "end", dy: "0.35em", "font-size": 11 }));
    range(0, n - 1).forEach(j => text(svg, x0 + (j + 0.5) * s, y0 - 8, `k${j}`, { "font-size": 11 }));
    text(svg, x0 + n * s / 2, y0 - 26, t("scores"), { "font-size": 13 });
    // The state: this block's queries as the step leaves them; queries done, their output.
    const tx = narrow ? x0 : x0 + n * s + 30, ty = narrow ? y0 + n * s + 46 : y0, c = 40;
    const heads = [t("m"), "ℓ", t("correction"), t("o / ℓ")];
    [0, 1, 2].forEach(h => text(svg, tx + (h + 0.5) * c + (h === 2 ? 8 : 0), ty - 8, heads[h],
      { "font-size": 11 }));
    text(svg, tx + 3.5 * c + 24 + 2 * c, ty - 8, heads[3], { "font-size": 11 });
    range(0, n - 1).forEach(i => {
      const y = ty + (i + 0.5) * (narrow ? 24 : s);
      if (narrow) text(svg, tx - 5, y, names[i], { "text-anchor": "end", dy: "0.35em", "font-size": 11 });
      const finished = d.steps.find(b => b.rows <= i && i < b.rows + B && b.cols === n - B);
      const own = mine(i), row = i - step.rows;
      const out = own ? step.out[row] : finished && d.steps.indexOf(finished) < k ? finished.out[i - finished.rows] : null;
      if (own) [step.m[row][0], step.ell[row][0], step.correction[row][0]].forEach((v, h) =>
        text(svg, tx + (h + 0.5) * c + (h === 2 ? 8 : 0), y, f2(v), { dy: "0.35em", "font-size": 11 }));
      out?.forEach((v, h) => text(svg, tx + 3 * c + 24 + (h + 0.5) * c, y, f2(v),
        { dy: "0.35em", "font-size": 11, "font-weight": own ? "bold" : undefined }));
      if (own) frame(svg, tx - 2, y - (narrow ? 12 : 15), 7 * c + 28, narrow ? 24 : 30,
        { stroke: ORANGE, "stroke-width": 1.5 });
    });
    // What has moved to and from the slow memory: the tiled loop so far, the textbook's all.
    const by = (narrow ? ty + n * 24 : y0 + n * s) + 34, scale = (narrow ? 200 : 360) / d.textbook;
    [[t("tiled loop, so far"), step.moved, d.tiled, BLUE], [t("textbook"), d.textbook, d.textbook, ORANGE]]
      .forEach(([name, value, whole, colour], r) => {
        const y = by + r * 44;
        text(svg, x0, y, r ? `${name}: ${value}` : t("{name}: {value} of {whole}", { name, value, whole }),
          { "text-anchor": "start", "font-size": 11 });
        make(svg, "rect", { x: x0, y: y + 6, width: whole * scale, height: 14, fill: "none",
          stroke: colour });
        make(svg, "rect", { x: x0, y: y + 6, width: value * scale, height: 14, fill: colour });
      });
    text(svg, x0, by - 18, t("numbers moved to and from the slow memory"),
      { "text-anchor": "start", "font-size": 12 });
    const queries = `${step.rows}-${step.rows + B - 1}`, keys = `${step.cols}-${step.cols + B - 1}`;
    return [narrow ? 346 : 676, by + 2 * 44 + 4,
      t("step {step} of {steps}: queries {queries}, keys {keys}", { step: k + 1, steps: last, queries, keys }),
      [t("step {step} (queries {queries}, keys {keys}): moved {moved} of {total}",
        { step: k + 1, queries, keys, moved: step.moved, total: d.tiled }),
        ...range(0, B - 1).map(r => [`q${step.rows + r}:`, [step.m[r][0], step.ell[r][0], step.correction[r][0],
          ...step.out[r]].map(f4).join(" ")])]];
  };
};
window.attnlit?.start();
