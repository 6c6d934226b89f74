// Chapter 11b (smaller-caches.md): the KV cache of a batch and the bytes one decode step
// reads, for a published model and each cache design of the page. attnlit.cachesize gave
// each design's bytes per token; the batch, the window, a mixture's experts and the rounding
// are done here, in integers (exact below 2^53; the experts' powers in BigInt), and the
// browser tests compare the rows with cost_table's.
(window.attnlitKinds ??= {}).cache = (d, ui) => {
  const { make, text, frame, BLUE, ORANGE, GREY } = attnlit, { t } = ui;
  const model = ui.radios(t("model"), d.models.map(m => m.name), d.model);
  const tokens = ui.slider(t("tokens n"), d.lengths.map(n => ({ n, toString: () => n < 1024 ? n : n / 1024 + "K" })),
    d.lengths.indexOf(d.n));
  const batch = ui.slider(t("batch b"), d.batches, d.batches.indexOf(d.batch));
  const commas = v => String(v).replace(/\B(?=(\d{3})+$)/g, ",");
  const size = bytes => { // as attnlit.cachesize.size
    let k = 0;
    while (k < 4 && bytes >= 1000 * 1024 ** k) k++;
    const unit = 1024 ** k, places = k && bytes < 100 * unit ? (bytes < 10 * unit ? 2 : 1) : 0;
    const q = Math.floor((bytes * 10 ** places + Math.floor(unit / 2)) / unit);
    return (q / 10 ** places).toFixed(places) + " " + ["B", "KiB", "MiB", "GiB", "TiB"][k];
  };
  // As attnlit.cachesize.experts_read: the routed experts' bytes a step of b tokens reads,
  // expected, if each token chose its experts uniformly and independently of the others.
  const expertsRead = (m, b) => {
    if (!m.experts) return 0;
    const [layers, routed, chosen, each] = m.experts.map(BigInt), ways = routed ** BigInt(b);
    const missed = (routed - chosen) ** BigInt(b);
    return Number(layers * each * BigInt(m.weight_bytes) * routed * (ways - missed) / ways);
  };
  return (svg, narrow) => {
    const m = d.models[model()], n = tokens().n, b = batch();
    const all = t("{n} tokens, batch {b}", { n: commas(n), b });
    const experts = expertsRead(m, b), weights = m.weights * m.weight_bytes + experts;
    const costs = m.designs.map(([name, numbers, bytes, w]) => {
      const held = b * bytes * Math.min(n, w ?? n);
      return [name, numbers, held, held + weights];
    });
    // A bar per design: what a step reads, the weights (grey) then the cache (blue), on one
    // scale; on a narrow screen, the label above the bar and the numbers below it. The designs'
    // names are attnlit.cachesize's, in the page's language as its static figure has them.
    const width = narrow ? 340 : 660, x = narrow ? 8 : 178, long = (narrow ? 324 : 250) / Math.max(...costs.map(c => c[3]));
    let header = t("{model}, n = {n}, batch {b}: weights {size}", { model: m.name, n: commas(n), b, size: size(weights) });
    if (m.experts) {
      const [layers, routed, , each] = m.experts;
      header = t("{header}, {read} of {routed} experts a layer", { header, routed,
        read: (experts / (layers * each * m.weight_bytes)).toFixed(0) });
    }
    const step = narrow ? 62 : 38, y = 42 + 5 * step;
    const row = ([name, numbers, held, read], i) => [t(name), commas(numbers), size(held), size(read),
      i === m.own ? t("its own") : ""];
    text(svg, width / 2, 18, `${m.name}: ${all}`, { "font-size": 13 });
    costs.forEach(([name, , held, read], i) => {
      const top = 38 + i * step, bar = narrow ? top + 18 : top, font = { "font-size": 12 };
      if (i === m.own) frame(svg, 2, top - 4, width - 4, narrow ? 56 : 26, { stroke: ORANGE, "stroke-width": 2 });
      text(svg, narrow ? x : x - 10, top + 12, t(name), { ...font, "text-anchor": narrow ? "start" : "end",
        "font-weight": i === m.own ? "bold" : "normal" });
      make(svg, "rect", { x, y: bar, width: long * weights, height: 16, fill: GREY });
      make(svg, "rect", { x: x + long * weights, y: bar, width: long * held, height: 16, fill: BLUE });
      text(svg, narrow ? x : x + long * read + 6, narrow ? bar + 28 : top + 12,
        t("cache {held}, read {read}", { held: size(held), read: size(read) }), { ...font, "text-anchor": "start" });
    });
    [[GREY, t("weights, read once a step")], [BLUE, t("the batch's cache")], [0, t("the model's own")]]
      .forEach(([fill, label], i) => { // a line each: room for a translation's longer words
        const top = y + i * 20;
        make(svg, "rect", { x, y: top, width: 14, height: 12, fill: fill || "none", stroke: fill ? "none" : ORANGE,
          "stroke-width": 2 });
        text(svg, x + 20, top + 11, label, { "text-anchor": "start", "font-size": 12 });
      });
    return [width, y + 56,
      t("{model}, {all}: its own cache ({design}) holds {held}; a decode step reads {read}", { model: m.name,
        all: n > m.context ? t("{all} (past the {context} it was trained on)", { all, context: commas(m.context) }) : all,
        design: t(costs[m.own][0]), held: size(costs[m.own][2]), read: size(costs[m.own][3]) }),
      [header, [t("cache"), t("numbers"), t("held"), t("read"), ""], ...costs.map(row)]];
  };
};
window.attnlit?.start();
