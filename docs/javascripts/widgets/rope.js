// Chapter 9 (word-order.md): RoPE turns each pair of dimensions of q and k by an angle that
// grows with its position; the score sees only the offset m - p. q and k, the base and the
// pairs drawn come from PyTorch; the turning is done here. Offsets run from below 0 (the key
// after the query, which the causal mask hides) up; the shift moves both positions at once,
// so that the earlier of the two sits at it.
(window.attnlitKinds ??= {}).rope = (d, ui) => {
  const { frame, line, make, text, f4, range, BLUE, ORANGE, GREY } = attnlit, { t } = ui;
  const offsets = range(...d.offsets);
  const offset = ui.slider(t("offset m − p"), offsets, offsets.indexOf(d.offset));
  const start = ui.slider(t("shift of m and p"), range(0, d.last), 0);
  const hd = d.q.length, half = hd / 2, [Q, K] = [d.q, d.k].map(v => v.map(Math.fround));
  const turn = (x, at) => { // rotate-half: pair i is dimensions i and i + hd/2
    const out = [];
    for (let i = 0; i < half; i++) {
      const a = at * d.base ** (-2 * i / hd), c = Math.cos(a), s = Math.sin(a);
      [out[i], out[i + half]] = [x[i] * c - x[i + half] * s, x[i] * s + x[i + half] * c];
    }
    return out;
  };
  const at = (from, o) => [from + Math.max(o, 0), from + Math.max(-o, 0)]; // m, p
  const score = (m, p) => {
    const q = turn(Q, m), k = turn(K, p);
    return q.reduce((sum, v, i) => sum + v * k[i], 0);
  };
  return (svg, narrow) => {
    const o = offset(), [m, p] = at(start(), o), q = turn(Q, m), k = turn(K, p);
    // Top: the score against the offset, from the same earlier position.
    const scores = offsets.map(x => score(...at(start(), x)));
    const lo = Math.min(...scores), hi = Math.max(...scores), w = narrow ? 280 : 560;
    const X = x => 60 + (x - d.offsets[0]) * w / (d.offsets[1] - d.offsets[0]);
    // A flat curve (q or k zero) has no range to stretch, only rounding: it runs across the
    // middle, with one value on the axis.
    const flat = !(hi - lo > 1e-9 * Math.max(1, Math.abs(lo), Math.abs(hi)));
    const Y = v => flat ? 100 : 170 - (v - lo) / (hi - lo) * 140;
    frame(svg, 60, 25, w, 150, { "stroke-width": 1 });
    // The thin line: q . k, the score at offset 0, where the two rotations cancel.
    line(svg, [[X(d.offsets[0]), Y(score(0, 0))], [X(d.offsets[1]), Y(score(0, 0))]],
      "currentColor", { "stroke-width": 1, "stroke-opacity": 0.5 });
    line(svg, offsets.map((x, i) => [X(x), Y(scores[i])]), BLUE);
    make(svg, "circle", { cx: X(o), cy: Y(score(m, p)), r: 6, fill: ORANGE });
    for (const x of [d.offsets[0], 0, d.offsets[1]])
      text(svg, X(x), 192, String(x), { "font-size": 11 });
    for (const v of flat ? [lo] : [lo, hi])
      text(svg, 55, Y(v), v.toFixed(1), { "text-anchor": "end", dy: "0.35em", "font-size": 11 });
    text(svg, 60 + w / 2, 192, t("offset m − p"), { "font-size": 12 });
    text(svg, 60 + w / 2, 16, t("score of q at m = {m} and k at p = {p}", { m, p }), { "font-size": 13 });
    // Below: some pairs of q (blue) and k (orange), turned; each adds its product.
    d.pairs.forEach((i, j) => {
      const cx = 100 + (narrow ? j % 2 : j) * 160, j2 = i + half;
      const cy = 300 + (narrow ? Math.floor(j / 2) * 190 : 0);
      // The longer of the two reaches the circle; two zero vectors stay at the centre.
      const r = Math.max(Math.hypot(Q[i], Q[j2]), Math.hypot(K[i], K[j2])) || 1;
      make(svg, "circle", { cx, cy, r: 60, fill: "none", stroke: GREY, "stroke-width": 0.5 });
      for (const [v, color] of [[q, BLUE], [k, ORANGE]])
        make(svg, "line", { x1: cx, y1: cy, x2: cx + 60 * v[i] / r, y2: cy - 60 * v[j2] / r,
          stroke: color, "stroke-width": 3, "stroke-linecap": "round" });
      text(svg, cx, cy - 75, t("pair {i}", { i }), { "font-size": 12 });
      text(svg, cx, cy + 82, t("adds {x}", { x: (q[i] * k[i] + q[j2] * k[j2]).toFixed(2) }), { "font-size": 12 });
    });
    // 350 px wide on a narrow screen: a phone's column holds it unshrunk (text 11 px).
    // The row of numbers as the page prints them; only its label is translated.
    return [narrow ? 350 : 660, narrow ? 582 : 392, t("m = {m}, p = {p}: score {s}", { m, p, s: f4(score(m, p)) }),
      [`m ${m}   p ${p}   m − p ${o}   ${t("score")} ${f4(score(m, p))}`]];
  };
};
window.attnlit?.start();
