"""The translations as read: fonts that have their letters, Thai broken between words and set
large enough, the language selector."""

import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import i18n
import thai_words
from browser_expectations import (
    LANGUAGES, SELECTED, TRANSLATED, language_of,
)
from browsing import (
    record, url_path,
)


def fonts_for(language: str) -> set[str]:
    """The font families installed here that draw a language's letters (fontconfig's list)."""
    listed = subprocess.run(["fc-list", f":lang={language}", "family"], capture_output=True, text=True).stdout
    return {family.strip() for line in listed.splitlines() for family in line.split(",")}


@pytest.mark.parametrize("page_name", TRANSLATED)
def test_a_translated_page_is_drawn_in_a_font_that_has_its_letters(browsed, page_name):
    """Without one, Thai shows as boxes: .ci/run installs fonts-thai-tlwg."""
    language, used = language_of(page_name), record(browsed, page_name)["fonts"]
    assert set(used) & fonts_for(language), f"first paragraph drawn in {used}, none with {language} letters"


THAI_PAGES = [name for name in TRANSLATED if language_of(name) == "th"]


@pytest.mark.parametrize("page_name", THAI_PAGES)
def test_thai_lines_break_between_words_never_inside_one(browsed, page_name):
    """At 390 px and at 1280 px, every fold open: each break inside a run of Thai letters falls
    between two of the words the build cut it into (tools/thai_words.py), as a Thai reader
    expects (not เม|ทริกซ์, น้ำ|หนัก, ความ|ยาว)."""
    inside = {}
    for width, breaks in record(browsed, page_name)["narrow"]["thai breaks"].items():
        for seen in breaks:
            run, at = (re.sub("[\u2060\u200b]", "", part) for part in (seen["run"], seen["run"][:seen["at"]]))
            ends = {sum(map(len, thai_words.words(run)[:k])) for k in range(len(run) + 1)}
            if len(at) not in ends and not seen["between"]:
                inside.setdefault(width, []).append(f"{at}|{run[len(at):]}")
    assert inside == {}, inside


@pytest.mark.parametrize("page_name", THAI_PAGES)
def test_thai_is_set_upright_at_a_size_its_marks_can_be_read_at(browsed, page_name):
    seen = record(browsed, page_name)["type"]
    assert seen["captions"] in ([], ["normal"]), "no fake italics for Thai"
    assert seen["admonitions"] is None or seen["admonitions"] >= 15, seen["admonitions"]
    assert all(offset >= 0.3 for offset in seen["underlines"]), "an underline clear of the marks below"
    assert "Leelawadee UI" in seen["family"] and "Loma" in seen["family"], seen["family"]


def languages(browsed) -> dict:
    seen = record(browsed, SELECTED, "languages")
    return seen


def test_the_language_selector_leads_to_the_same_page_in_each_language(browsed):
    seen = languages(browsed)
    assert seen["errors"] == []
    assert seen["path"] == [(language, "/" + url_path(f"{language}/{SELECTED}"), language)
                            for language in LANGUAGES] + [("en", "/" + url_path(SELECTED), "en")]


def test_the_language_selector_works_from_the_sites_folder(browsed, site):
    """Opened as files (file://), its links lead to each language's page in the folder."""
    links = languages(browsed)["files"]
    assert [link["lang"] for link in links] == [i18n.ENGLISH, *LANGUAGES]
    for link in links:
        target = Path(urlsplit(link["href"]).path)
        page = SELECTED if link["lang"] == i18n.ENGLISH else f"{link['lang']}/{SELECTED}"
        assert target == site / url_path(page).rstrip("/") and (target / "index.html").exists(), link
