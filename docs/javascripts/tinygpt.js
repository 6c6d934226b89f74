// Pages 10c (talk-to-the-model.md) and 13b (write-with-the-model.md): chapter 10's TinyGPT and
// chapter 13's TextGPT in the browser, one model for both, and each page's playground. The
// weights come from the file the page's box names (tinygpt.bin, textgpt.bin), beside the page,
// which the build writes with attnlit.export.export_weights: four bytes that give the length
// of a JSON header, the header, then every parameter as float16. The page fetches them only
// when the reader presses the start button. window.attnlitTinyGPT exposes the model to the
// browser tests (and to the console): load(url), forward(ids, {ablate}) -> {logits,
// attention}, and generate(ids, k, {ablate, temperature, topK, seed, draws}) -> ids and k
// tokens more, greedy or sampled, computed with a KV cache.
(() => {
  "use strict";
  if (window.attnlitTinyGPT) return; // instant navigation runs it again: document$ mounts
  // --8<-- [start:model]
  // The header's config; each parameter by name, as a Float32Array; where they came from.
  let config, P, loaded;

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
    const rope = { TinyGPT: false, TextGPT: true }[header.model];     // chapter 13's: RoPE
    if (rope === undefined) throw new Error(`${url} holds a ${header.model}, not a model this page runs`);
    let at = 4 + size;
    P = {};
    for (const [name, shape] of header.tensors) {
      const values = new Float32Array(shape.reduce((a, b) => a * b, 1));
      for (let i = 0; i < values.length; i++, at += 2)
        values[i] = half(view.getUint16(at, true)); // little-endian
      P[name] = values;
    }
    config = { ...header.config, rope };
    loaded = `${url}`;
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
  // --8<-- [start:rope]
  // RoPE (chapter 9), in place, on the rows of x, (L, d), at positions S to S + L - 1: in each
  // head of hd numbers, k and k + hd/2 turn together by the angle m θ_k, θ_k = 10000^(-2k/hd).
  function rope(x, L, S, d, hd) {
    for (let i = 0; i < L; i++)
      for (let k = 0; k < hd / 2; k++) {
        const angle = (S + i) * 10000 ** (-2 * k / hd), cos = Math.cos(angle), sin = Math.sin(angle);
        for (let at = i * d + k; at < (i + 1) * d; at += hd) {
          const a = x[at], b = x[at + hd / 2];
          x[at] = a * cos - b * sin;
          x[at + hd / 2] = b * cos + a * sin;
        }
      }
    return x;
  }
  // --8<-- [end:rope]
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
    const tok = P["tok_emb.weight"], pos = P["pos_emb.weight"];      // no pos with RoPE
    let x = new Float64Array(L * d);                                   // (L, d)
    for (let i = 0; i < L; i++)
      for (let k = 0; k < d; k++) x[i * d + k] = tok[ids[i] * d + k] + (pos ? pos[(S + i) * d + k] : 0);
    const attention = [];
    for (let layer = 0; layer < cache.layers.length; layer++) {
      const { keys, values } = cache.layers[layer];
      const p = name => P[`trf_blocks.${layer}.${name}`];
      const a = layerNorm(x, L, d, p("norm1.weight"), p("norm1.bias"));
      const queries = linear(a, L, p("att.W_query.weight"), null, d, d);  // (L, d)
      const fresh = linear(a, L, p("att.W_key.weight"), null, d, d);     // (L, d)
      if (config.rope) [queries, fresh].forEach(rows => rope(rows, L, S, d, hd));
      keys.set(fresh, S * d);                                              // (S + L, d)
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
  const allHeads = () => Array.from({ length: config.num_layers * config.num_heads },
    (_, i) => [Math.floor(i / config.num_heads), i % config.num_heads]);     // [layer, head]

  // --8<-- [start:sample]
  // The next token from a row of logits, as chapter 11's next_token: the likeliest at
  // temperature 0. Else the top k kept, softmax(logits / temperature), and the token whose
  // probability divided by its draw from an exponential distribution is largest: how
  // torch.multinomial draws one sample, so that the same draws give PyTorch's token.
  function nextToken(logits, temperature, topK, draws) {
    if (temperature === 0) return argmax(logits);
    const kth = topK ? [...logits].sort((a, b) => b - a)[topK - 1] : -Infinity;
    const best = Math.max(...logits);
    // The best is exp(0) = 1 outright: a temperature small enough to round (v - best) / T to
    // 0 / 0 would otherwise make it NaN.
    const kept = logits.map(v => (v < kth ? 0 : Math.exp(v === best ? 0 : (v - best) / temperature)));
    const total = kept.reduce((a, v) => a + v, 0);
    return argmax(kept.map((v, i) => (v ? v / total / draws[i] : 0)));  // a dropped token: never
  }
  // --8<-- [end:sample]
  // Seeded uniform numbers in [0, 1) (mulberry32): the same seed, the same numbers.
  function uniform(seed) {
    return () => {
      let t = (seed = (seed + 0x6d2b79f5) | 0);                 // 32 bits, as mulberry32 counts
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    };
  }
  // A step's draws from an exponential distribution, one per token of the vocabulary.
  const exponential = (random, vocab) => Float64Array.from({ length: vocab }, () => -Math.log(1 - random()));

  function checked(ids, k, ablate, temperature = 0, topK = null, seed = 0) {
    if (!P) throw new Error("load the weights first");
    const { vocab_size: vocab, context_length: n, num_layers, num_heads } = config;
    if (!(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32))
      throw new RangeError(`seed must be an integer from 0 to 2^32 - 1, got ${seed}`);
    if (!(Number.isFinite(temperature) && temperature >= 0))
      throw new RangeError(`temperature must be finite and >= 0, got ${temperature}`);
    if (topK !== null && !(Number.isInteger(topK) && topK >= 1 && topK <= vocab))
      throw new RangeError(`topK must be an integer from 1 to ${vocab}, or null, got ${topK}`);
    if (!Array.isArray(ids) || !ids.every(id => Number.isInteger(id) && id >= 0 && id < vocab))
      throw new TypeError(`ids must be an array of integers from 0 to ${vocab - 1}`);
    if (!ids.length || ids.length + k > n)
      throw new RangeError(`ids has ${ids.length} tokens, with k=${k} more: need 1 to ${n}`);
    if (!ablate.every(([l, h]) => Number.isInteger(l) && Number.isInteger(h) && l >= 0 && l < num_layers
      && h >= 0 && h < num_heads))
      throw new RangeError(`ablate must list [layer, head] pairs of this model`);
    return new Set(ablate.map(([l, h]) => `${l}.${h}`));
  }

  // The whole sequence at once: logits (n, vocab), attention (layers, h, n, n).
  function forward(ids, { ablate = [] } = {}) {
    const { logits, attention } = step(ids, caches(), checked(ids, 0, ablate));
    const vocab = config.vocab_size;
    return { logits: ids.map((_, i) => logits.subarray(i * vocab, (i + 1) * vocab)), attention };
  }

  // Generation with the caches: the prompt once, then each new token alone. Greedy at
  // temperature 0; else sampled with the draws of each step (draws[t], one per token of the
  // vocabulary), or with draws seeded by `seed`.
  function generate(ids, k, { ablate = [], temperature = 0, topK = null, seed = 0, draws } = {}) {
    const off = checked(ids, k, ablate, temperature, topK, seed), cache = caches(), vocab = config.vocab_size;
    const random = uniform(seed), result = [...ids];
    let { logits } = step(ids, cache, off);
    for (let t = 0; t < k; t++) {
      const last = logits.subarray(logits.length - vocab);  // the last row's
      const drawn = temperature === 0 ? null : draws?.[t] ?? exponential(random, vocab);  // greedy: none
      result.push(nextToken(last, temperature, topK, drawn));
      if (t < k - 1) ({ logits } = step(result.slice(-1), cache, off));
    }
    return result;
  }
  // --8<-- [end:model]

  window.attnlitTinyGPT = { load, forward, generate, uniform, get config() { return config; },
    get loaded() { return loaded; } };

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
  // a byte alone in hex, marked as no text. With `lines`, a line break is one (page 13b's plays).
  function textLine(parent, bytes, from, lines = false) {
    const mark = el(null, "mark");
    for (const c of characters(bytes)) {
      const into = c.to > from ? mark : parent;
      if (c.text === null) el(into, "span", { class: "attnlit-byte" }, hex(bytes[c.from]));
      else into.append(lines && c.text === "\n" ? "\n" : glyph(c, bytes, false));
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
  const random = uniform(25);
  const shuffled = () => [...Array(256).keys()].map(b => [random(), b]).sort((a, b) => a[0] - b[0])
    .map(([, b]) => b);
  // The presets of random tokens: a stretch of 10, then its first 4 again; 14 all different.
  const randomRepeat = () => { const s = shuffled().slice(0, 10); return [...s, ...s.slice(0, 4)]; };
  const noRepeat = () => shuffled().slice(0, 14);

  // Switches, one a head, all on, in a fieldset: changed() when one changes.
  function headSwitches(controls, t, heads, name, changed) {
    const set = el(controls, "fieldset", { class: "attnlit-heads" });
    el(set, "legend", {}, t("Heads on"));
    set.onchange = changed;
    return heads.map(head => {
      const label = el(set, "label"), on = el(label, "input", { type: "checkbox", role: "switch" });
      on.checked = true;
      label.append(` ${name(head)}`);
      return on;
    });
  }
  // The position: a slider, and a button each side that moves it by one (on a phone the
  // slider gives each position a few pixels only); moved() after each move.
  function slider(controls, t, moved) {
    const slide = el(controls, "div", { class: "attnlit-slider" }), sid = `attnlit-position-${++made}`;
    el(slide, "label", { for: sid }, t("Position"));
    const back = el(slide, "button", { type: "button", "aria-label": t("previous position") }, "‹");
    const position = el(slide, "input", { type: "range", id: sid, min: 0, max: 0, value: 0 });
    const ahead = el(slide, "button", { type: "button", "aria-label": t("next position") }, "›");
    const shown = el(slide, "output", { for: sid });
    position.oninput = moved;
    back.onclick = () => { position.value = +position.value - 1; moved(); };
    ahead.onclick = () => { position.value = +position.value + 1; moved(); };
    return { position, back, ahead, shown };
  }
  // The character that holds byte j; and byte j as a reader names it: its character, and
  // which byte of it.
  function positions(ids, chars, t) {
    const of = j => chars.find(c => c.from <= j && j < c.to);
    const named = j => {
      const c = of(j), k = c.to - c.from;
      return k > 1 ? `${glyph(c, ids)}, ${t("byte {i} of {k}", { i: j - c.from + 1, k })}` : glyph(c, ids);
    };
    return { of, named };
  }
  // The five likeliest tokens after position m, from its logits, as a table under `caption`;
  // then the token that follows m in the text, if one does: its probability and its rank.
  // The likeliest and that line, for the status.
  function nextPanel(panel, t, ids, logits, m, caption, header) {
    const max = Math.max(...logits), exp = logits.map(v => Math.exp(v - max));
    const total = exp.reduce((a, v) => a + v, 0), best = [...exp.keys()].sort((a, b) => exp[b] - exp[a]).slice(0, 5);
    const real = ids[m + 1];
    const inText = real === undefined ? t("In the text: nothing follows.")
      : t("In the text: {char} ({byte}), {prob}, rank {rank}.", { char: after(ids, m, real), byte: real,
        prob: f4(exp[real] / total), rank: exp.filter(v => v > exp[real]).length + 1 });
    table(panel, caption, header, best.map(b => [after(ids, m, b), String(b), f4(exp[b] / total)]),
      best.map(b => exp[b] / total), best.indexOf(real));
    el(panel, "p", { class: "attnlit-real" }, inText);
    return { likeliest: { char: after(ids, m, best[0]), prob: f4(exp[best[0]] / total) }, inText };
  }
  // The model on the last bytes of a text that fit its context, the heads switched off left
  // out; the slider's range set to the text, kept at its end if it was there (or retyped).
  function reread(bytes, heads, switches, position, retyped) {
    const dropped = Math.max(0, bytes.length - config.context_length), ids = bytes.slice(dropped);
    const off = heads.filter((_, i) => !switches[i].checked), last = +position.value === +position.max;
    position.max = Math.max(ids.length - 1, 0);
    if (retyped || last) position.value = position.max;
    const started = performance.now(), result = ids.length ? forward(ids, { ablate: off }) : null;
    return { ids, dropped, off, result, took: performance.now() - started };
  }
  // A table of rows under its caption and header; a bar after each row's cells, if given, and
  // the row `marked` outlined.
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

  function playground(box, t) {
    const n = config.context_length, heads = allHeads();
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
    const switches = headSwitches(controls, t, heads, ([l, h]) => `${l}.${h}`, () => update());
    const { position, back, ahead, shown } = slider(controls, t, () => draw());
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
      ({ ids, dropped, off, result, took } = reread(preset ?? [...encoder.encode(input.value)], heads, switches,
        position, retyped));
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
      const chars = characters(ids), { of, named } = positions(ids, chars, t);
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
      const { likeliest, inText } = nextPanel(top, t, ids, result.logits[m], m, t("Next token"),
        [t("token"), t("byte"), t("probability")]);
      table(keys, t("Strongest key of each head"), [t("head"), t("key"), t("weight")], strongest);
      more.replaceChildren(el(null, "p", { class: "attnlit-caption" }, t("Greedy continuation")));
      const out = [...ids.slice(0, m + 1), ...continued];
      textLine(el(more, "p", { class: "attnlit-text-out" }), out, m + 1);
      const full = dropped ? t("The text has {total} bytes; the model reads the last {n}.", { total: dropped + n, n }) : "";
      el(more, "p", { class: "attnlit-note" }, continued.length ? full : `${full} ${t("None: the context is full.")}`.trim());
      status.textContent = [
        t("After position {at}: {char} {prob}.", { at, ...likeliest }),
        inText,
        t("Continuation: {text}.", { text: said(out, m + 1) || t("none") }),
        off.length ? t("Heads off: {list}.", { list: off.map(([l, h]) => `${l}.${h}`).join(", ") }) : "",
        full,
      ].filter(Boolean).join(" ");
    }

    update(true);
  }

  // Page 13b's playground: chapter 13's model of plays. The text shown as text, each character
  // shaded by the attention one head gives it from the chosen position; the next byte's
  // likeliest values; each head's strongest key; and text written on request, greedy or
  // sampled with a seed, with the heads that are on.
  const SPEECH = "HAMLET:\nTo be, or not to be", WRITE = 128;
  const TURN = "ROMEO:\nBut soft, what light through yonder window breaks?\n\nJULIET:\n";

  function textPlayground(box, t) {
    const n = config.context_length, heads = allHeads();
    const name = ([l, h]) => `L${l}H${h}`;
    box.replaceChildren();
    const controls = el(box, "div", { class: "attnlit-controls" });
    const id = `attnlit-text-${++made}`, line = el(controls, "div", { class: "attnlit-text" });
    el(line, "label", { for: id }, t("Your text"));
    const input = el(line, "textarea", { id, rows: 3, autocomplete: "off", spellcheck: "false" });
    input.value = SPEECH;
    const presets = el(controls, "div", { role: "group", "aria-label": t("Presets") });
    for (const [label, text] of [[t("Hamlet's line"), SPEECH], [t("a speaker's turn"), TURN]])
      el(presets, "button", { type: "button", class: "md-button" }, label).onclick = () => {
        input.value = text;
        update(true);
      };
    // A pass over 256 bytes takes a good part of a second on a phone: the keystrokes that came
    // meanwhile make one pass, not one each.
    let pending = null;
    const readTyped = () => { clearTimeout(pending); pending = null; update(true); };
    input.oninput = () => { pending ??= setTimeout(readTyped); };
    const switches = headSwitches(controls, t, heads, name, () => update());
    const pick = el(controls, "div", { class: "attnlit-text" }), hid = `attnlit-head-${++made}`;
    el(pick, "label", { for: hid }, t("Shaded by the attention of head"));
    const chosen = el(pick, "select", { id: hid });
    heads.forEach((head, i) => el(chosen, "option", { value: i }, name(head)));
    chosen.value = String(config.num_heads + 1); // L1H1: the head the model can least do without
    chosen.onchange = () => draw();
    const { position, back, ahead, shown } = slider(controls, t, () => draw());
    const caption = el(box, "p", { class: "attnlit-caption" });
    const passage = el(box, "p", { class: "attnlit-passage", role: "img" });
    const panels = el(box, "div", { class: "attnlit-panels" });
    const [top, keys] = ["attnlit-top", "attnlit-keys"].map(kind => el(panels, "div", { class: kind }));
    // Writing: the temperature, the top k, the seed, and a button; Enter in a field writes too.
    // novalidate: the status line says what is wrong, in the page's language (not a bubble).
    const writing = el(box, "form", { class: "attnlit-controls attnlit-writing", novalidate: "" });
    const field = (label, attrs) => {
      const wrap = el(writing, "div", { class: "attnlit-text" }), fid = `attnlit-field-${++made}`;
      el(wrap, "label", { for: fid }, label);
      return el(wrap, "input", { id: fid, ...attrs });
    };
    const temperature = field(t("Temperature (0: greedy)"), { type: "number", min: 0, max: 2, step: 0.1, value: 0.8 });
    const topK = field(t("Top k"), { type: "number", min: 1, max: config.vocab_size, step: 1, value: 20 });
    const seed = field(t("Seed"), { type: "number", min: 0, max: 2 ** 32 - 1, step: 1, value: 0 });
    el(writing, "button", { type: "submit", class: "md-button" }, t("Write {k} bytes", { k: WRITE }));
    const written = el(box, "div", { class: "attnlit-continuation" });
    const timing = el(box, "p", { class: "attnlit-timing" });
    const status = el(box, "p", { class: "attnlit-status", role: "status" });
    let ids, dropped, off, result, took, wrote = "";

    function update(retyped) {
      ({ ids, dropped, off, result, took } = reread([...encoder.encode(input.value)], heads, switches, position,
        retyped));
      written.replaceChildren();
      draw();
    }

    // An empty field is no number (Number("") would be 0).
    const number = field => (field.value.trim() === "" ? NaN : Number(field.value));
    writing.onsubmit = event => {
      event.preventDefault();
      if (pending !== null) readTyped(); // the keystrokes not read yet
      const T = number(temperature), k = number(topK), s = number(seed);
      const problems = [!(T >= 0 && T <= 2) && t("a temperature from 0 to 2"),
        !(Number.isInteger(k) && k >= 1 && k <= config.vocab_size) && t("a top k from 1 to {vocab}", { vocab: config.vocab_size }),
        !(Number.isInteger(s) && s >= 0 && s < 2 ** 32) && t("a seed, a whole number from 0 to {max}", { max: 2 ** 32 - 1 }),
      ].filter(Boolean);
      written.replaceChildren(el(null, "p", { class: "attnlit-caption" }, t("Written")));
      if (problems.length || !ids.length) {
        wrote = problems.length ? t("Nothing written: give {list}.", { list: problems.join(", ") })
          : t("No text: type one or pick a preset.");
        el(written, "p", { class: "attnlit-note" }, wrote);
        status.textContent = wrote;
        return;
      }
      const prompt = ids.slice(-(n - WRITE)), started = performance.now();
      const out = generate(prompt, WRITE, { ablate: off, temperature: T, topK: k, seed: s });
      const ms = performance.now() - started;
      textLine(el(written, "p", { class: "attnlit-text-out attnlit-lines" }), out, prompt.length, true);
      const how = T === 0 ? t("greedy") : t("temperature {T}, top {k}, seed {s}", { T, k, s });
      el(written, "p", { class: "attnlit-note" }, t("{k} bytes, {how}, after the last {p} bytes of the text.",
        { k: WRITE, how, p: prompt.length }));
      timing.textContent = t("Forward pass: {took} ms. Writing: {ms} ms, {each} ms a byte.",
        { took: took.toFixed(1), ms: ms.toFixed(1), each: (ms / WRITE).toFixed(2) });
      wrote = t("Written, {how}: {text}", { how, text: said(out, prompt.length) });
      status.textContent = wrote;
    };

    function draw() {
      const m = +position.value;
      box.dataset.position = m;
      back.setAttribute("aria-disabled", !m);
      ahead.setAttribute("aria-disabled", m === +position.max);
      if (!result) {
        [passage, top, keys].forEach(panel => panel.replaceChildren());
        shown.textContent = "–";
        caption.textContent = status.textContent = t("No text: type one or pick a preset.");
        timing.textContent = "";
        return;
      }
      const chars = characters(ids), { of, named } = positions(ids, chars, t);
      const at = `${m} (${named(m)})`, head = heads[+chosen.value], row = result.attention[head[0]][head[1]][m];
      shown.textContent = at;
      position.setAttribute("aria-valuetext", at);
      caption.textContent = t("Head {head}'s attention from position {at}", { head: name(head), at });
      passage.replaceChildren();
      for (const c of chars) { // a character's shade: the weight of all its bytes
        let weight = 0;
        for (let j = c.from; j < c.to && j <= m; j++) weight += row[j];
        const seen = c.from <= m;
        const cell = el(passage, "span", {
          class: ["attnlit-token", c.text === null && "attnlit-byte", c.from <= m && m < c.to && "attnlit-picked",
            !seen && "attnlit-after"].filter(Boolean).join(" "),
          style: seen ? `background: ${shade(weight)}; color: ${shade(weight).replace("-w", "-t")}` : undefined,
          title: t("position {j}: weight {w}", { j: c.from, w: f4(weight) }) },
        c.text === "\n" ? "↵" : glyph(c, ids, false));
        cell.onclick = () => { position.value = c.to - 1; draw(); };
        if (c.text === "\n") el(passage, "br");
      }
      const strongest = heads.map(([l, h], i) => {
        const weights = result.attention[l][h][m], key = argmax(weights.subarray(0, m + 1));
        const isOff = !switches[i].checked ? ` ${t("(off)")}` : "";
        return [`${name([l, h])}${isOff}`, `${key} ${glyph(of(key), ids)}`, f4(weights[key])];
      });
      const picked = argmax(row.subarray(0, m + 1));
      passage.setAttribute("aria-label", t("Head {head}'s attention from position {at}: strongest at {key} ({char}), {weight}",
        { head: name(head), at, key: picked, char: named(picked), weight: f4(row[picked]) }));
      const { likeliest, inText } = nextPanel(top, t, ids, result.logits[m], m, t("Next byte"),
        [t("text"), t("byte"), t("probability")]);
      table(keys, t("Strongest key of each head"), [t("head"), t("key"), t("weight")], strongest);
      const full = dropped ? t("The text has {total} bytes; the model reads the last {n}.", { total: dropped + n, n }) : "";
      timing.textContent = t("Forward pass: {took} ms.", { took: took.toFixed(1) });
      status.textContent = [
        t("After position {at}: {char} {prob}.", { at, ...likeliest }),
        inText, passage.getAttribute("aria-label") + ".",
        off.length ? t("Heads off: {list}.", { list: off.map(name).join(", ") }) : "", full,
      ].filter(Boolean).join(" ");
    }

    update(true);
  }

  // The playground's styles: here, so that the site's other pages do not load them.
  const STYLE = [
    ".attnlit-playground { margin: 1em 0 1.5em; }",
    ".attnlit-playground .attnlit-controls { justify-content: flex-start; align-items: center; }",
    ".attnlit-text { display: flex; flex: 1 1 100%; gap: 0.5em; align-items: center; }",
    ".attnlit-text label, .attnlit-caption, .attnlit-table caption { font-weight: 700; }",
    ".attnlit-text input, .attnlit-text textarea, .attnlit-text select { flex: 1; min-width: 0;"
      + " padding: 0.3em 0.5em; font: inherit;"
      + " font-family: var(--md-text-font-family); color: var(--md-default-fg-color);"
      + " background: var(--md-default-bg-color); border: 1px solid var(--md-default-fg-color--light);"
      + " border-radius: 0.2em; }",
    ".attnlit-playground .md-button { margin: 0 0.4em 0.3em 0; padding: 0.3em 0.9em; }",
    // Material's outlined button is indigo on the dark palette too: 2.3:1, not the 4.5:1 of AA.
    "[data-md-color-scheme=slate] .attnlit-playground .md-button:not(.md-button--primary)"
      + " { color: var(--md-default-fg-color); }",
    // Material's focused or hovered button is white on its accent, 4.25:1: on indigo instead.
    ".attnlit-playground .md-button:is(:focus, :hover) { color: #fff; background-color: var(--md-primary-fg-color);"
      + " border-color: var(--md-primary-fg-color); }",
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
    // Page 13b: the text as it is written, each character on the shade of its weight.
    ".attnlit-text textarea { resize: vertical; }",
    ".attnlit-controls .attnlit-heads { display: grid; flex: 1 1 100%; grid-template-columns: repeat(4, max-content);"
      + " gap: 0.2em 1.2em; }",
    ".attnlit-heads legend { grid-column: 1 / -1; }",
    ".attnlit-lines { white-space: pre-wrap; }",
    ".attnlit-writing .attnlit-text { flex: 0 1 auto; } .attnlit-writing label { white-space: nowrap; }",
    ".attnlit-writing .attnlit-text input { width: 5em; flex: 0 0 5em; }",
    ".attnlit-passage { font-family: var(--md-code-font-family); font-size: 13px; line-height: 1.9;"
      + " white-space: pre-wrap; overflow-wrap: anywhere; }",
    ".attnlit-passage .attnlit-token { padding: 0.1em 0; }",
    ".attnlit-passage .attnlit-after { color: var(--md-default-fg-color--light); }",
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
          const url = new URL(box.dataset.weights, location.href);
          if (loaded !== `${url}`) await load(url); // another page's model: not this one
        } catch (error) {
          // A host's answer in the page's language; what the browser says (offline), as it says it.
          const message = error.status ? t("{url} answered {status}", error) : error.message;
          note.textContent = t("The weights did not come: {message}. Press to try again.", { message });
          start.disabled = false;
          box.dataset.state = "waiting";
          return;
        }
        (config.rope ? textPlayground : playground)(box, t);
        box.dataset.state = "ready";
        box.querySelector("input, textarea").focus();
      };
    }
  }
  if (window.document$) window.document$.subscribe(mount);
  else mount();
})();
