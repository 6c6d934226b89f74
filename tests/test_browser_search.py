"""Search as a reader uses it, in each language: typed, pasted, spelt another way."""

import re
from html import unescape

import pytest
from browser_expectations import (
    SAME_RESULTS, SEARCHED, SEARCHED_ON, SEARCHES, TRANSLATED_SEARCHES, TYPED, language_of,
)
from browsing import (
    record, url_path,
)



@pytest.mark.parametrize("query", SEARCHES)
def test_search_lists_first_the_page_that_names_the_query(browsed, query):
    pages = [result["page"] for result in record(browsed, SEARCHED)["searched"][query]["typed"]]
    first, among = SEARCHES[query]
    assert not first or pages[0] in [f"/{page}" for page in first], pages[:5]
    assert {f"/{page}" for page in among} <= set(pages[:5]), pages[:5]


@pytest.mark.parametrize(("page_name", "query"), [(name, query) for name, queries in TYPED.items()
                                                for query in queries])
def test_search_finds_a_word_typed_in_the_pages_language(browsed, page_name, query):
    """On its page first, with a preview that holds the word (the index's word breaks aside)."""
    results = record(browsed, page_name)["typed"][query]["typed"]
    assert results and results[0]["page"] == "/" + url_path(page_name), [r["page"] for r in results]
    previews = [preview.replace("\u200b", "") for result in results for preview in result["previews"]]
    assert any(query.lower() in preview.lower() for preview in previews), previews[:3]


@pytest.mark.parametrize(("page_name", "query"), [(name, query) for name, queries in SEARCHED_ON.items()
                                                for query in queries] + [(name, query) for name, queries in TYPED.items()
                                                                         for query in queries])
def test_search_answers_text_that_comes_without_key_presses(browsed, page_name, query):
    """Pasted, or from an input method or an on-screen keyboard: the results of the keys."""
    seen = record(browsed, page_name)
    answer = (seen["searched"] if page_name in SEARCHED_ON else seen["typed"])[query]
    assert answer["inserted"] and answer["inserted"] == answer["typed"], [r["page"] for r in answer["inserted"]]


@pytest.mark.parametrize(("page_name", "query"), [(name, query) for name, queries in TRANSLATED_SEARCHES.items()
                                                for query in queries])
def test_a_translations_search_lists_first_the_page_that_names_the_query(browsed, page_name, query):
    pages = [result["page"] for result in record(browsed, page_name)["searched"][query]["typed"]]
    expected = f"/{language_of(page_name)}/{TRANSLATED_SEARCHES[page_name][query]}"
    assert pages and pages[0] == expected, pages[:5]


@pytest.mark.parametrize(("page_name", "query"), [(name, query) for name, pairs in SAME_RESULTS.items()
                                                for query in pairs])
def test_a_spelling_finds_what_the_word_it_stands_for_finds(browsed, page_name, query):
    searched = record(browsed, page_name)["searched"]
    pages = {word: [result["page"] for result in searched[word]["typed"]] for word in (query, SAME_RESULTS[page_name][query])}
    spelt, word = pages[query], pages[SAME_RESULTS[page_name][query]]
    assert word, f"{SAME_RESULTS[page_name][query]!r} finds nothing"
    if language_of(page_name) == "th":
        assert spelt == word
    else:  # without diacritics: as many pages as with them, maybe more, the same page first
        counts = [searched[word]["count"] for word in (query, SAME_RESULTS[page_name][query])]
        assert counts[0] >= counts[1] > 0 and spelt[0] == word[0], (spelt[:5], word[:5], counts)


def words(text: str) -> str:
    """A text's words of three letters or more, lowercased, one space apart (the letters of a
    formula, X W_q, come one to an element on the page and run together in the index)."""
    return " ".join(re.findall(r"[^\W\d_]{3,}", text.lower()))


def test_search_previews_are_the_pages_own_running_text(browsed, site):
    """Each block of a preview is a run of its page's words, in the page's order."""
    checked, pages = 0, {}
    for query, answer in record(browsed, SEARCHED)["searched"].items():
        for result in answer["typed"]:
            if result["page"] not in pages:
                html = (site / result["page"].strip("/") / "index.html").read_text(encoding="utf-8")
                article = html[html.index("<article"):html.index("</article>")]
                blocks = re.sub(r"</(?:p|h\d|li|td|th|div)>", " ", article)  # a block's end ends a word
                pages[result["page"]] = f" {words(unescape(re.sub(r'<[^>]+>', '', blocks)))} "
            for preview in result["previews"]:
                # Material may cut a long block, mid-word, with an ellipsis.
                shown = words(preview).rsplit(" ", 1)[0] if preview.rstrip().endswith("…") else words(preview)
                assert f" {shown} " in pages[result["page"]] or not shown, f"{query!r}: {preview[:200]!r}"
                checked += bool(shown)
    assert checked >= 3 * len(SEARCHES)
