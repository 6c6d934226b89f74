// Page 10c (talk-to-the-model.md): chapter 10's TinyGPT in the browser, and the playground
// that talks to it. The weights come from tinygpt.bin, beside the page, which the build writes
// with attnlit.export.export_weights: four bytes that give the length of a JSON header, the
// header, then every parameter as float16. The page fetches them only when the reader presses
// the start button. window.attnlitTinyGPT exposes the model to the browser tests (and to the
// console): load(url), forward(ids, {ablate}) -> {logits, attention}, and
// generate(ids, k, {ablate}) -> ids and k greedy tokens more, computed with a KV cache.
(() => {
  "use strict";
  if (window.attnlitTinyGPT) return; // instant navigation runs it again: document$ mounts
  // --8<-- [start:model]
  let config, P; // the header's config; each parameter by name, as a Float32Array

  // A float16 from its 16 bits: a sign, 5 exponent bits, 10 fraction bits.
  function half(bits) {
    const sign = bits >> 15 ? -1 : 1, e = (bits >> 10) & 31, f = bits & 1023;
    if (e === 0) return sign * f * 2 ** -24; // subnormal
    if (e === 31) return f ? NaN : sign * Infinity;
    return sign * (1024 + f) * 2 ** (e - 25);
  }

  async function load(url) {
    const response = await fetch(url);
    if (!response.ok)
      throw Object.assign(new Error(`${url} answered ${response.status}`), { url, status: response.status });
    const buffer = await response.arrayBuffer(), view = new DataView(buffer);
    const size = view.getUint32(0, true), bytes = new Uint8Array(buffer, 4, size);
    const header = JSON.parse(new TextDecoder().decode(bytes));
    let at = 4 + size;
    P = {};
    for (const [name, shape] of header.tensors) {
      const values = new Float32Array(shape.reduce((a, b) => a * b, 1));
      for (let i = 0; i < values.length; i++, at += 2)
        values[i] = half(view.getUint16(at, true)); // little-endian
      P[name] = values;
    }
    config = header.config;
    return config;
  }

  // nn.Linear on L rows: x (L, din) -> x W^T + b, (L, dout); W is (dout, din). Four
  // outputs at a time (dout is a multiple of 4): each x[i, k] is read once for four
  // products, twice as fast as one output at a time.
  function linear(x, L, W, b, din, dout) {
    const y = new Float64Array(L * dout);
    for (let i = 0; i < L; i++)
      for (let o = 0; o < dout; o += 4) {
        const w = o * din; // rows o to o + 3 of W start at w, w + din, ...
        let y0 = 0, y1 = 0, y2 = 0, y3 = 0;
        for (let k = 0; k < din; k++) {
          const v = x[i * din + k];
          y0 += v * W[w + k];
          y1 += v * W[w + din + k];
          y2 += v * W[w + 2 * din + k];
          y3 += v * W[w + 3 * din + k];
        }
        const at = i * dout + o;
        y[at] = y0;
        y[at + 1] = y1;
        y[at + 2] = y2;
        y[at + 3] = y3;
        if (b) for (let j = 0; j < 4; j++) y[at + j] += b[o + j];
      }
    return y;
  }

  // nn.LayerNorm on each row of (L, d): mean 0 and variance 1, then gain and shift.
  function layerNorm(x, L, d, gain, shift) {
    const y = new Float64Array(L * d);
    for (let i = 0; i < L; i++) {
      const row = x.subarray(i * d, (i + 1) * d);
      const mean = row.reduce((a, v) => a + v, 0) / d;
      const variance = row.reduce((a, v) => a + (v - mean) ** 2, 0) / d;
      for (let k = 0; k < d; k++)
        y[i * d + k] = (row[k] - mean) / Math.sqrt(variance + 1e-5) * gain[k] + shift[k];
    }
    return y;
  }

  // nn.GELU(approximate="tanh"), in place: v (1 + tanh u) / 2 with u = C (v + 0.044715 v^3),
  // written v / (1 + exp(-2u)), the same number: Math.exp is several times faster than
  // Math.tanh. (Loops here, not the arrays' map, which is slower still.)
  const C = Math.sqrt(2 / Math.PI);
  function gelu(x) {
    for (let i = 0; i < x.length; i++) {
      const v = x[i], u = C * (v + 0.044715 * v * v * v);
      x[i] = v / (1 + Math.exp(-2 * u));
    }
    return x;
  }
  // x + y, in x's place: the residual connection.
  function add(x, y) {
    for (let i = 0; i < x.length; i++) x[i] += y[i];
    return x;
  }

  // One head's attention for query row i, at position m, over keys 0 to m: its weights
  // into row (zeros after m: the causal mask) and, if the head is on, the weighted sum of
  // the values into the context. The head's columns are c to c + hd - 1 of each row of d.
  function attend(queries, keys, values, i, m, c, hd, d, row, context, on) {
    const q = i * d + c, scale = Math.sqrt(hd); // queries[q + k]: the query's k-th number
    let max = -Infinity, total = 0;
    for (let j = 0; j <= m; j++) {
      let score = 0;
      for (let k = 0, key = j * d + c; k < hd; k++) score += queries[q + k] * keys[key + k];
      row[j] = score / scale;
      if (row[j] > max) max = row[j];
    }
    for (let j = 0; j <= m; j++) total += row[j] = Math.exp(row[j] - max);
    for (let j = 0; j <= m; j++) row[j] /= total;                       // softmax
    if (on)
      for (let j = 0; j <= m; j++)
        for (let k = 0, value = j * d + c; k < hd; k++) context[q + k] += row[j] * values[value + k];
  }

  // The model on L new tokens after the S that the caches hold (cache.seen; per layer,
  // keys and values of (context, d), filled up to row S): the logits, (L, vocab) as one
  // flat array, and each layer's attention weights, (h, L, S + L). The heads in `off`
  // ("layer.head") compute their weights but add nothing to the context: ablated.
  function step(ids, cache, off) {
    const { d_model: d, num_heads: h, vocab_size: vocab } = config, hd = d / h;
    const L = ids.length, S = cache.seen, n = S + L;
    const tok = P["tok_emb.weight"], pos = P["pos_emb.weight"];
    let x = new Float64Array(L * d);                                   // (L, d)
    for (let i = 0; i < L; i++)
      for (let k = 0; k < d; k++) x[i * d + k] = tok[ids[i] * d + k] + pos[(S + i) * d + k];
    const attention = [];
    for (let layer = 0; layer < cache.layers.length; layer++) {
      const { keys, values } = cache.layers[layer];
      const p = name => P[`trf_blocks.${layer}.${name}`];
      const a = layerNorm(x, L, d, p("norm1.weight"), p("norm1.bias"));
      const queries = linear(a, L, p("att.W_query.weight"), null, d, d);  // (L, d)
      keys.set(linear(a, L, p("att.W_key.weight"), null, d, d), S * d);   // (S + L, d)
      values.set(linear(a, L, p("att.W_value.weight"), null, d, d), S * d);
      const context = new Float64Array(L * d), weights = [];              // (L, d)
      for (let head = 0; head < h; head++) {
        const on = !off.has(`${layer}.${head}`), rows = [];
        for (let i = 0; i < L; i++) {
          rows.push(new Float64Array(n));                                  // (L, n)
          attend(queries, keys, values, i, S + i, head * hd, hd, d, rows[i], context, on);
        }
        weights.push(rows);
      }
      attention.push(weights);                                              // (h, L, n)
      const out = p("att.out_proj.weight");
      x = add(x, linear(context, L, out, p("att.out_proj.bias"), d, d));
      const b = layerNorm(x, L, d, p("norm2.weight"), p("norm2.bias"));
      const inner = gelu(linear(b, L, p("ff.0.weight"), p("ff.0.bias"), d, 4 * d));
      x = add(x, linear(inner, L, p("ff.2.weight"), p("ff.2.bias"), 4 * d, d));
    }
    cache.seen = n;
    const normed = layerNorm(x, L, d, P["final_norm.weight"], P["final_norm.bias"]);
    return { logits: linear(normed, L, P["out_head.weight"], null, d, vocab), attention };
  }

  // Empty caches: one per layer, room for the whole context.
  const caches = () => ({ seen: 0, layers: Array.from({ length: config.num_layers }, () => ({
    keys: new Float64Array(config.context_length * config.d_model),
    values: new Float64Array(config.context_length * config.d_model) })) });
  // The first largest, as torch.argmax.
  const argmax = row => row.reduce((best, v, i) => (v > row[best] ? i : best), 0);

  function checked(ids, k, ablate) {
    if (!P) throw new Error("load the weights first");
    const { vocab_size: vocab, context_length: n, num_layers, num_heads } = config;
    if (!Array.isArray(ids) || !ids.every(id => Number.isInteger(id) && id >= 0 && id < vocab))
      throw new TypeError(`ids must be an array of integers from 0 to ${vocab - 1}`);
    if (!ids.length || ids.length + k > n)
      throw new RangeError(`ids has ${ids.length} tokens, with k=${k} more: need 1 to ${n}`);
    if (!ablate.every(([l, h]) => l >= 0 && l < num_layers && h >= 0 && h < num_heads))
      throw new RangeError(`ablate must list [layer, head] pairs of this model`);
    return new Set(ablate.map(([l, h]) => `${l}.${h}`));
  }

  // The whole sequence at once: logits (n, vocab), attention (layers, h, n, n).
  function forward(ids, { ablate = [] } = {}) {
    const { logits, attention } = step(ids, caches(), checked(ids, 0, ablate));
    const vocab = config.vocab_size;
    return { logits: ids.map((_, i) => logits.subarray(i * vocab, (i + 1) * vocab)), attention };
  }

  // Greedy generation with the caches: the prompt once, then each new token alone.
  function generate(ids, k, { ablate = [] } = {}) {
    const off = checked(ids, k, ablate), cache = caches(), vocab = config.vocab_size;
    const result = [...ids];
    let { logits } = step(ids, cache, off);
    for (let t = 0; t < k; t++) {
      result.push(argmax(logits.subarray(logits.length - vocab)));  // the last row's best
      if (t < k - 1) ({ logits } = step(result.slice(-1), cache, off));
    }
    return result;
  }
  // --8<-- [end:model]

  window.attnlitTinyGPT = { load, forward, generate, get config() { return config; } };

  // The playground. Shades as attnlit.plots.heatmap draws weights: the step of the palette's
  // scale nearest to the weight (extra.css).
  const shade = v => `var(--attnlit-w${Math.floor(Math.min(Math.max(v, 0), 1) * 20 + 0.5)})`;
  // Bytes as UTF-8 text: each character (a letter with its marks: a grapheme) drawn once over
  // the bytes it spans. A byte of no whole character (a random byte, or a character cut by the
  // edge of the context) stands alone, shown by its value in hex.
  const strict = new TextDecoder("utf-8", { fatal: true }), encoder = new TextEncoder();
  const segmenter = Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  const graphemes = text => segmenter ? [...segmenter.segment(text)].map(s => s.segment) : [...text];
  const hex = b => b.toString(16).padStart(2, "0");
  const LEAD = b => (b < 0x80 ? 1 : b < 0xc2 ? 0 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : b < 0xf5 ? 4 : 0);
  function whole(bytes, i) { // the length of the character that starts at i, or 0
    const k = LEAD(bytes[i]);
    if (!k || i + k > bytes.length) return 0;
    try { strict.decode(Uint8Array.from(bytes.slice(i, i + k))); return k; } catch { return 0; }
  }
  function characters(bytes) { // [{ from, to, text }], text null for a byte of no character
    const found = [];
    for (let i = 0; i < bytes.length;) {
      let j = i, k;
      while (j < bytes.length && (k = whole(bytes, j))) j += k;
      if (j === i) {
        found.push({ from: i, to: i + 1, text: null });
        i += 1;
        continue;
      }
      for (const text of graphemes(strict.decode(Uint8Array.from(bytes.slice(i, j))))) {
        const to = i + encoder.encode(text).length;
        found.push({ from: i, to, text });
        i = to;
      }
    }
    return found;
  }
  // How a character shows: in a cell a space as ␣; a control character as ·; a byte alone in hex.
  const glyph = (c, bytes, inCell = true) => c.text === null ? hex(bytes[c.from])
    : c.text === " " ? (inCell ? "␣" : " ") : /^[\p{Cc}\p{Cf}]+$/u.test(c.text) ? "·" : c.text;
  // Bytes as a line of text, the characters from byte `from` on underlined (the model's):
  // a byte alone in hex, marked as no text.
  function textLine(parent, bytes, from) {
    const mark = el(null, "mark");
    for (const c of characters(bytes)) {
      const into = c.to > from ? mark : parent;
      if (c.text === null) el(into, "span", { class: "attnlit-byte" }, hex(bytes[c.from]));
      else into.append(glyph(c, bytes, false));
    }
    if (mark.childNodes.length) parent.append(mark);
    return parent;
  }
  const said = (bytes, from = 0) => characters(bytes).filter(c => c.to > from)
    .map(c => c.text === null ? ` 0x${hex(bytes[c.from])} ` : glyph(c, bytes, false)).join("")
    .replace(/ {2,}/g, " ").trim();
  // What byte b makes after the bytes up to position m: the character it ends, if it ends one
  // (with the bytes of a character begun before it), or the byte in hex.
  function after(ids, m, b) {
    let start = m + 1;
    for (let i = m; i >= Math.max(0, m - 2); i--) {
      if (LEAD(ids[i]) > m - i + 1) { start = i; break; } // a character still open at m
      if ((ids[i] & 0xc0) !== 0x80) break; // no continuation byte: nothing open further back
    }
    const bytes = [...ids.slice(start, m + 1), b];
    return whole(bytes, 0) === bytes.length ? glyph({ from: 0, text: strict.decode(Uint8Array.from(bytes)) }, bytes)
      : hex(b);
  }
  // The playground's words in the page's language, with {names} filled in, as widgets.js's
  // ui.t: a translated page's box carries them, by their English text (tools/mkdocs_hooks.py).
  const translator = box => {
    const strings = JSON.parse(box.dataset.strings ?? "{}");
    return (words, values = {}) => (strings[words] ?? words).replace(/\{(\w+)\}/g, (_, name) => values[name]);
  };
  const PHRASE = "Bright sky. Br", f4 = v => v.toFixed(4);
  let made = 0;

  function el(parent, tag, attrs = {}, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) if (value !== undefined) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    parent?.append(node);
    return node;
  }

  // Random bytes from a seeded generator (mulberry32): each press of a preset draws anew,
  // the same draws on every visit.
  let seed = 25;
  function random() {
    let t = (seed += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  }
  const shuffled = () => [...Array(256).keys()].map(b => [random(), b]).sort((a, b) => a[0] - b[0])
    .map(([, b]) => b);
  // The presets of random tokens: a stretch of 10, then its first 4 again; 14 all different.
  const randomRepeat = () => { const s = shuffled().slice(0, 10); return [...s, ...s.slice(0, 4)]; };
  const noRepeat = () => shuffled().slice(0, 14);

  function playground(box, t) {
    const n = config.context_length, heads = [];
    for (let l = 0; l < config.num_layers; l++)
      for (let h = 0; h < config.num_heads; h++) heads.push([l, h]);
    box.replaceChildren();
    const controls = el(box, "div", { class: "attnlit-controls" });
    const id = `attnlit-text-${++made}`, line = el(controls, "div", { class: "attnlit-text" });
    el(line, "label", { for: id }, t("Your text"));
    const input = el(line, "input", { id, type: "text", autocomplete: "off", spellcheck: "false" });
    input.value = PHRASE;
    const presets = el(controls, "div", { role: "group", "aria-label": t("Presets") });
    let preset = null; // ids of a preset of random tokens, or null: the text box's
    // Each preset: its label, and a phrase for the text box or what draws its tokens. A
    // translated page adds a phrase in its language (its box's data-phrase).
    const phrases = [[t("a repeated phrase"), PHRASE],
      ...(box.dataset.phrase ? [[t("a repeated phrase in this language"), box.dataset.phrase]] : []),
      [t("random tokens"), randomRepeat], [t("no repeat"), noRepeat]];
    for (const [label, make] of phrases)
      el(presets, "button", { type: "button", class: "md-button" }, label).onclick = () => {
        preset = typeof make === "function" ? make() : null;
        input.value = preset ? "" : make;
        update(true);
      };
    input.oninput = () => { preset = null; update(true); };
    const set = el(controls, "fieldset");
    el(set, "legend", {}, t("Heads on"));
    const switches = heads.map(([l, h]) => {
      const label = el(set, "label"), on = el(label, "input", { type: "checkbox", role: "switch" });
      on.checked = true;
      label.append(` ${l}.${h}`);
      return on;
    });
    set.onchange = () => update();
    const slide = el(controls, "div", { class: "attnlit-slider" }), sid = `attnlit-position-${++made}`;
    el(slide, "label", { for: sid }, t("Position"));
    // A position a press: on a phone the slider gives each position a few pixels only.
    const back = el(slide, "button", { type: "button", "aria-label": t("previous position") }, "‹");
    const position = el(slide, "input", { type: "range", id: sid, min: 0, max: 0, value: 0 });
    const ahead = el(slide, "button", { type: "button", "aria-label": t("next position") }, "›");
    const shown = el(slide, "output", { for: sid });
    position.oninput = () => draw();
    back.onclick = () => { position.value = +position.value - 1; draw(); };
    ahead.onclick = () => { position.value = +position.value + 1; draw(); };
    const caption = el(box, "p", { class: "attnlit-caption" });
    const grid = el(box, "div", { class: "attnlit-grid", role: "img" });
    const looks = el(box, "p", { class: "attnlit-looks" });
    const panels = el(box, "div", { class: "attnlit-panels" });
    const [top, keys, more] = ["attnlit-top", "attnlit-keys", "attnlit-continuation"]
      .map(name => el(panels, "div", { class: name }));
    const timing = el(box, "p", { class: "attnlit-timing" });
    // What changed, in words, for a screen reader: all of it is in the panels above.
    const status = el(box, "p", { class: "attnlit-status", role: "status" });
    let ids, dropped, off, result, took;

    function update(retyped) {
      const bytes = preset ?? [...new TextEncoder().encode(input.value)];
      dropped = Math.max(0, bytes.length - n);
      ids = bytes.slice(dropped);
      off = heads.filter((_, i) => !switches[i].checked);
      const last = +position.value === +position.max;
      position.max = Math.max(ids.length - 1, 0);
      if (retyped || last) position.value = position.max;
      const started = performance.now();
      result = ids.length ? forward(ids, { ablate: off }) : null;
      took = performance.now() - started;
      draw();
    }

    function draw() {
      const m = +position.value, labels = [];
      box.dataset.position = m;
      // At an end, said so, but never disabled: a button pressed until then keeps the focus.
      back.setAttribute("aria-disabled", !m);
      ahead.setAttribute("aria-disabled", m === +position.max);
      if (!result) {
        grid.replaceChildren();
        [looks, timing].forEach(line => { line.textContent = ""; });
        [top, keys, more].forEach(panel => panel.replaceChildren());
        shown.textContent = "–";
        caption.textContent = status.textContent = t("No tokens: type a text or pick a preset.");
        return;
      }
      // Everything follows position m: the continuation is the model's after the text up to m.
      const started = performance.now();
      const continued = m + 1 < n ? generate(ids.slice(0, m + 1), n - m - 1, { ablate: off }).slice(m + 1) : [];
      timing.textContent = t("Forward pass and continuation: {took} ms.",
        { took: (took + performance.now() - started).toFixed(1) });
      // The characters of the context, and the one that holds each position.
      const chars = characters(ids), of = j => chars.find(c => c.from <= j && j < c.to);
      const named = j => { // a position as a reader names it: its character, and which byte of it
        const c = of(j), k = c.to - c.from;
        return k > 1 ? `${glyph(c, ids)}, ${t("byte {i} of {k}", { i: j - c.from + 1, k })}` : glyph(c, ids);
      };
      const at = `${m} (${named(m)})`;
      // Where an induction head looks from m: the token after each earlier occurrence of m's.
      const earlier = ids.slice(0, m).flatMap((b, j) => (b === ids[m] ? [j] : []));
      shown.textContent = at;
      caption.textContent = t("Each head's attention from the chosen position");
      position.setAttribute("aria-valuetext", at);
      grid.style.gridTemplateColumns = `3em repeat(${ids.length}, minmax(0, 1fr))`;
      grid.replaceChildren(el(null, "span"));
      for (const c of chars) { // a character over its bytes' columns; its bytes in its title
        const bytes = ids.slice(c.from, c.to), k = bytes.length;
        const token = el(grid, "span", {
          class: ["attnlit-token", c.text === null && "attnlit-byte", c.from <= m && m < c.to && "attnlit-picked",
            earlier.some(j => c.from <= j && j < c.to) && "attnlit-earlier"].filter(Boolean).join(" "),
          style: k > 1 ? `grid-column: span ${k}` : undefined, "data-bytes": bytes.join(" "),
          title: k > 1 ? t("positions {from} to {to}: bytes {bytes}", { from: c.from, to: c.to - 1, bytes: bytes.join(", ") })
            : t("position {j}: byte {b}", { j: c.from, b: bytes[0] }) }, glyph(c, ids));
        // A character picks its last byte: what follows it is the next character.
        token.onclick = () => { position.value = c.to - 1; draw(); };
      }
      const strongest = heads.map(([l, h], i) => {
        const row = result.attention[l][h][m], key = argmax(row.subarray(0, m + 1));
        const isOff = off.includes(heads[i]), name = `${l}.${h}${isOff ? ` ${t("(off)")}` : ""}`;
        el(grid, "span", { class: isOff ? "attnlit-head attnlit-off" : "attnlit-head" }, `${l}.${h}`);
        const induction = l === config.num_layers - 1; // heads 1.0 and 1.1, chapter 10 found
        ids.forEach((_, j) => el(grid, "span", j > m ? {} : {
          class: `${isOff ? "attnlit-off" : ""}${induction && earlier.includes(j - 1) ? " attnlit-look" : ""}`,
          style: `background: ${shade(row[j])}` }));
        labels.push(`${t("head {name}", { name })}: ${key} (${named(key)}) ${f4(row[key])}`);
        return [name, `${key} ${glyph(of(key), ids)}`, f4(row[key])];
      });
      grid.setAttribute("aria-label",
        t("Attention weights from position {at}, strongest keys: {labels}", { at, labels: labels.join("; ") }));
      looks.textContent = earlier.length
        ? t("Ringed: the token after each earlier {char} (dashed), where an induction head looks: {count} found.",
          { char: glyph(of(m), ids), count: earlier.length })
        : t("No earlier {char}: nothing for an induction head to copy.", { char: glyph(of(m), ids) });
      const logits = result.logits[m], max = Math.max(...logits);
      const exp = logits.map(v => Math.exp(v - max)), total = exp.reduce((a, v) => a + v, 0);
      const best = [...exp.keys()].sort((a, b) => exp[b] - exp[a]).slice(0, 5);
      // The token that follows m in the text, if one does: its probability and its rank.
      const real = ids[m + 1], p = exp[real] / total;
      const inText = real === undefined ? t("In the text: nothing follows.")
        : t("In the text: {char} ({byte}), {prob}, rank {rank}.", { char: after(ids, m, real), byte: real,
          prob: f4(p), rank: exp.filter(v => v > exp[real]).length + 1 });
      table(top, t("Next token"), [t("token"), t("byte"), t("probability")],
        best.map(b => [after(ids, m, b), String(b), f4(exp[b] / total)]), best.map(b => exp[b] / total), best.indexOf(real));
      el(top, "p", { class: "attnlit-real" }, inText);
      table(keys, t("Strongest key of each head"), [t("head"), t("key"), t("weight")], strongest);
      more.replaceChildren(el(null, "p", { class: "attnlit-caption" }, t("Greedy continuation")));
      const out = [...ids.slice(0, m + 1), ...continued];
      textLine(el(more, "p", { class: "attnlit-text-out" }), out, m + 1);
      const full = dropped ? t("The text has {total} bytes; the model reads the last {n}.", { total: dropped + n, n }) : "";
      el(more, "p", { class: "attnlit-note" }, continued.length ? full : `${full} ${t("None: the context is full.")}`.trim());
      status.textContent = [
        t("After position {at}: {char} {prob}.", { at, char: after(ids, m, best[0]), prob: f4(exp[best[0]] / total) }),
        inText,
        t("Continuation: {text}.", { text: said(out, m + 1) || t("none") }),
        off.length ? t("Heads off: {list}.", { list: off.map(([l, h]) => `${l}.${h}`).join(", ") }) : "",
        full,
      ].filter(Boolean).join(" ");
    }

    function table(panel, caption, header, rows, bars, marked) {
      panel.replaceChildren();
      const tbl = el(panel, "table", { class: "attnlit-table" });
      el(tbl, "caption", {}, caption);
      const head = el(el(tbl, "thead"), "tr");
      header.forEach(h => el(head, "th", { scope: "col" }, h));
      const body = el(tbl, "tbody");
      rows.forEach((row, i) => {
        const tr = el(body, "tr", i === marked ? { class: "attnlit-real" } : {});
        row.forEach(v => el(tr, "td", {}, v));
        if (bars) el(el(tr, "td"), "span", { class: "attnlit-bar", style: `width: ${4 * bars[i]}em` });
      });
    }

    update(true);
  }

  // The playground's styles: here, so that the site's other pages do not load them.
  const STYLE = [
    ".attnlit-playground { margin: 1em 0 1.5em; }",
    ".attnlit-playground .attnlit-controls { justify-content: flex-start; align-items: center; }",
    ".attnlit-text { display: flex; flex: 1 1 100%; gap: 0.5em; align-items: center; }",
    ".attnlit-text label, .attnlit-caption, .attnlit-table caption { font-weight: 700; }",
    ".attnlit-text input { flex: 1; min-width: 0; padding: 0.3em 0.5em; font: inherit;"
      + " font-family: var(--md-text-font-family); color: var(--md-default-fg-color);"
      + " background: var(--md-default-bg-color); border: 1px solid var(--md-default-fg-color--light);"
      + " border-radius: 0.2em; }",
    ".attnlit-playground .md-button { margin: 0 0.4em 0.3em 0; padding: 0.3em 0.9em; }",
    // Material's outlined button is indigo on the dark palette too: 2.3:1, not the 4.5:1 of AA.
    "[data-md-color-scheme=slate] .attnlit-playground .md-button:not(.md-button--primary)"
      + " { color: var(--md-default-fg-color); }",
    ".attnlit-playground button:focus-visible { outline: 2px solid var(--md-default-fg-color);"
      + " outline-offset: 2px; }",
    ".attnlit-grid { display: grid; gap: 1px; margin: 0 0 0.8em; font-family: var(--md-text-font-family);"
      + " font-size: 13px; line-height: 1.7; text-align: center; }",
    ".attnlit-grid > span { min-width: 0; overflow: hidden; }",
    ".attnlit-token { cursor: pointer; }",
    // A byte of no character, in hex: smaller, and marked as no text.
    ".attnlit-grid .attnlit-byte { font-size: 11px; text-decoration: underline dotted; }",
    ".attnlit-text-out .attnlit-byte { font-size: 0.85em; margin: 0 0.15em; padding: 0 0.1em;"
      + " border: 1px dotted currentColor; border-radius: 0.2em; }",
    ".attnlit-picked { outline: 2px solid #d95f02; outline-offset: -2px; font-weight: 700; }",
    // The earlier occurrences of the picked token, dashed; where an induction head looks, ringed.
    ".attnlit-earlier { outline: 2px dashed #d95f02; outline-offset: -2px; }",
    ".attnlit-look { box-shadow: inset 0 0 0 2px var(--md-default-bg-color), inset 0 0 0 4px #d95f02; }",
    ".attnlit-head { text-align: left; }",
    "span.attnlit-off:not(.attnlit-head) { opacity: 0.3; }",
    ".attnlit-head.attnlit-off { text-decoration: line-through; }",
    // Panels and tables as wide as the column makes them, whatever they hold: nothing moves
    // while a reader types or picks a position.
    ".attnlit-panels { display: grid; grid-template-columns: repeat(auto-fill, minmax(17em, 1fr)); gap: 0 2em; }",
    ".attnlit-continuation { grid-column: 1 / -1; }",
    // Room for the longest each line says: what a line wraps to, it wraps to in every state.
    ".attnlit-looks, p.attnlit-real { font-size: 0.85em; }",
    "p.attnlit-real, .attnlit-text-out { min-height: 3.2em; }",
    ".attnlit-note { min-height: 1.6em; }",
    "@media (max-width: 40em) { .attnlit-looks, .attnlit-note { min-height: 3.2em; }"
      + " .attnlit-text-out { min-height: 4.8em; } }",
    ".attnlit-table { width: 100%; table-layout: fixed; border-collapse: collapse; font-variant-numeric: tabular-nums; }",
    ".attnlit-table caption { text-align: left; padding-bottom: 0.2em; }",
    ".attnlit-table th, .attnlit-table td { padding: 0.1em 0.9em 0.1em 0; text-align: left; vertical-align: bottom; }",
    ".attnlit-table td { white-space: nowrap; overflow: hidden; }",
    ".attnlit-top th:nth-child(1) { width: 20%; } .attnlit-top th:nth-child(2) { width: 16%; }"
      + " .attnlit-top th:nth-child(3) { width: 38%; }",
    "tr.attnlit-real { outline: 2px solid #d95f02; outline-offset: -1px; font-weight: 700; }",
    ".attnlit-bar { display: inline-block; height: 0.8em; background: #1f77b4; }",
    ".attnlit-text-out { font-family: var(--md-text-font-family); overflow-wrap: anywhere; }",
    ".attnlit-text-out mark { color: inherit; background: none; text-decoration: underline 2px #d95f02;"
      + " text-underline-offset: 0.2em; }",
    ".attnlit-timing { font-size: 0.85em; }",
    ".attnlit-playground .attnlit-status { position: absolute; width: 1px; height: 1px; overflow: hidden;"
      + " clip-path: inset(50%); white-space: nowrap; }",
    // The position on a line of its own, its value beside it (or under it, on a phone): the
    // slider never moves as the value's words change.
    ".attnlit-playground .attnlit-slider { flex: 1 1 100%; flex-wrap: wrap; }",
    ".attnlit-playground .attnlit-slider output { flex: 1 1 12em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }",
    ".attnlit-grid { grid-auto-rows: 1.7em; }",
    ".attnlit-slider button[aria-disabled=true] { opacity: 0.5; cursor: default; }",
  ].join("\n");

  // Each playground of the page: a button that fetches the weights, then the playground.
  function mount() {
    for (const box of document.querySelectorAll(".attnlit-playground:not([data-state])")) {
      if (!document.getElementById("attnlit-playground-style"))
        el(document.head, "style", { id: "attnlit-playground-style" }, STYLE);
      const t = translator(box);
      box.dataset.state = "waiting";
      box.replaceChildren();
      const note = el(box, "p", {},
        t("The model runs here, in your browser, once its weights have come: press the button to fetch them."));
      const start = el(box, "button", { type: "button", class: "md-button md-button--primary" },
        t("Start the model"));
      start.onclick = async () => {
        start.disabled = true;
        box.dataset.state = "loading";
        note.textContent = t("Fetching the weights…");
        try {
          if (!P) await load(new URL(box.dataset.weights, location.href));
        } catch (error) {
          // A host's answer in the page's language; what the browser says (offline), as it says it.
          const message = error.status ? t("{url} answered {status}", error) : error.message;
          note.textContent = t("The weights did not come: {message}. Press to try again.", { message });
          start.disabled = false;
          box.dataset.state = "waiting";
          return;
        }
        playground(box, t);
        box.dataset.state = "ready";
        box.querySelector("input").focus();
      };
    }
  }
  if (window.document$) window.document$.subscribe(mount);
  else mount();
})();
