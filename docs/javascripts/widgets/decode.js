// Chapter 11 (generation.md): chapter 10's model writing with a KV cache, one step at a time:
// the tokens, each layer's cache (what this step appended in orange), and each head's weights
// over it for the newest query. Every number was computed by PyTorch.
(window.attnlitKinds ??= {}).decode = (d, ui) => {
  const { grid, frame, text, make, range, BLUE, ORANGE } = attnlit, { t } = ui;
  const names = [t("prefill"), ...range(1, d.steps.length - 1).map(String)];
  const at = ui.slider(t("step"), names, 0);
  const tokens = d.steps.flatMap(step => step.read); // every token read, in order
  return (svg, narrow) => {
    const k = names.indexOf(at()), step = d.steps[k], held = step.held;
    const new0 = held - step.read.length; // the first position read at this step
    // A column per token; on a narrow screen, labels go above their rows, not beside.
    const w = narrow ? 18 : 32, x0 = narrow ? 8 : 100, gap = narrow ? 16 : 0; // room for 16 + 2
    let y = 24;
    const label = (words, height) => narrow
      ? text(svg, x0, y - 4, words, { "text-anchor": "start", "font-size": 11 })
      : text(svg, x0 - 6, y + height / 2, words, { "text-anchor": "end", dy: "0.35em", "font-size": 11 });
    y += gap;
    // Ids of up to 3 digits: across a wide column, upright in a narrow one.
    const tall = narrow ? 30 : 24, id = (p, words) => text(svg, x0 + (p + 0.5) * w, y + tall / 2,
      words, { dy: "0.35em", "font-size": 11,
        transform: narrow ? `rotate(-90 ${x0 + (p + 0.5) * w} ${y + tall / 2})` : undefined });
    label(t("tokens"), tall);
    range(0, held - 1).forEach(p => id(p, String(tokens[p])));
    frame(svg, x0 + new0 * w, y, step.read.length * w, tall, { stroke: ORANGE });
    text(svg, x0 + (held + 0.5) * w, y + tall / 2, "→", { dy: "0.35em", "font-size": 11 }); // then
    id(held + 1, String(step.wrote));
    y += tall + 10;
    for (const layer of [0, 1]) {
      y += gap;
      label(t("cache, layer {layer}", { layer }), 20);
      range(0, held - 1).forEach(p => make(svg, "rect", { x: x0 + p * w, y, width: w, height: 20,
        fill: p >= new0 ? ORANGE : BLUE, "fill-opacity": 0.45, stroke: "currentColor", "stroke-width": 0.5 }));
      y += 26;
    }
    y += 12;
    step.weights.forEach((row, h) => {
      y += gap;
      label(t("head {name}", { name: d.heads[h] }), w);
      grid(svg, x0, y, w, [row], { digits: narrow ? undefined : 2, font: 11 });
      y += w + 4;
    });
    range(0, held - 1).forEach(p => (narrow && p % 2) || text(svg, x0 + (p + 0.5) * w, y + 10,
      String(p), { dy: "0.35em", "font-size": 11 }));
    text(svg, x0 + held * w / 2, y + 30, t("position"), { "font-size": 11 });
    return [narrow ? 346 : 676, y + 44,
      t("{step}: read {read}, the caches hold {held} tokens ({bytes} bytes), wrote {wrote}",
        { step: k ? t("decode step {k}", { k }) : t("prefill"), read: step.read.join(" "), held,
          bytes: held * d.bytes_per_token, wrote: step.wrote }),
      step.weights.map((row, h) => [t("head {name}", { name: d.heads[h] }),
        row.map(v => v.toFixed(2)).join(" ")])];
  };
};
window.attnlit?.start();
