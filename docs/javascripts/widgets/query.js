// Chapter 1 (attention-without-weights.md): pick a query; its row of scores and weights is
// framed, its context vector drawn beside them. Every number was computed by PyTorch.
(window.attnlitKinds ??= {}).query = (d, ui) => {
  const { grid, frame, text, panel, f4, row, ORANGE } = attnlit, { t } = ui;
  const pick = ui.radios(t("query"), d.words, d.query), s = 32, n = d.words.length;
  return (svg, narrow) => {
    const m = pick(), z = d.context[m], y = 28, h = y + n * s + 60;
    grid(svg, 60, y, s, d.scores, { vmax: 1.5, digits: 2, title: t("scores"), rows: d.words,
      cols: d.words });
    const right = panel(svg, narrow, 280, h); // the weights and the context vector
    grid(right, 340, y, s, d.weights, { digits: 2, title: t("weights"), rows: d.words,
      cols: d.words });
    frame(svg, 60, y + m * s, n * s, s, { stroke: ORANGE });
    frame(right, 340, y + m * s, n * s, s, { stroke: ORANGE });
    // On a narrow screen, closer to the weights: 356 px wide, drawn unshrunk (text 11 px).
    const cx = narrow ? 536 : 570;
    grid(right, cx, y + m * s, s, [z], { digits: 2, cols: ["1", "2", "3"] });
    text(right, cx + 1.5 * s, y + m * s - 8, t("context vector"), { "font-size": 13 });
    return [narrow ? 356 : 680, narrow ? 2 * h : h,
      t("query {word}: context vector {vector}",
        { word: d.words[m], vector: z.map(f4).join(", ") }),
      [row(t("scores"), d.scores[m]), row(t("weights"), d.weights[m]), row(t("context"), z)]];
  };
};
window.attnlit?.start();
