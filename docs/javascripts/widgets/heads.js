// Chapter 10 (trained-gpt.md): the trained model's heads on a few sequences, all four drawn
// and the chosen one framed, with each query's strongest key. PyTorch exported the weights,
// one character per cell of the causal triangle (36 shades), and the strongest keys.
(window.attnlitKinds ??= {}).heads = (d, ui) => {
  const { grid, frame, f4, range, ORANGE } = attnlit, { t } = ui;
  // The sequences' names come with the data, in English, and are shown translated.
  const seq = ui.radios(t("sequence"), d.sequences.map(q => t(q.label)), 0);
  const layer = ui.radios(t("layer"), range(0, d.layers - 1).map(String), d.layer);
  const head = ui.radios(t("head"), range(0, d.heads - 1).map(String), d.head);
  return (svg, narrow) => {
    const { tokens, shades, keys, top } = d.sequences[seq()], n = tokens.length;
    const chosen = layer() * d.heads + head(), labels = tokens.map(String);
    // All heads, the chosen one framed; on a narrow screen, the chosen one only. Cells of
    // 18 px hold labels of 11 px (the smallest text the site draws), in a drawing that fits
    // the column unshrunk: 676 px wide, or 346 px on a narrow screen.
    const s = 18, size = n * s;
    shades.forEach((cells, h) => {
      if (narrow && h !== chosen) return;
      let k = 0;
      const rows = range(0, n - 1).map(m => range(0, n - 1)
        .map(p => p > m ? 0 : parseInt(cells[k++], 36) / 35));
      const at = narrow ? 0 : h;
      const x = 40 + (at % d.heads) * (size + 30), y = 24 + Math.floor(at / d.heads) * (size + 44);
      grid(svg, x, y, s, rows, { font: 11,
        title: t("head {name}", { name: `${Math.floor(h / d.heads)}.${h % d.heads}` }),
        rows: x === 40 ? labels : [],
        cols: narrow || h >= shades.length - d.heads ? labels : [] });
      if (h === chosen && !narrow) frame(svg, x - 3, y - 3, size + 6, size + 6, { stroke: ORANGE });
    });
    const lines = [];
    for (let m = 0; m < n; m += 4)
      lines.push(range(m, m + 3).map(q => `${String(q).padStart(2)}→` +
        `${String(keys[chosen][q]).padStart(2)} ${f4(top[chosen][q])}`).join("   "));
    return [narrow ? 40 + size + 18 : 40 + d.heads * (size + 30),
      24 + (narrow ? 1 : d.layers) * (size + 44) + 8,
      t("head {name} on {sequence}: each query's strongest key",
        { name: `${layer()}.${head()}`, sequence: t(d.sequences[seq()].label) }),
      lines];
  };
};
window.attnlit?.start();
