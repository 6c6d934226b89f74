// Chapter 5 (causal-attention.md): causal weights computed three ways by PyTorch; the
// wrong way gives later keys weight, framed in red.
(window.attnlitKinds ??= {}).mask = (d, ui) => {
  const { grid, frame, panel, f4, row, RED } = attnlit, { t } = ui;
  // The ways' names come with the data, in English, and are shown translated: which way is
  // wrong is read from the English name, whatever the page's language calls it.
  const way = ui.radios(t("masking"), d.ways.map(w => t(w[0])), 0), s = 34;
  const later = (m, p) => p > m;
  return (svg, narrow) => {
    const [english, weights] = d.ways[way()], wrong = english.includes("wrong"), name = t(english);
    grid(svg, 60, 28, s, weights.map((r, m) => r.map((_, p) => +!later(m, p))),
      { digits: 0, title: t("causal mask"), rows: d.words, cols: d.words });
    svg = panel(svg, narrow, 290, 300);
    grid(svg, 350, 28, s, weights, { digits: 2, title: name, rows: d.words, cols: d.words,
      hidden: wrong ? null : later });
    if (wrong) weights.forEach((r, m) => r.forEach((_, p) => later(m, p)
      && frame(svg, 350 + p * s + 1.5, 28 + m * s + 1.5, s - 3, s - 3, { stroke: RED })));
    const leak = weights.map((r, m) => r.reduce((a, v, p) => a + (later(m, p) ? v : 0), 0));
    const most = leak.indexOf(Math.max(...leak));
    // Room on the right for the longest title, a way's name (274 px in Thai, way 1).
    return [narrow ? 300 : 600, narrow ? 600 : 300,
      leak[most] > 0
        ? t("{name}: weight on later keys at most {v} (query {word})", { name, v: f4(leak[most]), word: d.words[most] })
        : t("{name}: weight on later keys at most {v}", { name, v: f4(leak[most]) }),
      weights.map((r, m) => row(d.words[m], r))];
  };
};
window.attnlit?.start();
