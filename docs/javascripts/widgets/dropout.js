// Chapter 6 (dropout.md): dropout with rate p after torch.manual_seed(seed). Which weights
// survive was recorded from PyTorch for every rate and seed offered, one bit per weight;
// survivors are scaled by 1 / (1 - p) here, in float32 as PyTorch does.
(window.attnlitKinds ??= {}).dropout = (d, ui) => {
  const { grid, text, panel, f4, row, range } = attnlit, { t } = ui;
  const rate = ui.slider(t("dropout rate p"), d.rates, d.rates.indexOf(d.p));
  const seed = ui.slider(t("seed"), range(0, d.kept[0].length - 1), d.seed), s = 34;
  const later = (m, p) => p > m;
  return (svg, narrow) => {
    const p = rate(), bits = d.kept[d.rates.indexOf(p)][seed()];
    const scale = Math.fround(1 / Math.fround(1 - p));
    let cell = 0, dropped = 0; // cell: the weights the mask leaves, counted
    const out = d.weights.map((r, m) => r.map((w, q) => {
      if (later(m, q)) return 0;
      const kept = Math.floor(bits / 2 ** cell++) % 2;
      dropped += 1 - kept;
      return kept ? Math.fround(Math.fround(w) * scale) : 0;
    }));
    const opts = { digits: 2, rows: d.words, cols: d.words, hidden: later };
    grid(svg, 60, 28, s, d.weights, { ...opts, title: t("causal weights") });
    grid(panel(svg, narrow, 290, 300), 350, 28, s, out, { ...opts,
      title: t("after dropout (p = {p})", { p }), mark: (m, q) => out[m][q] === 0 ? "×" : undefined });
    // The key: one line, or on a narrow screen two (a translation's words are longer).
    const key = [t("hatched: masked (later key)"), t("×: dropped (set to 0)")];
    (narrow ? key : [key.join("; ")]).forEach((line, i) =>
      text(svg, narrow ? 160 : 300, (narrow ? 612 : 312) + 16 * i, line, { "font-size": 12 }));
    const sums = out.map(r => r.reduce((a, b) => a + b));
    return [narrow ? 320 : 600, narrow ? 638 : 322,
      t("p = {p}, seed {s}: {d} of {n} weights dropped, the rest × 1 / (1 − p) = {x}",
        { p, s: seed(), d: dropped, n: cell, x: f4(scale) }),
      [...out.map((r, m) => row(d.words[m], r)), row(t("row sums"), sums)]];
  };
};
window.attnlit?.start();
