// Chapter 14 (attention-sinks.md): 2,048 held-out bytes streamed through a window of 128 under
// three policies. Over the stream, the bytes each cache holds at the chosen byte (evict: the
// last 128; sinks: the first 4 and the last 124); under it, the bytes they are, from the
// first stream; then each policy's loss minus recomputing's, over the 64 bytes up to each
// byte, for the chosen model. python -m attnlit.train.stream measured the losses (fetched).
(window.attnlitKinds ??= {}).stream = (d, ui) => {
  const { frame, text, line, make, f4, BLUE, ORANGE, GREY } = attnlit, { t } = ui;
  // The models by the names the losses use, and their titles; the policies in that order.
  const keys = Object.keys(d.models), titles = Object.values(d.models).map(title => t(title));
  const policies = ["evict", "sinks", "recompute"];
  const model = ui.radios(t("model"), titles, 0);
  const at = ui.slider(t("byte"), d.bytes, d.bytes.indexOf(d.start));
  // The stream's bytes as shown: a line end as ↵, what is not printable ASCII as ·.
  const glyph = b => b === 10 ? "↵" : b >= 32 && b < 127 ? String.fromCharCode(b) : "·";
  const stream = d.stream.map(glyph).join(""), last = d.stream.length - 1, w = d.window, k = d.sinks;
  return (svg, narrow) => {
    const key = keys[model()], byte = at(), i = d.bytes.indexOf(byte);
    const loss = policies.map(p => d.loss[`${key} ${p}`]), width = narrow ? 346 : 676;
    const x0 = narrow ? 88 : 110, span = width - x0 - 16, X = b => x0 + b / last * span;
    text(svg, width / 2, 18, t("{model}: byte {byte} of the stream", { model: titles[model()], byte }),
      { "font-size": 13 });
    // The stream as a bar; what each cache holds at this byte, filled.
    const held = [[t("evict"), [[byte - w + 1, byte]]], [t("{k} sinks", { k }),
      [[0, k - 1], [Math.max(k, byte - w + k + 1), byte]]]];
    held.forEach(([name, spans], r) => {
      const y = 34 + r * 26;
      text(svg, x0 - 8, y + 12, name, { "text-anchor": "end", "font-size": 12 });
      frame(svg, X(0), y, span, 16, { "stroke-width": 1, stroke: GREY });
      spans.forEach(([from, to], s) => make(svg, "rect", { x: X(Math.max(from, 0)), y,
        width: Math.max(X(to + 1) - X(Math.max(from, 0)), 3), height: 16, fill: r && !s ? ORANGE : BLUE }));
    });
    // The bytes they read: the sinks, then the latest, as many as the width takes.
    const shown = narrow ? 30 : 56, latest = stream.slice(Math.max(byte - shown + 1, 0), byte + 1);
    const y1 = 108, mono = { "text-anchor": "start", "font-size": 12, "font-family": "monospace",
      style: "white-space: pre" };
    text(svg, 8, y1, t("the latest bytes read:"), { "text-anchor": "start", "font-size": 12 });
    text(svg, 8, y1 + 18, `…${latest}`, mono);
    text(svg, 8, y1 + 40, t("and the sinks kept:"), { "text-anchor": "start", "font-size": 12 });
    make(svg, "rect", { x: 8, y: y1 + 46, width: k * 7.3 + 4, height: 18, fill: ORANGE, opacity: 0.25 });
    text(svg, 10, y1 + 59, stream.slice(0, k), mono);
    // Each cache's loss minus recomputing's, -0.01 to 0.01 nats per byte, along the stream.
    const y0 = 208, h = 120, Y = v => y0 + h / 2 - Math.max(-0.01, Math.min(0.01, v)) / 0.01 * h / 2;
    frame(svg, X(0), y0, span, h, { "stroke-width": 1 });
    line(svg, [[X(0), Y(0)], [X(last), Y(0)]], GREY, { "stroke-width": 1 });
    for (const v of [-0.01, 0, 0.01]) text(svg, X(0) - 5, Y(v), String(v),
      { "text-anchor": "end", dy: "0.35em", "font-size": 11 });
    for (const b of [0, 1000, 2000]) text(svg, X(b), y0 + h + 16, String(b), { "font-size": 11 });
    text(svg, X(0) + span / 2, y0 - 8, t("loss above recomputing, nats per byte"), { "font-size": 12 });
    make(svg, "line", { x1: X(byte), x2: X(byte), y1: y0, y2: y0 + h, stroke: "currentColor",
      "stroke-dasharray": "2 2" });
    [[0, BLUE, "evict"], [1, ORANGE, "sinks"]].forEach(([p, color, name], n) => {
      line(svg, d.bytes.map((b, j) => [X(b), Y(loss[p][j] - loss[2][j])]), color, { "stroke-width": 1.5 });
      make(svg, "circle", { cx: X(byte), cy: Y(loss[p][i] - loss[2][i]), r: 4, fill: color });
      const lx = X(0) + n * 110; // a legend under the chart, a line each for longer words
      make(svg, "rect", { x: lx, y: y0 + h + 26, width: 14, height: 4, fill: color });
      text(svg, lx + 18, y0 + h + 32, t(name), { "text-anchor": "start", "font-size": 11 });
    });
    const [evict, sinks, again] = loss.map(values => f4(values[i]));
    return [width, y0 + h + 44,
      t("{model}, byte {byte}: over the 64 bytes up to it, evict {evict}, sinks {sinks}, recompute {again} nats per byte",
        { model: titles[model()], byte, evict, sinks, again }),
      [[t("byte"), t("evict"), t("sinks"), t("recompute")], [String(byte), evict, sinks, again]]];
  };
};
window.attnlit?.start();
