// The page's figures: the classes their drawings use, the sizes and overlaps of their labels, the
// heatmaps' colours.
// The browser's visits (tests/browsing.py) call each as attnlitProbes.<name>.
(probes => {

// The geometry of the figures' checks: plain functions of numbers (tests/probes/test.js).

// Points of an element's drawing on the screen: m is its SVGMatrix (getScreenCTM()), which
// maps (x, y) to (a x + c y + e, b x + d y + f).
probes.onScreen = (m, points) => points.map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);

// A box [x0, y0, x1, y1] as its four corners, in order around it.
probes.boxCorners = ([x0, y0, x1, y1]) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];

// Each edge's normal, of a shape given by its points in order around it (a segment: two).
probes.normals = shape => shape.map((p, i) => { const q = shape[(i + 1) % shape.length]; return [q[1] - p[1], p[0] - q[0]]; });

// Separating axes: two convex shapes (a box, a segment) are apart when some edge's normal
// separates them. Touching is apart.
probes.apart = (a, b) => [...probes.normals(a), ...probes.normals(b)].some(([x, y]) => {
    if (!x && !y) return false;
    const pa = a.map(p => p[0] * x + p[1] * y), pb = b.map(p => p[0] * x + p[1] * y);
    return Math.max(...pa) <= Math.min(...pb) || Math.max(...pb) <= Math.min(...pa);
});

// The size a font of `size` user units is drawn at on the screen, under the matrix m: scaled
// by the length of m's first column (a turn changes nothing).
probes.drawnSize = (size, m) => size * Math.hypot(m.a, m.b);

// Every figure of the page as a reader sees it: drawn at build time (.attnlit-figure, one SVG or
// a panel of several), by a widget, or by a lab's cell. See test_figure_labels_overlap_nothing
// for what overlapping means. Returns, for the tests:
// - unstyled: each class used in a figure's SVG that no CSS rule applying to it names;
// - small: each run of text drawn below 11 CSS px (its font size times its screen scale);
// - overlaps: each label that overlaps another, a line of the axes or a marker;
// - images: figures in a lab's output drawn as <img> (their text escapes every check);
// - count, texts: how many figures and runs of text were measured.
probes.figures = () => {
    const svgs = [...document.querySelectorAll("article .attnlit-figure svg, article .jp-OutputArea svg")];
    const outputs = [...document.querySelectorAll("article .jp-OutputArea svg")];
    const name = svg => svg.closest("figure")?.querySelector("figcaption")?.id ?? `output ${outputs.indexOf(svg)}`;
    const selectors = [];
    const collect = rules => { for (const rule of rules) {
        if (rule.selectorText) selectors.push(rule.selectorText);
        else if (rule.cssRules && (!rule.media || matchMedia(rule.media.mediaText).matches)) collect(rule.cssRules);
    } };
    for (const sheet of document.styleSheets) collect(sheet.cssRules);
    const naming = new Map();  // class -> the selectors that name it
    for (const selector of selectors)
        for (const [, cls] of selector.matchAll(/\.([\w-]+)/g)) naming.set(cls, [...naming.get(cls) ?? [], selector]);
    const applies = (element, selector) => { try { return element.matches(selector); } catch { return false; } };
    const unstyled = new Set();
    for (const svg of svgs)
        for (const element of [svg, ...svg.querySelectorAll("[class]")])
            for (const cls of element.classList)
                if (!(naming.get(cls) ?? []).some(selector => applies(element, selector)))
                    unstyled.add(`${name(svg)}: .${cls}`);
    // Boxes on the screen: four corners, turned as the element is.
    const corners = (element, box) => probes.onScreen(element.getScreenCTM(), probes.boxCorners(box));
    const apart = probes.apart;
    const straight = element => {  // a horizontal or vertical stroke, as a segment on the screen
        let points = null;
        if (element.tagName === "line") points = ["1", "2"].map(i => ["x", "y"].map(a => +element.getAttribute(a + i)));
        else if (element.tagName === "polyline") points = element.getAttribute("points").trim().split(/\s+/).map(p => p.split(",").map(Number));
        else {
            const d = element.getAttribute("d")?.match(/^M\s*(-?[\d.]+)[\s,]+(-?[\d.]+)\s*L\s*(-?[\d.]+)[\s,]+(-?[\d.]+)\s*$/);
            if (d) points = [[+d[1], +d[2]], [+d[3], +d[4]]];
        }
        if (points?.length !== 2 || (points[0][0] !== points[1][0] && points[0][1] !== points[1][1])) return null;
        return probes.onScreen(element.getScreenCTM(), points);
    };
    const small = [], overlaps = [];
    let texts = 0;
    for (const svg of svgs.filter(svg => svg.checkVisibility())) {
        const labels = [];
        for (const text of svg.querySelectorAll("text")) {
            // The runs that hold glyphs (mathtext is a <tspan> per glyph); whitespace between
            // runs draws nothing.
            const runs = [text, ...text.querySelectorAll("tspan")]
                .filter(run => [...run.childNodes].some(node => node.nodeType === 3 && node.textContent.trim()));
            if (!runs.length) continue;
            const boxes = runs.map(run => {
                const size = parseFloat(getComputedStyle(run).fontSize), drawn = probes.drawnSize(size, run.getScreenCTM());
                texts += 1;
                if (drawn < 11) small.push(`${name(svg)}: "${run.textContent.trim()}" ${drawn.toFixed(1)} px`);
                const box = run.getBBox(), inset = 0.1 * size;
                return [box.x + inset, box.y + inset, box.x + box.width - inset, box.y + box.height - inset];
            });
            labels.push([text.textContent.replace(/\s+/g, ""), corners(text, [
                Math.min(...boxes.map(b => b[0])), Math.min(...boxes.map(b => b[1])),
                Math.max(...boxes.map(b => b[2])), Math.max(...boxes.map(b => b[3]))])]);
        }
        const drawn = [...svg.querySelectorAll("line, polyline, path, use")]
            .filter(element => !element.closest("defs, pattern, clipPath, marker, mask"));
        const lines = drawn.filter(element => element.tagName !== "use").map(straight).filter(Boolean);
        const markers = drawn.filter(element => element.tagName === "use").map(use => [use, use.getBBox()])
            .filter(([, box]) => box.width > 0 && box.height > 0)
            .map(([use, box]) => corners(use, [box.x, box.y, box.x + box.width, box.y + box.height]));
        labels.forEach(([label, box], i) => {
            for (const [other, its] of labels.slice(i + 1))
                if (!apart(box, its)) overlaps.push(`${name(svg)}: "${label}" on "${other}"`);
            if (lines.some(line => !apart(box, line))) overlaps.push(`${name(svg)}: "${label}" on a line`);
            if (markers.some(marker => !apart(box, marker))) overlaps.push(`${name(svg)}: "${label}" under a marker`);
        });
    }
    const images = [...document.querySelectorAll("article .jp-OutputArea img")].map(img => img.alt);
    return {unstyled: [...unstyled], small, overlaps, images, count: svgs.length, texts};
};

// The heatmaps of the page, static and live, in the palette it has now (issue 34): a cell is
// an element of a drawing filled with a step of the palette's scale, or with the masked grey
// (extra.css's --attnlit-w0 ... and --attnlit-masked, as this palette computes them). What
// weight 0 and masked cells look like, and each number written on a cell, with its colour and
// its cell's where it is drawn (each drawing scrolled to the middle of the screen in turn).
probes.heatmaps = () => {
    const svgs = "http://www.w3.org/2000/svg", probe = document.createElementNS(svgs, "svg");
    document.body.append(probe);
    const computed = name => {
        if (!getComputedStyle(document.body).getPropertyValue(`--attnlit-${name}`).trim()) return null;
        const rect = probe.appendChild(document.createElementNS(svgs, "rect"));
        rect.style.fill = `var(--attnlit-${name})`;
        return getComputedStyle(rect).fill;
    };
    const steps = [...Array(21).keys()].map(k => computed(`w${k}`)), masked = computed("masked");
    probe.remove();
    const seen = {page: getComputedStyle(document.body).backgroundColor, zero: steps[0], cells: 0,
                  zeros: [], hidden: [], texts: []};
    if (steps.includes(null) || masked === null) return seen;
    const fill = e => getComputedStyle(e).fill;
    const cells = new Set([...document.querySelectorAll("article svg :is(path, rect)")]
        .filter(e => e.checkVisibility() && (steps.includes(fill(e)) || fill(e) === masked)));
    seen.cells = cells.size;
    seen.zeros = [...new Set([...cells].map(fill).filter(f => f === steps[0]))];
    seen.hidden = [...new Set([...cells].map(fill).filter(f => f === masked))];
    const y = scrollY;
    for (const svg of new Set([...cells].map(cell => cell.ownerSVGElement))) {
        svg.scrollIntoView({ block: "center" });
        for (const text of svg.querySelectorAll("text")) {
            const box = text.getBoundingClientRect();
            const under = document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2)
                .find(e => e !== text && cells.has(e));
            if (under) seen.texts.push([text.textContent, fill(text), fill(under),
                                        svg.classList.contains("attnlit-drawing")]);
        }
    }
    scrollTo(0, y);
    return seen;
};

})(globalThis.attnlitProbes ??= {});
