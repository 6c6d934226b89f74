// Chapter 4 (scaling.md): softmax of two keys as the width c and the temperature T change,
// and the weights of one query over eight keys, unscaled and scaled by the square root of
// c. PyTorch computed the scores at every width; softmax is recomputed here.
(window.attnlitKinds ??= {}).scale = (d, ui) => {
  const { frame, text, line, make, panel, row, f4, range, BLUE, ORANGE } = attnlit, { t } = ui;
  const width = ui.slider(t("width c"), d.widths, d.widths.indexOf(d.c));
  const hot = ui.slider(t("temperature T"), d.temperatures, d.temperatures.indexOf(d.T));
  const softmax = scores => {
    const top = Math.max(...scores), e = scores.map(s => Math.exp(s - top));
    const sum = e.reduce((a, b) => a + b);
    return e.map(v => v / sum);
  };
  const sigmoid = v => 1 / (1 + Math.exp(-v)), zs = range(-60, 60).map(i => i / 20);
  return (svg, narrow) => {
    const c = width(), T = hot(), scores = d.scores[d.widths.indexOf(c)].map(Math.fround);
    const unscaled = softmax(scores.map(v => v / T));
    const scaled = softmax(scores.map(v => v / (Math.sqrt(c) * T)));
    // Left: the weight on key 1 against the score gap, in standard deviations (-3 to 3).
    const X = z => 50 + (z + 3) * 45, Y = w => 230 - w * 200;
    frame(svg, X(-3), Y(1), 270, 200, { "stroke-width": 1 });
    for (const z of [-3, 0, 3]) text(svg, X(z), Y(0) + 16, String(z), { "font-size": 11 });
    for (const w of [0, 0.5, 1]) text(svg, X(-3) - 5, Y(w), String(w),
      { "text-anchor": "end", dy: "0.35em", "font-size": 11 });
    text(svg, X(0), Y(0) + 34, t("score gap, in standard deviations"), { "font-size": 12 });
    text(svg, X(0), 20, t("weight on key 1 of 2"), { "font-size": 13 });
    line(svg, zs.map(z => [X(z), Y(sigmoid(z * Math.sqrt(2 * c) / T))]), ORANGE);
    line(svg, zs.map(z => [X(z), Y(sigmoid(z * Math.SQRT2 / T))]), BLUE, { "stroke-width": 3 });
    // Right: the eight weights of one query, two bars each, and the legend.
    svg = panel(svg, narrow, 330, 280);
    text(svg, 530, 20, t("one query, 8 keys, width {c}", { c }), { "font-size": 13 });
    scores.forEach((_, j) => {
      const y = 34 + j * 25;
      text(svg, 410, y + 10, t("key {j}", { j: j + 1 }), { "text-anchor": "end", "font-size": 11 });
      make(svg, "rect", { x: 415, y, width: 220 * unscaled[j], height: 10, fill: ORANGE });
      make(svg, "rect", { x: 415, y: y + 10, width: 220 * scaled[j], height: 10, fill: BLUE });
    });
    // The legend, a line each: room for a translation's longer words.
    for (const [y, color, label] of [[240, ORANGE, t("unscaled")], [258, BLUE, t("scaled by √c")]]) {
      make(svg, "rect", { x: 415, y, width: 20, height: 10, fill: color });
      text(svg, 440, y + 9, label, { "text-anchor": "start", "font-size": 12 });
    }
    const top = v => f4(Math.max(...v));
    return [narrow ? 330 : 650, narrow ? 560 : 280,
      t("c = {c}, T = {T}: largest weight {u} unscaled, {s} scaled",
        { c, T, u: top(unscaled), s: top(scaled) }),
      [row(t("scores"), scores), row(t("unscaled"), unscaled), row(t("scaled"), scaled)]];
  };
};
window.attnlit?.start();
