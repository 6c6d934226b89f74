"""The translations (tools/i18n.py): each page holds its English page's code and outputs, writes
its language's terms one way, and says when the English page has moved on; each language's
site is laid out like the English one. What a reader sees of them is in tests/test_browser_*.py."""

import ast
import re
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest

import figures
import i18n
import mkdocs_hooks
import site_config

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = i18n.languages(ROOT)
TRANSLATED = [(language, page) for language in LANGUAGES for page in i18n.pages(language, ROOT)]
# The site's own words that a translation must give (mkdocs.<lang>.yml's extra.strings): the
# English ones, and those only translations show.
TRANSLATION_STRINGS = {"untranslated", "in_english", "stale_title", "stale", "stale_link", "figures", "playground"}


def dict_value(tree: ast.AST, key: str) -> ast.expr:
    """What a dict literal of the code holds under `key`."""
    return next(value for node in ast.walk(tree) if isinstance(node, ast.Dict)
                for name, value in zip(node.keys, node.values) if isinstance(name, ast.Constant) and name.value == key)


def assigned(tree: ast.AST, name: str) -> ast.expr:
    """What the code assigns to `name`."""
    return next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                and any(isinstance(target, ast.Name) and target.id == name for target in node.targets))


# Words a widget takes from its data and shows through t(name): where its figure block writes
# them, as literals. Chapter 5's ways, by their names; chapter 10's sequences, by theirs.
DATA_WORDS = {
    "mask": lambda tree: {way.elts[0].value for way in dict_value(tree, "ways").elts},
    "heads": lambda tree: {key.value for key in assigned(tree, "cases").keys},
}


def widgets_words(page: str) -> dict[str, set[str]]:
    """The words each kind of widget of an English page asks for: its script's, its data's."""
    words = {}
    for block in i18n.fenced_blocks((ROOT / "docs" / page).read_text(encoding="utf-8"), page):
        kind = re.search(r'"kind": "([a-z]+)"', block.body) if block.marker == "figure" else None
        if kind:
            script = (ROOT / "docs" / "javascripts" / "widgets" / f"{kind[1]}.js").read_text(encoding="utf-8")
            words[kind[1]] = {*figures.ASKED.findall(script),
                              *DATA_WORDS.get(kind[1], lambda _: ())(ast.parse(block.body))}
    return words


def test_the_words_widgets_take_from_their_data_are_found():
    """Where DATA_WORDS looks, each such kind's page writes its words."""
    found = {kind: words for page in i18n.english_pages(ROOT) for kind, words in widgets_words(page).items()}
    assert set(DATA_WORDS) <= set(found)
    assert {"0 before softmax (wrong)", "−∞ before softmax", "softmax, zero, renormalise"} <= found["mask"]
    assert {"8 tokens, then the same 8", "16 random tokens"} <= found["heads"]


def test_each_language_has_its_config_its_folder_and_its_glossary():
    english = site_config.read_config(ROOT)
    assert LANGUAGES == ["th", "vi"]
    for language in LANGUAGES:
        config = i18n.language_config(language, ROOT)
        assert config["INHERIT"] == "mkdocs.yml"
        assert (config["docs_dir"], config["site_dir"]) == (f"docs/{language}", f"site/{language}")
        assert config["theme"] == {"language": language}
        # The site's own extensions, in its language; the rest of mkdocs.yml's, as they are
        # (merged: the mapping adds to the English one, key by key).
        words_in_a_language = [name for name, options in english["markdown_extensions"].items()
                               if (options or {}).get("language") == i18n.ENGLISH]
        assert config["markdown_extensions"] == {name: {"language": language} for name in words_in_a_language}
        assert len(words_in_a_language) == 3
        assert config["edit_uri"] == f"{english['edit_uri']}{language}/"
        assert f"/{language}/" in english["exclude_docs"].split()
        assert i18n.glossary(language, ROOT), f"docs/{language}/glossary.yml has no terms"
        assert (i18n.docs_dir(language, ROOT) / "glossary.yml").exists()


@pytest.mark.parametrize(("language", "page"), TRANSLATED)
def test_a_translated_page_holds_the_english_code_and_outputs(language, page):
    english = (ROOT / "docs" / page).read_text(encoding="utf-8")
    translated = (i18n.docs_dir(language, ROOT) / page).read_text(encoding="utf-8")
    assert i18n.identity_errors(english, translated, f"docs/{language}/{page}") == []
    # As many blocks as in English, found (a parser that finds none would prove nothing): a
    # page without blocks has no fence at all.
    blocks = i18n.fenced_blocks(english, page)
    assert len(i18n.fenced_blocks(translated, page)) == len(blocks) and (blocks or "```" not in english)


ENGLISH_PAGE = '''\
# A page

=== "A tab"

    ```python
    import torch

    x = torch.ones(2)  # (1)!
    print(x.sum())  # two ones
    ```

    1.  An annotation.

    <!--pytest-codeblocks:expected-output-->
    ```text
    tensor(2.)
    ```

<!-- tangle: attnlit/toy.py -->
```python
words = ["Your", "journey"]
```

```console
make test  # every test
```
'''


@pytest.mark.parametrize(("change", "says"), [
    (("two ones", "deux uns"), None),  # a comment, translated
    (("# A page", "# Une page"), None),  # prose
    (("tensor(2.)", "tensor(2.0)"), "it differs from the English block"),
    (("x.sum()", "x.mean()"), "its code differs at token 17: 'mean' where English has 'sum'"),
    (('"journey"', '"voyage"'), "its code differs at token"),
    (("  # (1)!", ""), "its annotation markers are [], the English block's ['1']"),
    (("<!-- tangle: attnlit/toy.py -->\n", ""), "its marker is '', the English block's 'tangle: attnlit/toy.py'"),
    (("```text", "```"), "its info is '', the English block's 'text'"),
    (("    <!--pytest-codeblocks:expected-output-->\n", ""), "its marker is ''"),
    (('=== "A tab"\n\n    ```python', "```python"), "its indent is 0, the English block's 4"),
    (("```python\nwords", "```python\nimport torch\nwords"), "its code differs at token 1"),
    (("make test  # every test", "make test  # ทุกการทดสอบ"), None),  # a command's comment
    (("make test  # every test", "make serve  # every test"), "it differs from the English block"),
    (("make test  # every test", "make test#x"), "it differs from the English block"),
])
def test_the_identity_test_sees_every_change_but_comments_and_prose(change, says):
    translated = ENGLISH_PAGE.replace(*change)
    assert translated != ENGLISH_PAGE
    errors = i18n.identity_errors(ENGLISH_PAGE, translated, "x.md")
    if says is None:
        assert errors == []
    else:
        assert len(errors) == 1 and says in errors[0], errors


def test_a_translated_page_with_a_block_less_fails():
    translated = ENGLISH_PAGE[:ENGLISH_PAGE.index("<!-- tangle")]
    assert i18n.identity_errors(ENGLISH_PAGE, translated, "x.md") == [
        "x.md: 2 fenced blocks, the English page has 4"]


def glossed(language: str) -> list[tuple[str, str]]:
    """(where, text) of everything a language's readers see that its glossary governs: its
    pages' prose, its nav's titles, its interface strings."""
    config = i18n.language_config(language, ROOT)
    found = [(f"docs/{language}/{page}", i18n.prose((i18n.docs_dir(language, ROOT) / page).read_text(encoding="utf-8"), page))
             for page in i18n.pages(language, ROOT)]

    def titles(item):
        if isinstance(item, list):
            return [title for value in item for title in titles(value)]
        if isinstance(item, dict):
            return [title for key, value in item.items() for title in [key, *titles(value)]]
        return []

    found.append((f"mkdocs.{language}.yml nav", "\n".join(titles(config["nav"]))))
    found.append((f"mkdocs.{language}.yml site_description", config["site_description"]))
    strings = i18n.strings(language, ROOT)
    found.append((f"mkdocs.{language}.yml strings", "\n".join(
        [str(value) for key, value in strings.items() if key not in ("figures", "playground")]
        + list(strings["figures"].values()) + list(strings["playground"].values()))))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_term_is_written_one_way(language):
    terms = i18n.glossary(language, ROOT)
    errors = [error for where, text in glossed(language) for error in i18n.glossary_errors(terms, text, where)]
    assert errors == [], "\n".join(errors)


THAI_TERMS = [i18n.Term("token", "token", ["โทเค็น"]), i18n.Term("context vector", "เวกเตอร์บริบท", ["context vector"])]


@pytest.mark.parametrize(("text", "errors"), [
    ("token ทุกตัว และ token อีกตัว", []),
    ("token ทุกตัว และโทเค็นอีกตัว", ["x:1: 'โทเค็น' for 'token': this language writes 'token'"]),
    ("เวกเตอร์บริบท (context vector) แล้ว\nเวกเตอร์บริบท อีกครั้ง", []),  # both, at the first use
    ("context vector (เวกเตอร์บริบท) แล้วเวกเตอร์บริบท", []),
    ("เวกเตอร์บริบท แล้ว\nเวกเตอร์บริบท (context vector)",  # both, but not at the first use
     ["x:2: 'context vector' for 'context vector': this language writes 'เวกเตอร์บริบท'"]),
    ("เวกเตอร์บริบท (context vector) แล้ว context vectors",
     ["x:1: 'context vector' for 'context vector': this language writes 'เวกเตอร์บริบท'"]),
    ("Tokens", []),
    ("context\nvector แล้ว", ["x:1: 'context vector' for 'context vector': this language writes 'เวกเตอร์บริบท'"]),
    ("## context\n\nvector แล้ว", []),  # a heading, then a paragraph: two texts
])
def test_a_term_written_two_ways_fails_but_the_first_use_may_give_both(text, errors):
    assert i18n.glossary_errors(THAI_TERMS, text, "x") == errors


def test_prose_leaves_out_code_formulas_links_and_markers():
    page = ('---\ntranslated_from: "0"\n---\n\nโทเค็น `โทเค็น` $โทเค็น$ [a](โทเค็น.md)\n'
            "<!-- figure: a caption about โทเค็น -->\n```python\n# โทเค็น\n```\n")
    assert [line for line in i18n.prose(page).splitlines() if "โทเค็น" in line] == [
        "โทเค็น                   [a            ", "             a caption about โทเค็น    "]


def test_the_nav_of_each_language_lists_its_pages_in_the_english_order():
    for language in LANGUAGES:
        listed = [page for page in site_config.nav_pages(ROOT)]  # the English nav, as docs/... paths
        config = i18n.language_config(language, ROOT)

        def pages(item):
            if isinstance(item, str):
                return [item]
            values = item if isinstance(item, list) else item.values()
            return [page for value in values for page in pages(value)]

        assert pages(config["nav"]) == i18n.pages(language, ROOT)
        assert [f"docs/{page}" for page in i18n.pages(language, ROOT)] == [
            page for page in listed if (i18n.docs_dir(language, ROOT) / page.removeprefix("docs/")).exists()]


def test_a_translated_page_title_is_its_nav_title():
    for language in LANGUAGES:
        config = i18n.language_config(language, ROOT)
        for page, label in site_config.nav_titles(config["nav"]).items():
            text = (i18n.docs_dir(language, ROOT) / page).read_text(encoding="utf-8")
            heading = next(line for line in i18n.prose(text, page).splitlines() if line.startswith("# "))
            heading = heading.removeprefix("# ").strip()
            if page == "index.md":  # "Home", as in English: its heading, the site's name, is above the nav
                assert label not in (heading, site_config.read_config(ROOT)["site_name"]), f"{language}/{page}"
                continue
            if i18n.is_lab(page):  # "Lab: why scale" is "Why scale" under "Labs", as in English
                heading = heading.split(": ", 1)[-1]
                label = label[:1].lower() + label[1:]
            assert label == heading, f"{language}/{page}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_gives_every_string_its_widgets_and_playground_show(language):
    english = i18n.strings(i18n.ENGLISH, ROOT)
    strings = i18n.strings(language, ROOT)
    assert set(strings) == set(english) | TRANSLATION_STRINGS
    widgets = {kind: words for page in i18n.pages(language, ROOT) for kind, words in widgets_words(page).items()}
    assert widgets, "no widget on a translated page: nothing to check"
    asked = {"figures": set().union(*widgets.values()), "playground": {
        words for page in i18n.pages(language, ROOT)
        for name in mkdocs_hooks.PLAYGROUND.findall((ROOT / "docs" / page).read_text(encoding="utf-8"))
        for words in figures.ASKED.findall(
            (ROOT / "docs" / mkdocs_hooks.PLAYGROUND_JS.format(name)).read_text(encoding="utf-8"))}}
    assert {"scores", "context vector"} <= asked["figures"]
    assert {"Start the model", "Heads off: {list}."} <= asked["playground"]
    # Words a language keeps in English (query) need no entry; every other must have one.
    kept = {term.english for term in i18n.glossary(language, ROOT) if term.use == term.english}
    for part in ("figures", "playground"):
        assert asked[part] - kept <= set(strings[part]), f"{part}: {asked[part] - kept - set(strings[part])}"
        for words, translated in strings[part].items():
            assert re.findall(r"\{\w+\}", words) == re.findall(r"\{\w+\}", translated), words


@pytest.mark.parametrize(("language", "page"), TRANSLATED)
def test_a_translated_page_records_the_english_page_it_follows(language, page):
    text = (i18n.docs_dir(language, ROOT) / page).read_text(encoding="utf-8")
    assert re.fullmatch("[0-9a-f]{12}", i18n.recorded_hash(text, page) or ""), "run tools/i18n.py stamp"


@pytest.mark.filterwarnings("always:stale translations:UserWarning")
def test_stale_translations_are_listed():
    """A warning, not a failure: the page still holds the English code (the identity test),
    and the built page says that its words follow an earlier English page."""
    stale = {language: i18n.stale(language, ROOT) for language in LANGUAGES}
    if any(stale.values()):
        warnings.warn(f"stale translations (python tools/i18n.py status): {stale}", UserWarning)


def test_a_page_goes_stale_when_its_english_page_changes_and_fresh_when_stamped(tmp_path):
    (tmp_path / "docs" / "th").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text(
        "nav:\n  - a.md\nextra:\n  alternate:\n    - {lang: en}\n    - {lang: th}\n")
    (tmp_path / "docs" / "a.md").write_text("# A\n", encoding="utf-8")
    translated = tmp_path / "docs" / "th" / "a.md"
    translated.write_text("# ก\n", encoding="utf-8")
    assert i18n.stale("th", tmp_path) == ["a.md"]  # no hash yet
    assert i18n.stamp(translated, tmp_path) == i18n.english_hash("a.md", tmp_path)
    assert translated.read_text(encoding="utf-8").startswith(f'---\ntranslated_from: "{i18n.english_hash("a.md", tmp_path)}"\n---\n')
    assert i18n.stale("th", tmp_path) == []
    (tmp_path / "docs" / "a.md").write_text("# A, changed\n", encoding="utf-8")
    assert i18n.stale("th", tmp_path) == ["a.md"]
    i18n.stamp(translated, tmp_path)
    assert i18n.stale("th", tmp_path) == [] and translated.read_text(encoding="utf-8").count(i18n.HASH_KEY) == 1



def test_stamp_names_what_is_wrong_with_its_page_and_stamps_nothing(tmp_path, capsys):
    (tmp_path / "docs" / "th").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text(
        "nav:\n  - a.md\n  - b.md\nextra:\n  alternate:\n    - {lang: en}\n    - {lang: th}\n")
    for name in ("a.md", "b.md"):
        (tmp_path / "docs" / name).write_text("# A\n", encoding="utf-8")
    translated = tmp_path / "docs" / "th" / "a.md"
    translated.write_text("# ก\n", encoding="utf-8")
    cases = {
        "a.md": "expected <language>/<page>, the language one of th",  # language forgotten
        "xx/a.md": "expected <language>/<page>",
        "th/no-such-page.md": "there is no English page docs/no-such-page.md",
        "th/b.md": "docs/th/b.md is not translated yet",
    }
    for page, message in cases.items():
        assert i18n.main(["stamp", "th/a.md", page], tmp_path) == 2
        assert message in capsys.readouterr().err
    assert translated.read_text(encoding="utf-8") == "# ก\n"  # nothing stamped
    assert i18n.main(["stamp", "th/a.md"], tmp_path) == 0
    assert i18n.HASH_KEY in translated.read_text(encoding="utf-8")


WEIGHTS = """\
# Weights

Each token scores every other one.

```python
import torch

# two tokens of width 3
x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
scores = x @ x.T  # every pair at once
print(scores)
```

<!--pytest-codeblocks:expected-output-->
```text
tensor([[14., 32.],
        [32., 77.]])
```

!!! example "Exercise"

    ```python
    print(2 + 2)  # four
    ```
"""
THAI_WEIGHTS = (WEIGHTS.replace("Each token scores every other one.", "โทเคนแต่ละตัวให้คะแนนทุกตัว")
             .replace("# two tokens of width 3", "# โทเคนสองตัว กว้าง 3").replace("# every pair at once", "# ทุกคู่ในคราวเดียว")
             .replace('"Exercise"', '"แบบฝึกหัด"').replace("# four", "# สี่"))


def translated_site(tmp_path: Path, english: str, translated: str, name: str = "a.md") -> Path:
    """A site of one page, translated into Thai and stamped; the translation's path."""
    for folder in ("docs", "docs/th"):
        (tmp_path / folder / Path(name).parent).mkdir(parents=True, exist_ok=True)
    (tmp_path / "mkdocs.yml").write_text(
        f"nav:\n  - {name}\nextra:\n  alternate:\n    - {{lang: en}}\n    - {{lang: th}}\n")
    (tmp_path / "docs" / name).write_text(english, encoding="utf-8")
    page = tmp_path / "docs" / "th" / name
    page.write_text(translated, encoding="utf-8")
    i18n.stamp(page, tmp_path)
    return page


def words(page: str) -> list[str]:
    """A page's lines of prose."""
    return [line.strip() for line in i18n.prose(page).splitlines() if line.strip()]


def test_sync_carries_english_code_and_outputs_and_keeps_translated_words_and_comments(tmp_path, capsys):
    page = translated_site(tmp_path, WEIGHTS, THAI_WEIGHTS)
    before = page.read_text(encoding="utf-8")
    assert i18n.main(["sync"], tmp_path) == 0 and page.read_text(encoding="utf-8") == before  # in step
    assert capsys.readouterr().out == "0 of 1 translated pages changed\n"
    english = (WEIGHTS.replace("[1.0, 2.0, 3.0]", "[1.0, 0.0, 3.0]")  # a line changed
               .replace("print(scores)", "print(scores)\nprint(scores.shape)")  # a line added
               .replace("[[14., 32.],\n        [32., 77.]])", "[[10., 22.],\n        [22., 77.]])\ntorch.Size([2, 2])")
               .replace("print(2 + 2)", "print(2 * 2)"))
    (tmp_path / "docs" / "a.md").write_text(english, encoding="utf-8")
    assert i18n.identity_errors(english, before, "a.md") != []
    assert i18n.main(["sync"], tmp_path) == 0
    assert capsys.readouterr().out == ("th/a.md: carried block 1 (python, line 9), block 2 (text, line 19), "
                                       "block 3 (python, line 26)\n1 of 1 translated pages changed\n")
    after = page.read_text(encoding="utf-8")
    assert i18n.identity_errors(english, after, "a.md") == []
    # Its words and its comments on unchanged lines stay Thai; the code was all that changed.
    assert words(after) == words(before) == ["# Weights", "โทเคนแต่ละตัวให้คะแนนทุกตัว", '!!! example "แบบฝึกหัด"']
    assert [i18n.comments(block) for block in i18n.fenced_blocks(after, "a.md")] == [
        ["# โทเคนสองตัว กว้าง 3", "  # ทุกคู่ในคราวเดียว"], [], ["  # สี่"]]
    assert after == before.replace("[1.0, 2.0, 3.0]", "[1.0, 0.0, 3.0]").replace(
        "print(scores)", "print(scores)\nprint(scores.shape)").replace(
        "[[14., 32.],\n        [32., 77.]])", "[[10., 22.],\n        [22., 77.]])\ntorch.Size([2, 2])").replace(
        "print(2 + 2)", "print(2 * 2)")
    assert i18n.stale("th", tmp_path) == []  # its words follow the English words still


def test_a_changed_english_comment_or_word_leaves_the_translation_stale_for_its_translator(tmp_path, capsys):
    page = translated_site(tmp_path, WEIGHTS, THAI_WEIGHTS)
    for change in (("# every pair at once", "# all pairs at once"), ("every other one", "every token")):
        (tmp_path / "docs" / "a.md").write_text(WEIGHTS.replace(*change), encoding="utf-8")
        assert i18n.main(["sync"], tmp_path) == 0 and i18n.stale("th", tmp_path) == ["a.md"]
        assert capsys.readouterr().out == ("th/a.md: its English page's words or comments changed too: translate "
                                           "them, then python tools/i18n.py stamp th/a.md\n"
                                           "0 of 1 translated pages changed\n")
    assert page.read_text(encoding="utf-8").count("ทุกคู่ในคราวเดียว") == 1


@pytest.mark.parametrize(("english", "says"), [
    (WEIGHTS + "\n```python\nprint(1)\n```\n", "docs/th/a.md: 3 fenced blocks, the English page has 4"),
    (WEIGHTS.replace("```text", "```console"),
     "docs/th/a.md:19: block 2's info is 'text', the English block 2's (its line 15) 'console'"),
    (WEIGHTS.replace("<!--pytest-codeblocks:expected-output-->\n", ""),
     "docs/th/a.md:19: block 2's marker is 'expected output', the English block 2's (its line 14) ''"),
])
def test_sync_leaves_a_block_added_removed_or_moved_to_the_translator_and_changes_nothing(tmp_path, capsys, english, says):
    page = translated_site(tmp_path, WEIGHTS, THAI_WEIGHTS.replace("print(scores)", "print(scores.T)"))
    before = page.read_text(encoding="utf-8")
    (tmp_path / "docs" / "a.md").write_text(english, encoding="utf-8")
    assert i18n.main(["sync"], tmp_path) == 2
    assert capsys.readouterr().err.startswith(says)
    assert page.read_text(encoding="utf-8") == before
    assert i18n.main(["sync", "th/b.md"], tmp_path) == 2
    assert capsys.readouterr().err == "sync th/b.md: there is no English page docs/b.md\n"


def test_sync_carries_a_labs_code_cells_and_leaves_its_markdown_cells(tmp_path):
    thai = ENGLISH_LAB.replace("Some prose about a token.", "ร้อยแก้ว").replace("two ones", "หนึ่งสองตัว")
    page = translated_site(tmp_path, ENGLISH_LAB, thai, "labs/a.py")
    english = ENGLISH_LAB.replace("x.sum()", "x.mean()").replace('print("done")', 'print("done")\nprint("again")')
    (tmp_path / "docs" / "labs" / "a.py").write_text(english, encoding="utf-8")
    assert i18n.main(["sync"], tmp_path) == 0
    after = page.read_text(encoding="utf-8")
    assert i18n.identity_errors(english, after, "labs/a.py") == [] and i18n.stale("th", tmp_path) == []
    assert after.endswith(thai.replace("x.sum()", "x.mean()").replace('print("done")', 'print("done")\nprint("again")'))


ENGLISH_LAB = """\
# %% [markdown]
# # Lab: a lab
#
# Some prose about a token.
#
# ```text
# a block in a markdown cell
# ```

# %%
import torch

x = torch.ones(2)  # two ones
print(x.sum())

# %% [markdown]
# ## More

# %%
print("done")
"""


@pytest.mark.parametrize(("change", "says"), [
    (("two ones", "สองตัว"), None),  # a comment
    (("Some prose about a token.", "ร้อยแก้ว token"), None),  # a markdown cell
    (("x.sum()", "x.mean()"), "docs/th/labs/a.py:10: block 2 (python): its code differs at token 17: 'mean' where English has 'sum'"),
    (('"done"', '"เสร็จ"'), "docs/th/labs/a.py:19: block 3 (python): its code differs at token 3"),
    (("a block in", "บล็อกใน"), "docs/th/labs/a.py:6: block 1 (text): it differs from the English block (at its line 1)"),
    (("# %%\nprint", "# %% [markdown]\n# print"), "docs/th/labs/a.py: 2 fenced blocks, the English page has 3"),
])
def test_a_translated_lab_holds_the_english_code_cells(change, says):
    errors = i18n.identity_errors(ENGLISH_LAB, ENGLISH_LAB.replace(*change), "docs/th/labs/a.py")
    assert [error[:len(says)] for error in errors] == ([says] if says else [])


def test_a_labs_prose_is_its_markdown_cells():
    prose = i18n.prose(ENGLISH_LAB.replace("two ones", "two tokens"), "labs/a.py").splitlines()
    assert [line for line in prose if line.strip()] == ["# Lab: a lab", "Some prose about a token.", "## More"]
    assert prose[3] == "Some prose about a token."  # in its line: an error names the page's line


def test_a_lab_records_the_english_lab_it_follows_in_its_jupytext_header(tmp_path):
    import jupytext

    (tmp_path / "docs" / "th" / "labs").mkdir(parents=True)
    (tmp_path / "docs" / "labs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        "nav:\n  - labs/a.py\nextra:\n  alternate:\n    - {lang: en}\n    - {lang: th}\n")
    (tmp_path / "docs" / "labs" / "a.py").write_text(ENGLISH_LAB, encoding="utf-8")
    translated = tmp_path / "docs" / "th" / "labs" / "a.py"
    translated.write_text(ENGLISH_LAB.replace("Some prose", "ร้อยแก้ว"), encoding="utf-8")
    assert i18n.stale("th", tmp_path) == ["labs/a.py"]
    digest = i18n.stamp(translated, tmp_path)
    text = translated.read_text(encoding="utf-8")
    assert text.startswith(f'# ---\n# jupyter:\n#   translated_from: "{digest}"\n# ---\n\n# %% [markdown]\n')
    assert i18n.stale("th", tmp_path) == [] and i18n.recorded_hash(text, "labs/a.py") == digest
    notebook = jupytext.reads(text, fmt="py:percent")  # the header is metadata, not a cell
    assert [cell.cell_type for cell in notebook.cells] == ["markdown", "code", "markdown", "code"]
    assert notebook.metadata["translated_from"] == digest
    assert i18n.identity_errors(ENGLISH_LAB, text, "labs/a.py") == []
    (tmp_path / "docs" / "labs" / "a.py").write_text(ENGLISH_LAB + "\n# %%\nprint(2)\n", encoding="utf-8")
    assert i18n.stale("th", tmp_path) == ["labs/a.py"]
    i18n.stamp(translated, tmp_path)
    assert i18n.stale("th", tmp_path) == [] and translated.read_text(encoding="utf-8").count(i18n.HASH_KEY) == 1


def test_a_stale_page_says_so_and_links_the_english_page(monkeypatch):
    monkeypatch.setattr(mkdocs_hooks.Build, "language", "th")
    monkeypatch.setattr(mkdocs_hooks.Build, "strings", i18n.strings("th", ROOT))
    current = i18n.english_hash("attention-without-weights.md", ROOT)
    page = type("Page", (), {"file": type("File", (), {"src_uri": "attention-without-weights.md"}),
                             "url": "attention-without-weights/", "meta": {i18n.HASH_KEY: current}})
    content = "<h1>ก</h1><p>ข</p>"
    assert mkdocs_hooks.stale_notice(content, page) == content
    page.meta = {i18n.HASH_KEY: "000000000000"}
    stale = mkdocs_hooks.stale_notice(content, page)
    assert stale.startswith("<h1>ก</h1><div class=\"admonition info attnlit-stale\" data-search-exclude>")
    assert '<a href="../../attention-without-weights/" hreflang="en">' in stale


def test_a_stale_lab_says_so_from_its_jupytext_header(monkeypatch, tmp_path):
    """A lab has no front matter: the hook reads the hash in the lab's file."""
    monkeypatch.setattr(mkdocs_hooks.Build, "language", "th")
    monkeypatch.setattr(mkdocs_hooks.Build, "strings", i18n.strings("th", ROOT))
    lab = i18n.docs_dir("th", ROOT) / "labs" / "why-scale.py"
    # The lab's script: its file's path is the notebook it renders (tools/labs.py).
    page = SimpleNamespace(file=SimpleNamespace(src_uri="labs/why-scale.py", script=lab),
                           url="labs/why-scale/", meta={})
    content = "<h1>ก</h1><p>ข</p>"
    assert mkdocs_hooks.stale_notice(content, page) == content
    old = tmp_path / "why-scale.py"
    old.write_text(re.sub(r'translated_from: "\w+"', 'translated_from: "000000000000"',
                          lab.read_text(encoding="utf-8")), encoding="utf-8")
    page.file.script = old
    stale = mkdocs_hooks.stale_notice(content, page)
    assert stale.startswith("<h1>ก</h1><div class=\"admonition info attnlit-stale\" data-search-exclude>")
    assert '<a href="../../../labs/why-scale/" hreflang="en">' in stale


@pytest.mark.parametrize(("heading", "slug"), [
    ("12. FlashAttention: exact attention without the n × n matrix",
     "12-flashattention-exact-attention-without-the-n-n-matrix"),
    ("Step 1: attention scores from dot products", "step-1-attention-scores-from-dot-products"),
    ("ขั้นที่ 1: คะแนน attention จาก dot product", "ขั้นที่-1-คะแนน-attention-จาก-dot-product"),
    ("Bước 1: điểm attention từ tích vô hướng", "bước-1-điểm-attention-từ-tích-vô-hướng"),
])
def test_anchors_keep_every_letter_with_its_marks(heading, slug):
    assert mkdocs_hooks.slugify(heading, "-") == slug


def test_english_anchors_are_markdowns_own():
    """Every English heading keeps the anchor it had before the slugify of the translations."""
    from markdown.extensions.toc import slugify

    headings = [line.lstrip("#").strip() for path in site_config.english_docs(ROOT)
                for line in i18n.prose(path.read_text(encoding="utf-8")).splitlines() if line.startswith("#")]
    assert len(headings) > 100
    assert [mkdocs_hooks.slugify(h, "-") for h in headings] == [slugify(h, "-") for h in headings]


def test_thai_search_words_are_split():
    text = i18n.segmented("เวกเตอร์บริบทของ token ความยาว", "th")
    assert text == "เวกเตอร์\u200bบริบท\u200bของ token ความ\u200bยาว"
    assert i18n.segmented("vector ngữ cảnh", "vi") == "vector ngữ cảnh"


@pytest.mark.parametrize(("language", "anchor"), [("th", "อินพุตของ-layer"), ("vi", "đầu-vào-của-một-tầng")])
def test_a_link_into_a_translated_page_takes_its_translated_anchor(monkeypatch, language, anchor):
    """Translators keep English anchors in links; the n-th heading of a page is the n-th of its
    translation, so the build finds the translated one."""
    monkeypatch.setattr(mkdocs_hooks.Build, "language", language)
    line = "see [the input](checking-inputs.md#the-input-of-a-layer)."
    assert mkdocs_hooks.english_links(line, "dropout.md") == f"see [the input](checking-inputs.md#{anchor})."


def docs_in(monkeypatch, language: str, folder: Path) -> None:
    """Let `folder` be a language's docs folder: a page that is only there, or missing there."""
    docs_dir = i18n.docs_dir
    monkeypatch.setattr(i18n, "docs_dir", lambda code, root=ROOT: folder if code == language else docs_dir(code, root))


def test_on_a_page_not_translated_the_selector_says_so_and_leads_to_the_languages_first_page(monkeypatch, tmp_path):
    """Every page is translated today; the next English page is not, until a translator comes.
    Its selector (overrides/partials/alternate.html, rendered here as Material would) offers
    each language's first page, with the language's note."""
    import jinja2

    monkeypatch.setattr(mkdocs_hooks.Build, "language", i18n.ENGLISH)
    monkeypatch.setattr(mkdocs_hooks.Build, "alternate", site_config.read_config(ROOT)["extra"]["alternate"])
    translated = mkdocs_hooks.alternates("attention-without-weights.md", "attention-without-weights/")
    assert [entry["missing"] for entry in translated] == [None] * (1 + len(LANGUAGES))
    (tmp_path / "a-new-chapter.md").write_text("# A new chapter\n", encoding="utf-8")
    docs_in(monkeypatch, i18n.ENGLISH, tmp_path)
    entries = mkdocs_hooks.alternates("a-new-chapter.md", "a-new-chapter/")
    assert [entry["lang"] for entry in entries] == [i18n.ENGLISH, *LANGUAGES]
    assert entries[0] == {"name": "English", "lang": "en", "href": "./", "current": True, "missing": None}
    for entry, language in zip(entries[1:], LANGUAGES):
        assert entry["href"] == f"../{language}/{mkdocs_hooks.page_url(i18n.home(language, ROOT))}"
        assert entry["missing"] == i18n.strings(language, ROOT)["untranslated"] and not entry["current"]
    partial = (ROOT / "overrides" / "partials" / "alternate.html").read_text(encoding="utf-8")
    environment = jinja2.Environment(loader=jinja2.DictLoader({"alternate.html": partial, ".icons/material/translate.svg": "<svg></svg>"}))
    shown = environment.get_template("alternate.html").render(
        attnlit_languages=entries, lang=SimpleNamespace(t=lambda key: "Select language"),
        config=SimpleNamespace(theme=SimpleNamespace(icon=SimpleNamespace(alternate=None))))
    links = re.findall(r'<a href="([^"]*)" hreflang="(\w+)"[^>]*>\s*(.*?)\s*</a>', shown, re.DOTALL)
    assert links == [(entry["href"], entry["lang"], entry["name"] + (f"<small>{entry['missing']}</small>" if entry["missing"] else ""))
                     for entry in entries]


def test_a_link_to_a_page_not_translated_leads_to_the_english_page(monkeypatch, tmp_path):
    """Marked as English (tools/mkdocs_hooks.py: english_links, then on_page_content)."""
    docs_in(monkeypatch, "th", tmp_path)
    monkeypatch.setattr(mkdocs_hooks.Build, "language", "th")
    monkeypatch.setattr(mkdocs_hooks.Build, "strings", i18n.strings("th", ROOT))
    line = "see [the lab](labs/why-scale.py) and [chapter 4](scaling.md)."
    (tmp_path / "scaling.md").write_text("# Scaling\n", encoding="utf-8")  # translated; the lab is not
    marked = mkdocs_hooks.english_links(line, "index.md")
    assert marked == f"see [the lab]({mkdocs_hooks.TO_ENGLISH}labs/why-scale.py) and [chapter 4](scaling.md)."
    page = SimpleNamespace(file=SimpleNamespace(src_uri="index.md"), url="", meta={i18n.HASH_KEY: i18n.english_hash("index.md", ROOT)})
    monkeypatch.setattr(mkdocs_hooks, "stale_notice", lambda content, page: content)
    html = mkdocs_hooks.on_page_content(f'<p>see <a href="{mkdocs_hooks.TO_ENGLISH}labs/why-scale.py">the lab</a></p>', page)
    assert html == '<p>see <a href="../labs/why-scale/" hreflang="en">the lab</a> (ภาษาอังกฤษ)</p>'


def test_sync_keeps_every_line_of_a_translated_comment_above_a_changed_line():
    """A comment the translation spreads over more lines than the English one stays whole when the
    code under it changes (it once lost its second line); a new English line is carried too."""
    translated = "```python\n# บรรทัดหนึ่ง\n# บรรทัดสอง\nx = 1\n```\n"
    english = "```python\n# one line\nx = 2\nprint(x)\n```\n"
    text, changed = i18n.synced(english, translated, "a.md")
    assert changed == ["block 1 (python, line 1)"]
    assert text == "```python\n# บรรทัดหนึ่ง\n# บรรทัดสอง\nx = 2\nprint(x)\n```\n"
    assert i18n.identity_errors(english, text, "a.md") == []
