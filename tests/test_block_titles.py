"""Titles on tangled blocks and asserted outputs (tools/block_titles.py), as the site renders them."""

import re

from site_markdown import rendered
from tangle import OUTPUT

TANGLED_AND_PRINTED = "\n".join([
    '!!! note "In a box"',
    "",
    "    <!-- tangle: attnlit/toy.py -->",
    "    ```python",
    "    x = 1",
    "    ```",
    "",
    OUTPUT,
    "```text",
    "1",
    "```",
])


def titles(html: str) -> list[str]:
    return re.findall(r'<span class="filename">([^<]*)</span>', html)


def test_a_tangled_block_is_titled_with_its_module_and_an_output_with_the_pages_word():
    assert titles(rendered(TANGLED_AND_PRINTED)) == ["attnlit/toy.py", "Output"]
    assert titles(rendered(TANGLED_AND_PRINTED, "th")) == ["attnlit/toy.py", "เอาต์พุต"]
    assert "tangle:" not in rendered(TANGLED_AND_PRINTED)  # the title says what the marker said


def test_lines_inside_blocks_that_look_like_markers_are_left_alone():
    markdown = "\n".join([
        "<!-- tangle: attnlit/toy.py -->",
        "```python",
        'print("<!-- tangle: attnlit/toy.py -->")',
        'print("```python")',
        "```",
        OUTPUT,
        "```text",
        "<!-- tangle: attnlit/toy.py -->",
        "```python",
        "```",
        "",
        "After.",
    ])
    html = rendered(markdown)
    assert titles(html) == ["attnlit/toy.py", "Output"]
    assert html.count("&lt;!-- tangle: attnlit/toy.py --&gt;") == 2  # printed, as it was


def test_a_marker_above_no_python_block_adds_no_title():
    """tools/tangle.py says what is wrong with it; the page shows the block as it is."""
    html = rendered("<!-- tangle: attnlit/toy.py -->\n```text\nx\n```\n")
    assert titles(html) == []
