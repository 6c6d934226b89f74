// What a page is and holds, read in one evaluation each: its state, its listings, where its
// pictures are, its blocks copied; watchers of its console.
// The browser's visits (tests/browsing.py) call each as attnlitProbes.<name>.
(probes => {

// One evaluation, so that the page cannot change between finding elements and measuring them.
// (playwright's eval_on_selector_all finds, then measures in a second call; in between Material
// may detach a code annotation's tooltip, formulas included, 250 ms after mounting it, and a
// detached formula measures 0 px: "formulas missing or not laid out", now and then.)
probes.state = () => {
    const prose = document.body.cloneNode(true);
    prose.querySelectorAll("pre, code, svg, math, script, .attnlit-data").forEach(e => e.remove());
    const formulas = [...document.querySelectorAll("article math")];
    return {
        prose: prose.innerText,
        formulas: formulas.length,
        flat: formulas.filter(m => !(m.getBoundingClientRect().height > 0)).map(m => m.textContent),
        broken: [...document.images].filter(i => !(i.naturalWidth > 0)).map(i => i.src.slice(0, 80)),
        captions: [...document.querySelectorAll(".attnlit-figure")]
            .map(f => (f.querySelector("figcaption")?.textContent ?? "").replace(/\s+/g, " ").trim()),
        // Each caption's lines at 1280 px, as the reader sees them.
        "caption lines": [...document.querySelectorAll("article .attnlit-figure figcaption")]
            .map(c => [Math.round(c.getBoundingClientRect().height / parseFloat(getComputedStyle(c).lineHeight)),
                       c.textContent.trim().slice(0, 60)]),
        // Text a figure colours itself (white on a dark cell) must keep its colour: the page's
        // ink rule for figure text must not outweigh the figure's own style classes. The colour
        // a rule gives (a heatmap's, a variable of the palette) is what it computes to inline.
        recoloured: [...document.querySelectorAll("svg style")]
            .flatMap(style => [...style.sheet.cssRules].map(rule => [style.closest("svg"), rule]))
            .filter(([, rule]) => rule.style?.fill)
            .flatMap(([svg, rule]) => {
                const probe = svg.appendChild(document.createElementNS("http://www.w3.org/2000/svg", "text"));
                probe.style.fill = rule.style.fill;
                const given = getComputedStyle(probe).fill;
                probe.remove();
                return [...document.querySelectorAll(`text${rule.selectorText}`)]
                    .filter(text => getComputedStyle(text).fill !== given)
                    .map(text => `${text.textContent} (${getComputedStyle(text).fill}, not ${given})`);
            }),
    };
};

// Material mounts a code block (copy button, annotations) when it first comes into view
// (content.lazy). To audit the page a reader ends up with, bring every visible block into view,
// one a frame, until all are mounted; then back to the top.
probes.mounted = () => {
    const next = [...document.querySelectorAll("article pre > code")].map(code => code.parentElement)
        .find(block => block.checkVisibility() && !block.querySelector(".md-code__nav"));
    if (next) next.scrollIntoView(); else window.scrollTo(0, 0);
    return !next;
};

// Widgets more than two screens below the top of the page: how many, and how many of them
// are already set up.
probes.farBelow = () => {
    const far = [...document.querySelectorAll("figure[data-widget]")]
        .filter(figure => figure.getBoundingClientRect().top > 2 * innerHeight);
    return [far.length, far.filter(figure => figure.querySelector(".attnlit-controls")).length];
};

// Every listing outside a fold (a figure's code, a solution): its lines, its height in lines
// as shown, and for one folded behind a button (overrides/main.html), the height with the
// button pressed, what the button then says, and the height once pressed again.
probes.listings = () => [...document.querySelectorAll("article pre > code")].filter(c => !c.closest("details")).map(code => {
    const lines = code.textContent.replace(/\n$/, "").split("\n").length;
    const high = () => code.getBoundingClientRect().height / parseFloat(getComputedStyle(code).lineHeight);
    const shown = high(), button = code.closest("pre").nextElementSibling;
    if (!button?.matches(".attnlit-unfold")) return { lines, shown };
    const folded = [button.textContent, button.getAttribute("aria-expanded")];
    button.click();
    const open = [high(), button.textContent, button.getAttribute("aria-expanded")];
    button.click();
    return { lines, shown, folded, open, again: high() };
});

// Where a page shows pictures, at 1280 px as it opens (folds closed, widgets set up): the top
// and bottom of each figure, widget or playground, every heading's top and text, the
// article's bottom; all from the page's top (issue 34: a wall of code before the first picture).
probes.places = () => {
    const top = element => element.getBoundingClientRect().top + scrollY;
    const shown = element => !element.closest("details:not([open])");
    const article = document.querySelector("article");
    return {
        figures: [...article.querySelectorAll(".attnlit-figure, .attnlit-playground")].filter(shown)
            .map(figure => [top(figure), top(figure) + figure.getBoundingClientRect().height]),
        headings: [...article.querySelectorAll("h2, h3")].filter(shown)
            .map(heading => [top(heading), heading.textContent.replace(/\s+/g, " ").replace("¶", "").trim()]),
        end: top(article) + article.getBoundingClientRect().height,
    };
};

// Each block, folded (<details>) or in a hidden tab included, is shown, brought into view until
// Material mounts it, and copied. Material's copy button (clipboard.js) selects the block's text
// in a hidden field and asks the browser to copy it with execCommand("copy"): the test takes
// the text at that call, which is what the reader's clipboard receives. (Reading the system
// clipboard instead made the test hang now and then: the clipboard is one for all the pages
// open at once, and a copy needs window focus, which a page opening or typing elsewhere takes.)
probes.copyEveryBlock = async () => {
    const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
    const copied = [];
    document.execCommand = command => {
        const field = document.activeElement;
        copied.push(field instanceof HTMLTextAreaElement
            ? field.value.slice(field.selectionStart, field.selectionEnd)
            : document.getSelection().toString());
        return command === "copy";
    };
    for (const code of document.querySelectorAll("article pre > code")) {
        const block = code.parentElement;
        for (let fold = block.closest("details"); fold; fold = fold.parentElement.closest("details"))
            fold.open = true;
        const tab = block.closest(".tabbed-block");
        if (tab)
            tab.closest(".tabbed-set").querySelectorAll(":scope > input")[
                [...tab.parentElement.children].indexOf(tab)].checked = true;
        block.scrollIntoView();
        while (!block.querySelector("button[data-md-type=copy]"))
            await frame();
        const before = copied.length;
        block.querySelector("button[data-md-type=copy]").click();
        if (copied.length !== before + 1)
            throw new Error(`block ${before + 1} of the page: its button copied nothing`);
    }
    return copied;
};

// What the page logs as errors (widgets.js logs a widget that failed), kept in the page.
// Call at the document's start (an init script): from then on, window.attnlitConsoleErrors.
probes.watchConsoleErrors = () => {
    window.attnlitConsoleErrors = [];
    const consoleError = console.error;
    console.error = (...args) => { attnlitConsoleErrors.push(args.map(String).join(" ")); consoleError(...args); };
};

// The page's widget as it is now, against the same page as served (parsed again, untouched).
probes.asServed = async selector => {
    const served = new DOMParser().parseFromString(await (await fetch(location.href)).text(), "text/html");
    const [now, then] = [document, served].map(page => page.querySelector(selector));
    return {same: now.innerHTML === then.innerHTML && now.className === then.className,
            children: [...now.children].map(child => `${child.tagName.toLowerCase()}.${[...child.classList].join(".")}`),
            controls: now.querySelectorAll(".attnlit-controls").length};
};

})(globalThis.attnlitProbes ??= {});
