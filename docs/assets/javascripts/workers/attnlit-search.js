// The site's search worker: Material's (9.8.2, loaded at the end), with the reader's query made
// to meet the index as the page's language writes it (overrides/main.html names this file).
// Material cuts a query at spaces and looks for each word's beginnings, any of them.
// - A Thai reader types words without spaces, and the index holds them one by one
//   (tools/mkdocs_hooks.py cuts the Thai pages' words at build time): a run of Thai letters
//   becomes the index's words it is made of.
// - A Vietnamese word is syllables apart ("ma trận", matrix), and a reader may leave the
//   diacritics out: the index holds each syllable with them and without.
// - The parts of such a word are all required, each whole but the last, which the reader may
//   still be typing: a part begun finds every word it begins (ความ, so: hundreds).
// - A spelling that the glossary does not use (มาสก์ for mask) is searched as the word the
//   pages write (the index's config.attnlit.synonyms).
// - Material ranks a page's top section above its other sections, even where it lacks a word
//   of the query: "induction head" put chapter 7 (head, head, head) above chapter 10. Pages
//   with a section that holds every word come first, each group in Material's order.
// Material's worker reads its messages, answers and loads its scripts through the three
// functions wrapped here.
(() => {
  "use strict";
  const MATERIAL = "search.a7633da7.min.js"; // beside this file; tests/test_site.py checks it
  const listen = self.addEventListener.bind(self), load = self.importScripts.bind(self);
  const post = self.postMessage.bind(self);
  const SETUP = 0, QUERY = 2, RESULT = 3; // Material's message types
  const THAI = /[\u0e00-\u0e7f]+/g;
  let language = "en", synonyms = [];
  const words = new Set(), beginnings = new Set();
  let longest = 0;

  // A word without its diacritics: bão hòa is bao hoa.
  const bare = word => word.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/đ/g, "d")
    .replace(/Đ/g, "D").normalize("NFC");

  // A run of Thai letters as the fewest words of the index (the last may be a word's
  // beginning), or null where the index has no such words.
  function cut(run) {
    const fewest = [0], from = [];
    for (let end = 1; end <= run.length; end++)
      for (let start = Math.max(0, end - longest); start < end; start++) {
        const part = run.slice(start, end);
        if (fewest[start] === undefined || !(words.has(part) || (end === run.length && beginnings.has(part))))
          continue;
        if (fewest[end] === undefined || fewest[start] + 1 < fewest[end]) {
          fewest[end] = fewest[start] + 1;
          from[end] = start;
        }
      }
    if (fewest[run.length] === undefined) return null;
    const found = [];
    for (let end = run.length; end > 0; end = from[end]) found.unshift(run.slice(from[end], end));
    return found;
  }

  const whole = parts => parts.map((part, i) => `+${part}${i === parts.length - 1 ? "*" : ""}`).join(" ");

  function query(text) {
    for (const [spelling, word] of synonyms) text = text.replace(spelling, ` ${word} `);
    if (language === "th")
      return text.replace(THAI, run => { const parts = cut(run); return parts ? whole(parts) : run; });
    const parts = text.trim().split(/\s+/);
    // Lunr's own syntax (+, -, *, ~, ^, field:) is the reader's.
    return language === "vi" && parts.length > 1 && !/[+\-*~^:"]/.test(text) ? whole(parts) : text;
  }

  // The index's Thai words, as the build cut them (a zero-width space between two).
  function learn(docs) {
    for (const doc of docs)
      for (const field of [doc.title, doc.text])
        for (const run of (field ?? "").toLowerCase().match(/[\u0e00-\u0e7f\u200b]+/g) ?? [])
          for (const word of run.split("\u200b").filter(Boolean)) {
            words.add(word);
            longest = Math.max(longest, word.length);
            for (let k = 1; k <= word.length; k++) beginnings.add(word.slice(0, k));
          }
  }

  function prepared(message) {
    if (message?.type === SETUP) {
      const { config, docs } = message.data;
      language = config.lang[0];
      // Thai words are found inside a run of letters; others whole.
      const escaped = spelling => spelling.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      synonyms = Object.entries(config.attnlit?.synonyms ?? {}).map(([spelling, word]) => [new RegExp(
        /^[\u0e00-\u0e7f]+$/.test(spelling) ? escaped(spelling)
          : `(?<![\\p{L}\\p{M}])${escaped(spelling)}(?![\\p{L}\\p{M}])`, "giu"), word]);
      delete config.attnlit;
      if (language === "th") learn(docs);
    } else if (message?.type === QUERY) {
      return { ...message, data: query(message.data) };
    }
    return message;
  }

  // Material's results: a list per page, its sections, each with the query's terms it holds
  // (none for a page's top section that Material adds unmatched, above its matched ones).
  const holdsAll = ({ terms }) => Object.keys(terms).length > 0 && Object.values(terms).every(Boolean);
  function ranked(pages) {
    const complete = pages.filter(page => page.some(holdsAll));
    return [...complete, ...pages.filter(page => !complete.includes(page))];
  }

  self.postMessage = message => post(message?.type === RESULT && message.data.items
    ? { ...message, data: { ...message.data, items: ranked(message.data.items) } } : message);

  self.addEventListener = (type, listener, options) => listen(type, type !== "message" ? listener
    : event => listener({ data: prepared(event.data) }), options);

  self.importScripts = (...urls) => {
    // Material's Thai support cuts words with wordcut (159 KB gzipped), which its tokenizer
    // never calls: the index comes cut.
    const lunr = self.lunr;
    if (lunr && !lunr.wordcut) lunr.wordcut = { init() {}, cut: text => text };
    load(...urls.filter(url => !url.endsWith("/wordcut.js")));
    // Each Vietnamese syllable of the index also without its diacritics, at the same place: a
    // query with them finds the syllables it names, one without them all it may stand for.
    if (lunr?.vi && !lunr.vi.bare) {
      const vietnamese = lunr.vi, both = token => {
        const plain = bare(token.toString());
        return plain === token.toString() ? token : [token, token.clone(() => plain)];
      };
      lunr.Pipeline.registerFunction(both, "attnlit-bare");
      // lunr.vi's own filter, which it leaves unregistered (lunr warns at every search's start).
      lunr.Pipeline.registerFunction(vietnamese.stopWordFilter, "stopWordFilter-vi");
      lunr.vi = Object.assign(function () {
        vietnamese.call(this);
        this.pipeline.add(both);
      }, vietnamese, { bare: true });
    }
  };

  load(MATERIAL);
})();
