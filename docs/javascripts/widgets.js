// Figures readers can move (docs/figures.md), the part that every kind of widget shares. A
// figure block that leaves a `widget` dictionary gets it as JSON beside its drawing
// (tools/mkdocs_hooks.py), and its page loads this script and widgets/<kind>.js, which puts
// its drawing in attnlitKinds and calls attnlit.start(). Here each widget gets its controls
// and is drawn again whenever one moves. Without JavaScript the static drawing stays. With
// Material's instant navigation, pages come in without a reload and document$ tells; it
// then loads the page's scripts all at once, in any order.
(() => {
  "use strict";
  // Instant navigation runs the script again on each page that has a widget: set up once.
  if (window.attnlit) return;
  const SVG = "http://www.w3.org/2000/svg";
  const GREY = "#888888", f4 = v => v.toFixed(4);
  const kinds = (window.attnlitKinds ??= {}); // filled by the kinds' scripts, maybe first
  let made = 0; // element ids

  function make(parent, tag, attrs = {}, text) {
    const node = parent instanceof SVGElement || tag === "svg"
      ? document.createElementNS(SVG, tag) : document.createElement(tag);
    for (const [name, value] of Object.entries(attrs))
      if (value !== undefined) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    parent?.append(node);
    return node;
  }

  // Text is in the page's colour (extra.css), unless a style says otherwise.
  const text = (g, x, y, s, attrs = {}) =>
    make(g, "text", { x, y, "text-anchor": "middle", ...attrs }, s);

  // The step of the heatmaps' scale nearest to v / vmax, 0 to 20, as attnlit.plots.level
  // finds it: each step's colour, and its number's, are the palette's (extra.css).
  const level = (v, vmax) => Math.floor(Math.min(Math.max(v / vmax, 0), 1) * 20 + 0.5);

  // A heatmap as attnlit.plots.heatmap draws it: one row per query, one column per key, the
  // value in each cell, hidden cells hatched over a grey of their own and empty.
  function grid(g, x0, y0, size, rows, o = {}) {
    const vmax = o.vmax ?? 1, n = rows.length, font = o.font ?? 11;
    rows.forEach((row, m) => row.forEach((v, p) => {
      const x = x0 + p * size, y = y0 + m * size;
      if (o.hidden?.(m, p)) {
        make(g, "rect", { x, y, width: size, height: size, style: "fill: var(--attnlit-masked)" });
        for (const t of [0.25, 0.5, 0.75]) {
          make(g, "line", { x1: x, y1: y + t * size, x2: x + t * size, y2: y, stroke: GREY });
          make(g, "line", { x1: x + t * size, y1: y + size, x2: x + size, y2: y + t * size,
            stroke: GREY });
        }
        return;
      }
      const k = level(v, vmax);
      make(g, "rect", { x, y, width: size, height: size, style: `fill: var(--attnlit-w${k})` });
      const mark = o.mark?.(m, p) ?? (o.digits === undefined ? "" : v.toFixed(o.digits));
      if (mark) text(g, x + size / 2, y + size / 2, mark, { dy: "0.35em", "font-size": font,
        style: `fill: var(--attnlit-t${k})` });
    }));
    if (o.title) text(g, x0 + n * size / 2, y0 - 8, o.title, { "font-size": 13 });
    (o.rows ?? []).forEach((label, m) => text(g, x0 - 5, y0 + (m + 0.5) * size, label,
      { "text-anchor": "end", dy: "0.35em", "font-size": font }));
    (o.cols ?? []).forEach((label, p) => {
      const x = x0 + (p + 0.5) * size, y = y0 + n * size + 6;
      text(g, x, y, label, { "text-anchor": "end", "font-size": font, dy: "0.7em",
        transform: `rotate(-45 ${x} ${y})` });
    });
  }

  // The controls a widget asks for: radio buttons and sliders, each labelled; moving one
  // redraws the figure.
  function controls(box, redraw, status) {
    return {
      radios(legend, options, value) {
        const set = make(box, "fieldset"), name = `attnlit-${++made}`;
        make(set, "legend", {}, legend);
        options.forEach((option, i) => {
          const label = make(set, "label");
          make(label, "input", { type: "radio", name, value: i }).checked = i === value;
          label.append(` ${option}`);
        });
        set.addEventListener("change", redraw);
        return () => +set.querySelector(":checked").value;
      },
      // o.play: the words of a button that steps the slider to its last value, one value every
      // 0.4 s, [play, pause, one step]: where the reader's system asks for less motion, it
      // moves one value a press and nothing moves by itself. o.marks: named values, [name,
      // index], each a button under the track, where its value is along it; o.named: theirs.
      slider(label, values, index, o = {}) {
        const id = `attnlit-${++made}`, div = make(box, "div", { class: "attnlit-slider" });
        // Play and Pause on top of each other, one seen: as wide as the wider, the track never
        // moves. Where motion is reduced, Next step alone.
        const play = o.play && make(div, "button", { type: "button", class: "attnlit-play" });
        const words = o.play?.map(said => make(play, "span", {}, said)) ?? [];
        make(div, "label", { for: id }, label);
        const input = make(div, "input", { type: "range", id, min: 0, max: values.length - 1,
          value: index });
        const out = make(div, "output", { for: id });
        input.shown = values.map(String); // each position's value as shown, for the tests
        const shown = () => {
          out.textContent = input.shown[input.value];
          input.setAttribute("aria-valuetext", out.textContent);
        };
        let timer = 0;
        const still = matchMedia("(prefers-reduced-motion: reduce)"), end = () => +input.value === values.length - 1;
        const seen = k => words.forEach((word, j) => {
          word.hidden = (j === 2) !== still.matches; // "Next step", or "Play" and "Pause"
          word.style.visibility = j === k ? "" : "hidden";
        });
        const stop = () => {
          clearInterval(timer);
          timer = 0;
          status.removeAttribute("aria-busy"); // read out once, where it stops
          seen(still.matches ? 2 : 0);
        };
        const set = i => { input.value = i; shown(); redraw(); };
        input.addEventListener("input", () => { stop(); shown(); redraw(); });
        if (play) play.onclick = () => {
          if (timer) return stop();
          if (still.matches) return set(end() ? 0 : +input.value + 1);
          if (end()) set(0);
          status.setAttribute("aria-busy", "true");
          seen(1);
          timer = setInterval(() => {
            if (input.isConnected) set(+input.value + 1);
            if (end() || !input.isConnected) stop(); // or its page has gone (instant navigation)
          }, 400);
        };
        if (o.marks) {
          const marks = make(div, "div", { class: "attnlit-marks", role: "group", "aria-label": o.named });
          for (const [name, i] of [...o.marks].sort((a, b) => a[1] - b[1])) {
            const at = `${(100 * i / (values.length - 1)).toFixed(1)}%`;
            make(marks, "button", { type: "button", style: `--at: ${at}` }, `${name} · ${values[i]}`)
              .onclick = () => { stop(); set(i); };
          }
        }
        stop();
        shown();
        return () => values[+input.value];
      },
    };
  }

  // Rows of numbers as a grid: a row of cells (its label first, then its numbers) puts each
  // cell in its column, as wide as its widest cell, whatever the words of the page's language
  // (Thai's marks take no room: padding with spaces would not line them up); a line of text
  // spans the columns. A space between two cells, a line break after each row, as print writes.
  const table = (box, rows) => {
    const columns = Math.max(...rows.map(row => [row].flat().length));
    box.style.gridTemplateColumns = `repeat(${columns}, max-content)`;
    box.replaceChildren(...rows.map((row, i) => {
      const line = make(null, "span", Array.isArray(row) ? { class: "attnlit-row" } : { style: `grid-column: span ${columns}` });
      [row].flat().forEach((cell, k, all) => make(line, "span", {}, k < all.length - 1 ? `${cell} `
        : cell + (i < rows.length - 1 ? "\n" : "")));
      return line;
    }));
  };

  // One listener for every widget: instant navigation brings pages in without a reload, and
  // a listener per widget would stay with the window after its page had gone. Each widget
  // that lives redraws when the column crosses its narrow width; gone ones are dropped.
  const resizing = new Map(); // figure -> what it does on resize
  const forget = () => {
    for (const figure of resizing.keys()) if (!figure.isConnected) resizing.delete(figure);
  };
  addEventListener("resize", () => {
    forget();
    for (const resized of resizing.values()) resized();
  });

  // The widget is built and drawn first, beside the page: only a widget that drew goes in.
  // One that fails on the way leaves the page as it was, the static drawing in place.
  async function setup(figure, build) {
    const data = JSON.parse(figure.querySelector(".attnlit-data").textContent);
    // Data too heavy for the page is a file of the site (tools/mkdocs_hooks.py): it comes now.
    if (data.fetched) Object.assign(data, await (await fetch(data.fetched)).json());
    const drawing = figure.querySelector("svg");
    const box = make(null, "div", { class: "attnlit-controls" });
    const live = make(null, "svg", { class: "attnlit-drawing", role: "img",
      "aria-labelledby": drawing.getAttribute("aria-labelledby") });
    const status = make(null, "p", { class: "attnlit-status", role: "status" });
    // Rows of numbers as print writes them: scrolled sideways on a narrow screen.
    const numbers = make(null, "div", { class: "attnlit-numbers", tabindex: 0 });
    // On a narrow screen (a phone), widgets stack their panels rather than shrink them. The
    // room is the column's: the figure itself is as wide as what it holds.
    const narrow = () => figure.parentElement.clientWidth < 560;
    let was;
    const redraw = () => {
      live.replaceChildren();
      const [width, height, said, rows] = draw(live, was = narrow());
      live.setAttribute("viewBox", `0 0 ${width} ${height}`);
      live.setAttribute("width", width);
      if (status.textContent !== said) status.textContent = said; // said once
      table(numbers, rows);
      numbers.dispatchEvent(new Event("scroll"));
    };
    // ui.t: the widget's words in the page's language, with {names} filled in (a translated
    // page's figure block data carries them, by their English text: tools/mkdocs_hooks.py).
    const t = (words, values = {}) =>
      (data.strings?.[words] ?? words).replace(/\{(\w+)\}/g, (_, name) => values[name]);
    const draw = build(data, { ...controls(box, redraw, status), t });
    redraw();
    drawing.before(box);
    drawing.after(live, status, numbers);
    // Faded on the side with more to see (overrides/main.html).
    window.attnlitScrolls?.(numbers);
    drawing.classList.add("attnlit-static");
    figure.classList.add("attnlit-live");
    resizing.set(figure, () => narrow() !== was && redraw());
  }

  // A widget is set up when it comes near the screen, not at load: a page opens as fast as
  // one without widgets (Lighthouse's blocking time), and the static drawing is there till then.
  const near = new IntersectionObserver(entries => {
    for (const { target: figure, isIntersecting } of entries) {
      if (!isIntersecting) continue;
      near.unobserve(figure);
      setup(figure, kinds[figure.dataset.widget])
        .catch(error => console.error("attnlit widget:", error));
    }
  }, { rootMargin: "400px 0px" });

  // Every figure of the page whose kind has come, once.
  const start = () => {
    forget(); // the widgets of the page before, after instant navigation
    for (const figure of document.querySelectorAll("figure[data-widget]:not([data-widget-seen])")) {
      if (!kinds[figure.dataset.widget]) continue; // its script is still on its way
      figure.setAttribute("data-widget-seen", "");
      near.observe(figure);
    }
  };

  // What the kinds draw with. Each kind: (data, ui) => draw(svg, narrow) => [width, height,
  // what to announce, rows of numbers as print shows them (a row: a line, or its cells)]; ui
  // has the controls and t.
  window.attnlit = {
    // attnlit.plots' data colours, at least 3:1 on both palettes; text is in currentColor.
    BLUE: "#1f77b4", ORANGE: "#d95f02", RED: "#d62728", GREY, f4, make, text, grid,
    range: (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i),
    frame: (g, x, y, width, height, attrs = {}) => make(g, "rect",
      { x, y, width, height, fill: "none", stroke: "currentColor", "stroke-width": 2.5, ...attrs }),
    line: (g, points, stroke, attrs = {}) => make(g, "polyline", { fill: "none", stroke,
      points: points.map(p => p.map(v => v.toFixed(1)).join(",")).join(" "), "stroke-width": 2,
      ...attrs }),
    // Where a panel drawn at x goes: there, or on a narrow screen below, moved dx left.
    panel: (svg, narrow, dx, dy) =>
      make(svg, "g", narrow ? { transform: `translate(${-dx} ${dy})` } : {}),
    // A row of numbers: a label, then each value as print shows it.
    row: (label, values) => [label, values.map(f4).join(" ")],
    start,
  };
  if (window.document$) window.document$.subscribe(start);
  else start();
})();
