"""The glossary page's table, made from the translations' glossaries: a Python-Markdown
extension.

A line `<!-- glossary -->` (the English page: each term and how each translation writes it) or
`<!-- glossary: th -->` (a translation's page: each term, how it writes it, the spellings it
does not use, and why) becomes a Markdown table, built from docs/<code>/glossary.yml, the same
file that the translations' test holds every page to (tools/i18n.py). The table's headings are
the language's own words (its config's extra.strings.glossary).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

sys.path.insert(0, str(Path(__file__).parent))
import i18n  # noqa: E402

MARKER = re.compile(r"^<!--\s*glossary(?::\s*(?P<language>[a-z]{2}))?\s*-->\s*$")


def cell(text: str) -> str:
    """Text for a cell of a Markdown table."""
    return text.replace("|", "\\|").replace("\n", " ")


def table(language: str | None, root: Path = i18n.ROOT) -> list[str]:
    """The glossary's table: of every translation (None), or of one, in its own words."""
    if language is None:
        languages = i18n.languages(root)
        terms = {code: {term.english: term for term in i18n.glossary(code, root)} for code in languages}
        words = i18n.strings(i18n.ENGLISH, root)["glossary"]
        names = [words["term"], *(next(alternate["name"] for alternate in i18n.alternates(root)
                                       if alternate["lang"] == code) for code in languages)]
        rows = [[english, *(terms[code][english].use if english in terms[code] else "" for code in languages)]
                for english in sorted({english for found in terms.values() for english in found}, key=str.lower)]
    else:
        if language not in i18n.languages(root):
            raise ValueError(f"glossary marker: no translation {language!r}; one of {i18n.languages(root)}")
        words = i18n.strings(language, root)["glossary"]
        names = [words["term"], words["written"], words["not"], words["note"]]
        rows = [[term.english, term.use, ", ".join(term.avoid), term.note or ""]
                for term in sorted(i18n.glossary(language, root), key=lambda term: term.english.lower())]
    return ["| " + " | ".join(map(cell, names)) + " |", "|" + "---|" * len(names),
            *("| " + " | ".join(map(cell, row)) + " |" for row in rows)]


class GlossaryPreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        out = []
        for line in lines:
            found = MARKER.match(line)
            # Out of the search index: a reader searching for a term wants the chapter.
            out += (['', '<div class="attnlit-glossary" data-search-exclude markdown="1">', "",
                     *table(found["language"]), "", "</div>", ""] if found else [line])
        return out


class GlossaryTable(Extension):
    """Put the glossary's table where its marker is (see the module's docstring)."""

    def extendMarkdown(self, md: Markdown) -> None:
        # Before the raw HTML is taken out of the text (the marker is an HTML comment).
        md.preprocessors.register(GlossaryPreprocessor(md), "glossary_table", 35)


def makeExtension(**kwargs) -> GlossaryTable:  # noqa: N802: Python-Markdown's name
    return GlossaryTable(**kwargs)
