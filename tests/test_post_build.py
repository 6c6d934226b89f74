"""The build's last step over the whole site (tools/post_build.py): files beside pages, the
scripts served light. (The search index's Thai words: tests/test_site.py, on the built site.)"""

import pytest

import post_build


def test_the_scripts_are_served_without_comment_lines_and_indentation():
    source = "// what it does\n(() => {\n  // why\n  const a = `${1}`; // kept\n\n})();\n"
    assert post_build.stripped_script(source, "x.js") == "(() => {\nconst a = `${1}`; // kept\n})();\n"
    with pytest.raises(ValueError, match="x.js: a template literal spans lines"):
        post_build.stripped_script("const a = `one\n  // two`;\n", "x.js")


def test_a_file_the_cache_lost_is_named_and_a_name_that_is_a_path_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("ATTNLIT_CACHE", str(tmp_path / "cache"))
    page = tmp_path / "site" / "chapter" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(f"<p>a</p>\n{post_build.beside('x.json', 'site-files', 'f00')}\n", encoding="utf-8")
    with pytest.raises(FileNotFoundError, match="chapter/index.html: x.json should be .*site-files"):
        post_build.finish(tmp_path / "site", "en")
    assert post_build.main([str(tmp_path / "site"), "en"]) == 1
    with pytest.raises(ValueError, match="a file beside a page needs a plain name, got '../x'"):
        post_build.beside("../x", "site-files", "f00")


def test_the_english_step_leaves_the_translations_sites_under_it_alone(tmp_path, monkeypatch):
    """site/th/ lies under site/: the English build's last step does not touch it."""
    monkeypatch.setenv("ATTNLIT_CACHE", str(tmp_path / "cache"))
    page = tmp_path / "site" / "th" / "chapter" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(post_build.beside("x.json", "site-files", "f00"), encoding="utf-8")
    post_build.finish(tmp_path / "site", "en")  # the Thai step would fail: its cache has no f00
    with pytest.raises(FileNotFoundError):
        post_build.finish(tmp_path / "site" / "th", "th")
