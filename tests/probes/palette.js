// The light/dark palette: what it is and what changed it; listeners of the window's resize event.
// The browser's visits (tests/browsing.py) call each as attnlitProbes.<name>.
(probes => {

// The listeners on the window's resize event that are on at any time: what addEventListener
// adds there and removeEventListener has not taken off (a bare addEventListener(...) in a
// script is the window's).
// Call at the document's start (an init script): from then on, window.attnlitResizeListeners().
probes.watchResizeListeners = () => {
    const on = new Set(), prototype = EventTarget.prototype;
    const { addEventListener: add, removeEventListener: remove } = prototype;
    prototype.addEventListener = function (type, listener, ...options) {
        const target = this ?? window;
        if (target === window && type === "resize") on.add(listener);
        return add.call(target, type, listener, ...options);
    };
    prototype.removeEventListener = function (type, listener, ...options) {
        const target = this ?? window;
        if (target === window && type === "resize") on.delete(listener);
        return remove.call(target, type, listener, ...options);
    };
    window.attnlitResizeListeners = () => on.size;
};

// Every change of the palette's attributes on <body>, and every colour-scheme meta tag added,
// from the document's start: what changed, and whether the article existed then.
// Call at the document's start (an init script): from then on, window.attnlitPaletteChanges.
probes.watchPaletteChanges = () => {
    window.attnlitPaletteChanges = [];
    new MutationObserver(records => {
        for (const record of records) {
            const what = record.type === "attributes" ? record.attributeName
                : [...record.addedNodes].some(node => node.matches?.("meta[name=color-scheme]"))
                ? "meta color-scheme" : null;
            if (what && (record.target === document.body || record.target === document.head))
                window.attnlitPaletteChanges.push([what, document.querySelector("article") !== null]);
        }
    }).observe(document, { subtree: true, childList: true, attributeFilter: ["data-md-color-media",
        "data-md-color-scheme", "data-md-color-primary", "data-md-color-accent", "data-md-color-switching"] });
};

probes.palette = () => ({
    scheme: document.body.dataset.mdColorScheme,
    toggles: [...document.querySelectorAll(".md-header__option label")]
        .filter(label => label.checkVisibility()).map(label => label.title),
    stored: __md_get("__palette"),
    viewport: getComputedStyle(document.documentElement).colorScheme,
    bar: [...document.querySelectorAll("meta[name=theme-color]")].map(meta => meta.content),
    header: getComputedStyle(document.querySelector(".md-header")).backgroundColor,
    changes: window.attnlitPaletteChanges,
});

// A click on the toggle; two frames later, the colour transitions that it started and that
// still run (one that ran before the click, e.g. a link of the contents, does not count).
probes.switchAndCount = () => new Promise(resolve => {
    const before = new Set(document.getAnimations());
    document.querySelector(".md-header__option label:not([hidden])").click();
    requestAnimationFrame(() => requestAnimationFrame(() => resolve(document.getAnimations()
        .filter(a => a instanceof CSSTransition && a.playState === "running" && !before.has(a))
        .length)));
});

})(globalThis.attnlitProbes ??= {});
