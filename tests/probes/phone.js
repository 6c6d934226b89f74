// A page on a phone (390 px): what is cut, what scrolls unseen, inline code and Thai broken across
// lines, tables, targets.
// The browser's visits (tests/browsing.py) call each as attnlitProbes.<name>.
(probes => {

// A page as a phone shows it (390 px), every fold open and every tab shown. What is cut: an
// element of the article that reaches past the screen's edge with no box that clips it in
// between. What scrolls unseen: a box that hides some of its content but does not scroll, or
// scrolls without the cue (a fade on the side with more to see, on the right as the page
// opens, on the left once scrolled to the end), or cannot take the keyboard's focus (axe's
// scrollable-region-focusable).
probes.openEverything = () => {
    document.querySelectorAll("article details").forEach(fold => fold.open = true);
    const style = document.createElement("style");
    style.textContent = ".tabbed-set > .tabbed-content > .tabbed-block { display: block !important; }";
    document.head.append(style);
};

probes.narrow = async () => {
    const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
    await document.fonts.ready;
    await frame(); await frame();  // resize observers (overrides/main.html) have run
    const article = document.querySelector("article"), screen = document.documentElement.clientWidth;
    const name = e => e.tagName.toLowerCase() + [...e.classList].map(c => `.${c}`).join("")
        + ` "${e.textContent.replace(/\s+/g, " ").trim().slice(0, 50)}"`;
    const clips = e => getComputedStyle(e).overflowX !== "visible";
    // The fade: a gradient that is transparent at the given side and opaque inward.
    const fades = (e, side) => {
        const mask = getComputedStyle(e).maskImage;
        return mask.includes("gradient") && mask.includes(side === "right" ? "to left" : "to right");
    };
    const cut = [], unseen = [], scrolling = [];
    for (const e of article.querySelectorAll("*")) {
        if (e.closest("svg, .md-tooltip2")) continue;  // figures have tests of their own
        const box = e.getBoundingClientRect();
        if (!box.width) continue;
        let holder = e.parentElement;
        while (holder && article.contains(holder) && !clips(holder)) holder = holder.parentElement;
        if (!article.contains(holder) && (box.right > screen + 1 || box.left < -1)) cut.push(name(e));
        if (clips(e) && e.scrollWidth > e.clientWidth + 1) {
            const style = getComputedStyle(e), faults = [];
            if (!["auto", "scroll"].includes(style.overflowX)) faults.push("does not scroll");
            if (!fades(e, "right")) faults.push("no fade on the right");
            if (!(e.tabIndex >= 0 || e.querySelector("a[href], button, input, [tabindex]")))
                faults.push("not focusable");
            if (faults.length) unseen.push(`${name(e)}: ${e.scrollWidth - e.clientWidth} px hidden, ${faults}`);
            else scrolling.push(e);
        }
    }
    for (const e of scrolling) e.scrollLeft = e.scrollWidth;
    await frame(); await frame();
    for (const e of scrolling) {
        if (!fades(e, "left") || fades(e, "right"))
            unseen.push(`${name(e)}: scrolled to the end, no fade on the left only`);
        e.scrollLeft = 0;
    }
    return {cut, unseen, sideways: document.documentElement.scrollWidth - screen,
            scrolling: scrolling.length};
};

// Inline code that wraps: where a line ends between two characters of a name or number.
probes.brokenCode = () => {
    const broken = [];
    for (const code of document.querySelectorAll("article code")) {
        if (code.closest("pre") || code.getClientRects().length < 2) continue;
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT), range = document.createRange();
        let last = null;
        for (let node; (node = walker.nextNode());)
            for (let i = 0; i < node.length; i++) {
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const rect = range.getClientRects()[0];
                if (!rect) continue;
                const character = node.data[i];
                if (last && rect.top > last.top + 1 && /\w/.test(last.character) && /\w/.test(character))
                    broken.push(`${code.textContent.slice(0, 60)} (${last.character}|${character})`);
                last = {top: rect.top, character};
            }
    }
    return broken;
};

// Each slider of the page's widgets moved through every value: where its value and its track
// are each time (a value that grows pushes the track along as the reader drags it).
probes.sliderPlaces = () => [...document.querySelectorAll("figure[data-widget] input[type=range]")].map(input => {
    const value = input.parentElement.querySelector("output"), places = new Set();
    for (let i = +input.min; i <= +input.max; i++) {
        input.value = i;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        const [box, track] = [value, input].map(e => e.getBoundingClientRect());
        places.add(`${box.left.toFixed(1)} ${box.width.toFixed(1)} ${track.left.toFixed(1)}`);
    }
    return [input.labels[0].textContent, places.size];
});

// Each table of the page as a phone shows it: how much of it is out of sight sideways, its
// fade (overrides/main.html), whether it is set as a list of its rows, and the cells that are
// not shown after their column's name.
probes.tables = () => [...document.querySelectorAll("article table")].map(table => {
    const box = table.closest(".md-typeset__scrollwrap") ?? table.parentElement;
    const names = [...(table.tHead?.rows[0].cells ?? [])].map(th => th.textContent.trim());
    const unnamed = [...table.querySelectorAll("tbody tr")].flatMap(row => [...row.cells].slice(1)
        .filter((cell, i) => cell.textContent.trim() && names[i + 1]
            && !getComputedStyle(cell, "::before").content.includes(names[i + 1]))
        .map(cell => cell.textContent.trim().slice(0, 40)));
    return {hidden: box.scrollWidth - box.clientWidth, fade: box.dataset.attnlitMore ?? "",
            stacked: box.hasAttribute("data-attnlit-stacked"), unnamed};
});

// Controls smaller than 24 by 24 CSS px (WCAG 2.2's target size), shown on the page: a radio
// button or a checkbox counts as the label that holds it; an input of no size (a tab's
// radio button, which its label stands for) is none.
probes.targets = () => [...document.querySelectorAll("article input, article button, article select")]
    .map(control => [control, (control.closest("label") ?? control).getBoundingClientRect()])
    .filter(([, box]) => box.width * box.height > 0 && (box.width < 24 || box.height < 24))
    .map(([control, box]) => `${control.outerHTML.slice(0, 80)}: ${box.width} x ${box.height}`);

// Where lines of Thai break inside a run of Thai letters (Thai writes no spaces): for each
// such break, the run, where in it the line broke, and whether two text nodes meet there (the
// build cuts words by the text between elements: tools/thai_words.py).
probes.thaiBreaks = () => {
    // Thai letters, and what the build puts between them (a word joiner, a zero-width space).
    const thai = c => (c >= "\u0e00" && c <= "\u0e7f") || c === "\u2060" || c === "\u200b", found = [];
    const walker = document.createTreeWalker(document.querySelector("article"), NodeFilter.SHOW_TEXT, {
        acceptNode: node => node.parentElement.closest("pre, code, svg, math, script, style")
            ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT });
    const box = node => node.parentElement.closest("p, li, td, th, figcaption, h1, h2, h3, h4, h5, summary, dt, dd, div");
    let run = [];  // [character, its line's top, its node] of the run of Thai letters so far
    const end = () => {
        for (let i = 1; i < run.length; i++)
            if (run[i][1] > run[i - 1][1] + 2)
                found.push({ run: run.map(c => c[0]).join(""), at: i, between: run[i][2] !== run[i - 1][2] });
        run = [];
    };
    while (walker.nextNode()) {
        const node = walker.currentNode;
        if (run.length && box(node) !== box(run.at(-1)[2])) end();
        for (let i = 0; i < node.length; i++) {
            if (!thai(node.data[i])) { end(); continue; }
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getClientRects()[0];
            if (rect) run.push([node.data[i], rect.top, node]);
        }
    }
    end();
    return found;
};

// What Thai type is set in: the captions' style, the admonitions' size, how far the link
// underlines sit below the text (in ems of the link's size).
probes.thaiType = () => ({
    captions: [...new Set([...document.querySelectorAll("article figcaption")].map(c => getComputedStyle(c).fontStyle))],
    admonitions: [...document.querySelectorAll("article .admonition p, article details p")]
        .map(p => parseFloat(getComputedStyle(p).fontSize)).sort((a, b) => a - b)[0] ?? null,
    underlines: [...new Set([...document.querySelectorAll("article p a[href]:not(.headerlink)")].map(a => {
        const style = getComputedStyle(a);
        return +(parseFloat(style.textUnderlineOffset) / parseFloat(style.fontSize)).toFixed(2);
    }))],
    family: getComputedStyle(document.body).fontFamily,
});

})(globalThis.attnlitProbes ??= {});
