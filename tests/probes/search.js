// Material's search as a reader uses it.
// The browser's visits (tests/browsing.py) call each as attnlitProbes.<name>.
(probes => {

// Each result: the page it leads to, and the text of each block of each of its previews.
probes.results = () => [...document.querySelectorAll(".md-search-result__item")].map(item => ({
    page: new URL(item.querySelector("a").href).pathname,
    previews: [...item.querySelectorAll("article")].flatMap(article => [...article.childNodes]
        .filter(node => !node.matches?.("h1, h2, nav, .md-search-result__icon, .md-search-result__terms"))
        .map(node => node.textContent)),
}));

// Material follows a click on a link of the site without a reload once it has read the
// sitemap; a click before that loads the page, and the visit would test nothing. So: click the
// footer's "next" link until Material takes the click (it cancels the load), a frame apart,
// and never let the browser load the page itself.
probes.clickNext = () => {
    let taken = false;
    addEventListener("click", event => { taken = event.defaultPrevented; event.preventDefault(); },
                     { once: true });
    document.querySelector("a.md-footer__link--next").click();
    return taken;
};

})(globalThis.attnlitProbes ??= {});
