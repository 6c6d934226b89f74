"""Files of the site built by a page's code (tools/site_files.py), then written beside the page by
the build's last step (tools/post_build.py)."""

import json

import pytest

import post_build
import site_files
from site_markdown import rendered

SITE_FILE_PAGE = """Text.

<!-- site-file: {name} -->
```python
print("made")
{code}
```

More text.
"""


@pytest.fixture(autouse=True)
def cold(tmp_path, monkeypatch):
    """A cache of its own: each test builds anew."""
    monkeypatch.setenv("ATTNLIT_CACHE", str(tmp_path / "cache"))


@pytest.mark.parametrize("name, code, written", [
    ("weights.bin", 'data = bytes([0, 255]) + "é".encode()', bytes([0, 255, 0xc3, 0xa9])),
    ("reference.json", 'data = {"cases": [{"ids": [1, 2], "x": 0.5}]}', b'{"cases":[{"ids":[1,2],"x":0.5}]}'),
])
def test_a_site_file_block_is_shown_and_its_data_written_beside_its_page(tmp_path, name, code, written):
    html = rendered(SITE_FILE_PAGE.format(name=name, code=code))
    assert f'<span class="filename">writes {name}, beside this page, at build time</span>' in html
    assert "made" in html and "site-file:" not in html  # the block is shown, its marker is its title
    page = tmp_path / "site" / "a" / "chapter" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_text(html, encoding="utf-8")
    post_build.finish(tmp_path / "site", "en")
    assert (page.parent / name).read_bytes() == written
    assert sorted(path.name for path in page.parent.iterdir()) == sorted(["index.html", name])
    assert "attnlit-beside" not in page.read_text(encoding="utf-8")


def test_a_site_file_is_built_once_for_every_language_whatever_its_comments_say(tmp_path):
    """A translation's block is the English block, its comments translated: not run again."""
    runs = tmp_path / "runs"
    code = (f"import pathlib\nrun = pathlib.Path({str(runs)!r})  # {{comment}}\n"
            "run.write_text(run.read_text() + 'x' if run.exists() else 'x')\ndata = b'1'")
    rendered(SITE_FILE_PAGE.format(name="a.bin", code=code.format(comment="counts the runs")))
    html = rendered(SITE_FILE_PAGE.format(name="a.bin", code=code.format(comment="นับจำนวนครั้ง")), "th")
    assert runs.read_text() == "x"
    assert "เขียน a.bin ไว้ข้างหน้านี้ตอน build" in html.replace("\u2060", "").replace("\u200b", " ")


@pytest.mark.parametrize("code, message", [
    ("x = 1", "ValueError: the block must leave the file's contents in `data`"),
    ('data = [float("nan")]', "ValueError: Out of range float values are not JSON"),
    ("data = 1 / 0", "ZeroDivisionError: division by zero"),
])
def test_a_site_file_block_that_fails_fails_the_build(code, message):
    with pytest.raises(ValueError, match="out.json failed to build") as error:
        rendered(SITE_FILE_PAGE.format(name="out.json", code=code))
    assert message in str(error.value)



def test_a_site_file_computes_on_one_thread_whatever_the_builders_cores():
    """As a figure does (tests/test_figures.py): a page's numbers must not depend on the cores."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        rendered(SITE_FILE_PAGE.format(name="a.json", code="import torch\ndata = {'threads': torch.get_num_threads()}"))
        assert torch.get_num_threads() == 2  # given back
    finally:
        torch.set_num_threads(before)
    folder = site_files.cache(site_files.KIND)
    (key,) = [path for path in folder.iterdir() if path.suffix != ".lock"]  # once's lock beside it
    assert json.loads(key.read_bytes()) == {"threads": 1}
