// Chapter 10 (trained-gpt.md): the training run as the command recorded it, one snapshot every
// 25 steps, fetched from the site when the figure comes near the screen. Two charts over the
// run, the chosen step marked: the loss, then the accuracy and the best head's scores; beside
// them (below, on a narrow screen) every head's weights on one sequence at that step, in
// hundredths. The numbers are the row of chapter 10's table for that step.
(window.attnlitKinds ??= {}).training = (d, ui) => {
  const { grid, frame, text, line, make, BLUE, ORANGE } = attnlit, { t } = ui;
  // Three moments of the run, found in the snapshots as chapter 10's block finds them: where
  // the loss falls most between two snapshots, and where the head that ends highest on a
  // score has gone a fifth of the way from its first score to its last.
  const forms = key => {
    const scores = d[key].map(heads => heads.flat()), end = scores.at(-1);
    const h = end.indexOf(Math.max(...end)), from = scores[0][h];
    return scores.findIndex(row => row[h] >= from + (end[h] - from) / 5);
  };
  const falls = d.loss.map((v, i) => i && d.loss[i - 1] - v);
  const at = ui.slider(t("step"), d.step, d.step.indexOf(d.start), {
    play: [t("Play"), t("Pause"), t("Next step")], named: t("moments"), marks: [
      [t("previous-token head forming"), forms("previous")], [t("induction heads forming"), forms("prefix")],
      [t("loss cliff"), falls.indexOf(Math.max(...falls))]] });
  const scores = i => ["previous", "prefix"].flatMap(key => d[key][i].flat());
  const best = key => d[key].map(heads => Math.max(...heads.flat()));
  const charts = [[t("loss on the repeat"), 6, [0, 2, 4, 6], [[d.loss, BLUE]]],
    [t("accuracy and best scores"), 1, [0, 0.5, 1], [[d.accuracy, "#2ca02c", t("accuracy")],
      [best("prefix"), BLUE, t("prefix matching")], [best("previous"), ORANGE, t("previous token")]]]];
  const f2 = v => v.toFixed(2), last = d.step.at(-1);
  // The rows of numbers as chapter 10's table prints them, under its header: each head's
  // score for the two patterns, heads 0.0 to 1.1.
  const heads = "0.0  0.1  1.0  1.1";
  const header = [[t("step"), t("loss"), t("accuracy"), t("previous token"), t("prefix matching")],
    ["", "", "", heads, heads]];
  return (svg, narrow) => {
    const i = d.step.indexOf(at()), all = scores(i).map(f2);
    // A chart 260 px wide over the run, its labels outside it: the step's marker crosses none.
    // On a narrow screen (a phone), the heads come first, right under the slider, and the
    // charts under them: the heads stay in view while the slider moves.
    const ch = make(svg, "g", { transform: narrow ? "translate(0 420)" : undefined, "data-part": "charts" });
    charts.forEach(([title, top, ticks, series], c) => {
      const x0 = 40, y0 = 24 + c * 230, X = s => x0 + s / last * 260;
      const Y = v => y0 + 150 - v / top * 150;
      frame(ch, x0, y0, 260, 150, { "stroke-width": 1 });
      text(ch, x0 + 130, y0 - 8, title, { "font-size": 13 });
      for (const v of ticks) text(ch, x0 - 5, Y(v), String(v),
        { "text-anchor": "end", dy: "0.35em", "font-size": 11 });
      for (const k of [0, 1, 2, 3]) text(ch, X(k * last / 3), y0 + 166, String(k * last / 3),
        { "font-size": 11 });
      text(ch, x0 + 130, y0 + 184, t("step"), { "font-size": 12 });
      if (c === 0) {  // guessing among 256 tokens, dashed, and its legend under the chart
        const dashed = { "stroke-width": 1, "stroke-dasharray": "4 3" };
        line(ch, [[x0, Y(Math.log(256))], [x0 + 260, Y(Math.log(256))]], "currentColor", dashed);
        line(ch, [[x0 + 40, y0 + 198], [x0 + 60, y0 + 198]], "currentColor", dashed);
        text(ch, x0 + 64, y0 + 202, t("guessing: ln 256"), { "text-anchor": "start", "font-size": 11 });
      }
      make(ch, "line", { x1: X(d.step[i]), x2: X(d.step[i]), y1: y0, y2: y0 + 150,
        stroke: "currentColor", "stroke-dasharray": "2 2" });
      series.forEach(([values, color, name], n) => {
        line(ch, values.map((v, j) => [X(d.step[j]), Y(v)]), color);
        make(ch, "circle", { cx: X(d.step[i]), cy: Y(values[i]), r: 4, fill: color });
        if (name) {
          const x = [10, 110, 220][n]; // room for "độ chính xác" before the next
          make(ch, "rect", { x, y: y0 + 196, width: 14, height: 4, fill: color });
          text(ch, x + 18, y0 + 202, name, { "text-anchor": "start", "font-size": 11 });
        }
      });
    });
    // The heads, 10 px a cell: layers as rows, heads as columns, as in the figure below.
    const g = make(svg, "g", { transform: narrow ? undefined : "translate(316 0)", "data-part": "heads" });
    d.patterns[i].forEach((layer, l) => layer.forEach((rows, h) => {
      const x = 10 + h * 176, y = 24 + l * 196;
      grid(g, x, y, 10, rows.map(row => rows.map((_, p) => (row[p] ?? 0) / 100)),
        { title: t("head {name}", { name: `${l}.${h}` }) });
    }));
    text(g, 178, 24 + 2 * 196 - 6, t("queries down, keys across"), { "font-size": 11 });
    const row = [String(d.step[i]), f2(d.loss[i]), f2(d.accuracy[i]), all.slice(0, 4).join(" "), all.slice(4).join(" ")];
    return [narrow ? 346 : 676, narrow ? 420 + 470 : 466,
      t("step {step}: loss {loss}, accuracy {accuracy}",
        { step: d.step[i], loss: f2(d.loss[i]), accuracy: f2(d.accuracy[i]) }),
      [...header, row]];
  };
};
window.attnlit?.start();
