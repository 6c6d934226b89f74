// Page 10c's and page 13b's playgrounds: as the reader sees them, their layout, against
// PyTorch's reference, their speed.
// The browser's visits (tests/browsing.py) call each as attnlitProbes.<name>.
(probes => {

// The playground as the reader sees it: its status line, its tables, its tokens (as shown, with
// the bytes each spans), its text line (the text, then the continuation: a byte of no character
// marked and in hex) and which heads are off.
probes.playground = box => {
    const out = box.querySelector(".attnlit-text-out"), mark = out?.querySelector("mark");
    const tokens = [...box.querySelectorAll(".attnlit-token")];
    return {
        state: box.dataset.state,
        status: box.querySelector(".attnlit-status")?.textContent ?? "",
        top: [...box.querySelectorAll(".attnlit-top tbody tr")].map(tr => [...tr.cells].slice(0, 3).map(td => td.textContent)),
        keys: [...box.querySelectorAll(".attnlit-keys tbody tr")].map(tr => [...tr.cells].map(td => td.textContent)),
        continuation: mark?.textContent ?? "",
        alone: [...(mark?.childNodes ?? [])].map(node => node.nodeType === 1 && node.matches(".attnlit-byte")
            ? "�" : node.textContent).join(""),
        prompt: [...(out?.childNodes ?? [])].filter(node => node !== mark).map(node => node.textContent).join(""),
        full: box.querySelector(".attnlit-continuation")?.textContent ?? "",
        tokens: tokens.map(token => token.textContent),
        spans: tokens.map(token => token.dataset.bytes.split(" ").length),
        bytes: tokens.flatMap(token => token.dataset.bytes.split(" ").map(Number)),
        position: box.querySelector("input[type=range]")?.value,
        off: [...box.querySelectorAll("input[role=switch]:not(:checked)")].map(s => s.parentElement.textContent.trim()),
        // Issue 34: the token that really comes next, and its row if the table lists it; the
        // tokens dashed (earlier occurrences of the current one); each head's ringed keys
        // (where an induction head looks); what the line under the rows says.
        real: box.querySelector("p.attnlit-real")?.textContent ?? "",
        marked: [...box.querySelectorAll(".attnlit-top tbody tr")].findIndex(tr => tr.matches(".attnlit-real")),
        earlier: tokens.flatMap((token, i) => token.matches(".attnlit-earlier") ? [i] : []),
        rings: [...box.querySelectorAll(".attnlit-head")].map(head => {
            const cells = [...box.querySelector(".attnlit-grid").children], from = cells.indexOf(head) + 1;
            return cells.slice(from, from + tokens.flatMap(token => token.dataset.bytes.split(" ")).length)
                .flatMap((cell, j) => cell.matches(".attnlit-look") ? [j] : []);
        }),
        looks: box.querySelector(".attnlit-looks")?.textContent ?? "",
        ends: [...box.querySelectorAll(".attnlit-slider button")].map(button => button.getAttribute("aria-disabled")),
    };
};

// Where the playground's parts are, from its top (issue 34: nothing moves while a reader types).
probes.playgroundLayout = box => Object.fromEntries([".attnlit-caption", ".attnlit-grid", ".attnlit-looks", ".attnlit-top table",
    "p.attnlit-real", ".attnlit-keys table", ".attnlit-continuation", ".attnlit-timing"].map(selector => {
        const r = box.querySelector(selector).getBoundingClientRect(), top = box.getBoundingClientRect().top;
        return [selector, [r.top - top, r.left, r.width, r.height].map(Math.round).join(" ")];
    }));

// The browser's model against PyTorch's (reference.json, which a block of the page writes): for
// each sequence, the largest difference of its logits and of its attention weights, and its
// greedy continuation, both ways.
probes.compare = async url => {
    const model = window.attnlitTinyGPT, reference = await (await fetch(url)).json();
    const worst = (a, b) => Math.max(...Array.from(a, (v, i) => typeof v === "number" ? Math.abs(v - b[i]) : worst(v, b[i])));
    return reference.cases.map(c => {
        const { logits, attention } = model.forward(c.ids, { ablate: c.off }), k = c.continuation.length;
        return { n: c.ids.length, off: c.off, logits: worst(logits, c.logits), attention: worst(attention, c.attention),
                 expected: c.continuation, continuation: k ? model.generate(c.ids, k, { ablate: c.off }).slice(c.ids.length) : [] };
    });
};

// The times of a forward pass over 32 tokens, in ms, after a warm-up (compiled code): the
// fastest of 101, and their median.
probes.timeForward = () => {
    const model = window.attnlitTinyGPT, ids = Array.from({ length: 32 }, (_, i) => (97 * i + 13) % 256);
    for (let i = 0; i < 20; i++) model.forward(ids);
    const times = [];
    for (let i = 0; i < 101; i++) {
        const start = performance.now();
        model.forward(ids);
        times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return { fastest: times[0], median: times[50] };
};

// On a phone: the smallest text of the playground, tokens cut by their cells, and sideways scroll.
probes.playgroundFits = box => ({
    smallest: Math.min(...[...box.querySelectorAll("*")]
        .filter(e => [...e.childNodes].some(node => node.nodeType === 3 && node.textContent.trim()))
        .map(e => parseFloat(getComputedStyle(e).fontSize))),
    clipped: [...box.querySelectorAll(".attnlit-token")].filter(t => t.scrollWidth > t.clientWidth).map(t => t.textContent),
    tokens: box.querySelectorAll(".attnlit-token").length,
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
});

// Page 13b's playground (the model of plays) as the reader sees it: its status, its tables,
// its text (each character, its shade and whether it is the chosen one), the head shown, the
// heads off, what it wrote and how it says it wrote it.
probes.textPlayground = box => {
    const cells = [...box.querySelectorAll(".attnlit-passage .attnlit-token")];
    const written = box.querySelector(".attnlit-text-out"), mark = written?.querySelector("mark");
    return {
        state: box.dataset.state,
        status: box.querySelector(".attnlit-status")?.textContent ?? "",
        caption: box.querySelector(".attnlit-caption")?.textContent ?? "",
        top: [...box.querySelectorAll(".attnlit-top tbody tr")].map(tr => [...tr.cells].slice(0, 3).map(td => td.textContent)),
        keys: [...box.querySelectorAll(".attnlit-keys tbody tr")].map(tr => [...tr.cells].map(td => td.textContent)),
        real: box.querySelector("p.attnlit-real")?.textContent ?? "",
        text: cells.map(cell => cell.textContent).join(""),
        picked: cells.findIndex(cell => cell.matches(".attnlit-picked")),
        shades: cells.map(cell => cell.style.background),
        after: cells.filter(cell => cell.matches(".attnlit-after")).length,
        head: box.querySelector("select")?.selectedOptions[0]?.textContent,
        position: box.querySelector("input[type=range]")?.value,
        off: [...box.querySelectorAll("input[role=switch]:not(:checked)")].map(s => s.parentElement.textContent.trim()),
        written: mark?.textContent ?? "",
        note: box.querySelector(".attnlit-continuation .attnlit-note")?.textContent ?? "",
        timing: box.querySelector(".attnlit-timing")?.textContent ?? "",
    };
};

// The browser's model against PyTorch's on page 13b's reference.json: for each window, the
// largest difference of the logits and of the attention weights at the rows compared, and the
// greedy and sampled continuations (the latter with PyTorch's draws), both ways.
probes.compareText = async url => {
    const model = window.attnlitTinyGPT, reference = await (await fetch(url)).json();
    const worst = (a, b) => Math.max(0, ...Array.from(a, (v, i) => typeof v === "number" ? Math.abs(v - b[i]) : worst(v, b[i])));
    return reference.cases.map(c => {
        const { logits, attention } = model.forward(c.ids, { ablate: c.off }), n = c.ids.length;
        const rows = attention.map(layer => layer.map(head => c.rows.map(r => head[r].subarray(0, n))));
        const continued = (k, options) => k ? model.generate(c.ids, k, { ablate: c.off, ...options }).slice(n) : [];
        return { n, off: c.off, logits: worst(c.rows.map(r => logits[r]), c.logits), attention: worst(rows, c.attention),
                 greedy: [c.greedy, continued(c.greedy.length)],
                 sampled: [c.sampled, continued(c.sampled.length, { temperature: 0.8, topK: 20, draws: c.draws })] };
    });
};

// Page 13b's model timed, in ms, the median of 11 after a warm-up: a forward pass over the full
// context (256 bytes), and a byte written with the caches (128 written after a prompt of 128,
// less the prompt's own pass, per byte).
probes.timeText = () => {
    const model = window.attnlitTinyGPT, n = model.config.context_length;
    const ids = Array.from({ length: n }, (_, i) => 97 + (7 * i) % 26);
    const timed = run => {
        run();
        const times = Array.from({ length: 11 }, () => { const start = performance.now(); run(); return performance.now() - start; });
        return times.sort((a, b) => a - b)[5];
    };
    const prompt = ids.slice(0, n / 2), forward = timed(() => model.forward(ids));
    const read = timed(() => model.forward(prompt));
    const write = timed(() => model.generate(prompt, n / 2, { temperature: 0.8, topK: 20, seed: 1 }));
    return { forward, byte: (write - read) / (n / 2 - 1) };
};

})(globalThis.attnlitProbes ??= {});
