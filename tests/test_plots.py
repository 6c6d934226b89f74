"""The drawing helpers of attnlit.plots: what they draw, and the inputs they refuse."""

import io
import re
from pathlib import Path

import pytest
import matplotlib
import torch
from matplotlib.colors import to_hex
from matplotlib.figure import Figure

from attnlit.plots import flow, heatmap, style_classes, to_svg

WORDS = ["a", "b", "c"]
TEXT = re.compile(r'<text (style|class)="([^"]*)" x="[\d.-]+" y="([\d.-]+)"')


def text_sizes(svg: str) -> list[tuple[str, str]]:
    """(font size, baseline y) of every <text>, its style inline or in a class."""
    classes = dict(re.findall(r"\.([\w-]+)\{([^}]*)\}", svg))
    return [(re.search(r"font-size: ?([\d.]+)px", classes[value] if kind == "class" else value)[1], y)
            for kind, value, y in TEXT.findall(svg)]
FUTURE = torch.triu(torch.ones(3, 3, dtype=torch.bool), diagonal=1)


def test_flow_arrows_stop_at_the_boxes():
    fig = Figure(figsize=(4, 1), layout="constrained")
    ax = fig.subplots()
    flow(ax, [(0, 0, "left box"), (2, 0, "right box")], links=[(0, 1)], highlight={1})
    fig.draw_without_rendering()
    boxes = [text.get_bbox_patch() for text in ax.texts if text.get_bbox_patch()]
    left, right = (box.get_window_extent() for box in boxes)
    (arrow,) = [text.arrow_patch for text in ax.texts if getattr(text, "arrow_patch", None)]
    path = arrow.get_path().transformed(arrow.get_transform())
    xs = [vertex[0] for vertex, code in path.iter_segments() if code != path.CLOSEPOLY]
    assert left.x1 <= min(xs) and max(xs) <= right.x0  # not under the boxes' text
    assert max(xs) - min(xs) > 0.5 * (right.x0 - left.x1)  # but it spans the gap
    assert "#000000" not in to_svg(fig)  # boxes and arrows are ink: currentColor


@pytest.mark.parametrize(
    ("boxes", "links", "highlight", "error", "message"),
    [
        ([(0, 0)], (), (), ValueError, r"boxes\[0\] must be \(x, y, text\), got \(0, 0\)"),
        ([(0, 0, "a"), "xyz"], (), (), ValueError, r"boxes\[1\] must be \(x, y, text\)"),
        ([(0, 0, 1.5)], (), (), TypeError, r"boxes\[0\] text must be a str, got 1.5"),
        ([(0, 0, "a")], [(0,)], (), ValueError, r"links\[0\] must be \(i, j\), got \(0,\)"),
        ([(0, 0, "a"), (1, 0, "b")], [(0, 2)], (), ValueError,
         r"links refers to box 2, but len\(boxes\) is 2"),
        ([(0, 0, "a")], [(-1, 0)], (), ValueError, r"links refers to box -1"),
        ([(0, 0, "a")], (), {3}, ValueError, r"highlight refers to box 3, but len\(boxes\) is 1"),
    ],
)
def test_flow_refuses_bad_input(boxes, links, highlight, error, message):
    with pytest.raises(error, match=message):
        flow(Figure().subplots(), boxes, links, highlight)


def covers(patch) -> set[tuple[int, int]]:
    """The cells (row, col) of a 3 x 3 heatmap that a patch covers."""
    path = patch.get_path()
    return {(row, col) for row in range(3) for col in range(3) if path.contains_point((col, row))}


def test_heatmap_leaves_masked_cells_blank_and_hatched():
    ax = Figure().subplots()
    heatmap(ax, torch.full((3, 3), 0.5), WORDS, masked=FUTURE)
    numbers = {(round(t.get_position()[1]), round(t.get_position()[0])) for t in ax.texts}
    assert numbers == {(row, col) for row in range(3) for col in range(row + 1)}
    (hatched,) = [patch for patch in ax.patches if patch.get_hatch()]
    (grey,) = [patch for patch in ax.patches if patch.get_gid() == "attnlit-masked"]
    future = {(row, col) for row in range(3) for col in range(row + 1, 3)}
    assert covers(hatched) == covers(grey) == future


def test_heatmap_without_mask_writes_every_cell():
    ax = Figure().subplots()
    heatmap(ax, torch.full((3, 3), 0.5), WORDS)
    assert len(ax.texts) == 9 and not ax.patches


def test_heatmap_refuses_a_mask_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"masked must have shape \(3, 3\), got \(2, 3\)"):
        heatmap(Figure().subplots(), torch.full((3, 3), 0.5), WORDS, masked=FUTURE[:2])


def test_svg_text_stays_inside_the_figure():
    """Two heatmaps and a legend below: a first layout pass put the titles above the top."""
    fig = Figure(figsize=(8, 4.3), layout="constrained")
    for ax in fig.subplots(1, 2):
        heatmap(ax, torch.full((6, 6), 0.5), [*WORDS, *"def"], title="a title")
    ax.plot([], [], label="a line")
    fig.legend(loc="outside lower center")
    texts = text_sizes(to_svg(fig))
    assert len(texts) > 72  # every cell, tick label and title
    cut = [(size, y) for size, y in texts if float(y) < 0.7 * float(size)]
    assert not cut, f"text above the top edge (font size, baseline): {cut}"


def test_flow_keeps_every_frame_inside_the_figure():
    """Constrained layout fits a box's text; the frame around it must fit too."""
    fig = Figure(figsize=(3, 1.5), layout="constrained")
    ax = fig.subplots()  # the texts reach past the axes: the layout must fit them
    flow(ax, [(-1, 0, "a wide box on the left"), (1, 0, "a wide box on the right"),
              (0, 1, "a box on top")], links=[(2, 0), (2, 1)])
    fig.draw_without_rendering()
    frames = [text.get_bbox_patch().get_window_extent() for text in ax.texts
              if text.get_bbox_patch()]
    edge = fig.bbox
    outside = [frame.bounds for frame in frames
               if frame.x0 < edge.x0 or frame.y0 < edge.y0
               or frame.x1 > edge.x1 or frame.y1 > edge.y1]
    assert not outside, f"frames beyond the figure {edge.bounds}: {outside}"


def test_svg_keeps_every_drawn_element_and_drops_bare_groups():
    fig = Figure(figsize=(3, 2), layout="constrained")
    ax = fig.subplots()
    heatmap(ax, torch.rand(3, 3), ["a", "b", "c"], title="t",
                  masked=torch.ones(3, 3, dtype=torch.bool).triu(1))
    from attnlit.plots import scale_as_cells
    buffer = io.StringIO()  # the image as cells (a path per step), as to_svg draws it
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "x"}), scale_as_cells(fig):
        fig.savefig(buffer, format="svg")
    raw, svg = buffer.getvalue(), to_svg(fig, name="x")
    drawn = r"<(?:path|text|image|use|rect|line|polyline|polygon|circle)\b"
    assert len(re.findall(drawn, svg)) == len(re.findall(drawn, raw))
    assert not re.search(r'<g id="[^"]*">', svg), "a group that only carries a name"
    for ref in set(re.findall(r'(?:href="|url\()#([^")]+)', svg)):
        assert f'id="{ref}"' in svg, f"#{ref} is used but gone"
    assert "<metadata" not in svg and 'xmlns:dc' not in svg


def test_repeated_styles_become_classes_named_after_their_figure():
    svg = ('<svg><style>text{a:b}</style><text style="font-size:7px">1</text>'
           '<text style="font-size:7px">2</text><path style="fill:none"/></svg>')
    one, other = style_classes(svg, "a.md:1"), style_classes(svg, "a.md:2")
    stem = re.search(r'class="(\w+)0"', one)[1]
    assert one == (f'<svg><style>text{{a:b}}.{stem}0{{font-size:7px}}</style><text class="{stem}0">1</text>'
                   f'<text class="{stem}0">2</text><path style="fill:none"/></svg>')
    assert re.search(r'class="(\w+)0"', other)[1] != stem, "two figures of a page, one class name"


def test_a_figures_style_reaches_only_its_own_elements():
    # An inline <svg>'s <style> applies to the whole page: a rule for `*` or for
    # `text` would restyle every element of a chapter, and override the
    # presentation attributes of other drawings (a widget's round line caps).
    fig = Figure(figsize=(3, 2), layout="constrained")
    ax = fig.subplots()
    heatmap(ax, torch.rand(3, 3), ["a", "b", "c"], title="t")
    ax.plot([0, 1], [0, 1])
    svg = to_svg(fig, name="x")
    rules = "".join(re.findall(r"<style[^>]*>(.*?)</style>", svg, re.S))
    selectors = re.findall(r"([^{}]+)\{[^}]*\}", rules)
    assert selectors and all(re.fullmatch(r"\.s[0-9a-f]{4}\d+", s) for s in selectors), selectors
    root = re.match(r"<svg [^>]*>", svg)[0]  # what those rules set, the root passes down
    for attribute in ('stroke-linejoin="round"', 'stroke-linecap="butt"', "font-family=\"'DejaVu Sans'"):
        assert attribute in root, root


def test_panels_keep_their_ids_apart():
    """Two panels cropped from one figure have the same clip boxes: their ids must differ."""
    fig = Figure(figsize=(6, 3), layout="constrained")
    for panel in fig.subfigures(1, 2):
        panel.subplots().plot([0, 1], [0, 1], "o")
    svg = to_svg(fig, name="x")
    assert svg.startswith('<div class="attnlit-panels">') and svg.count("<svg ") == 2
    ids = re.findall(r' id="([^"]+)"', svg)
    assert len(ids) > 2 and len(ids) == len(set(ids)), ids
    for ref in set(re.findall(r'(?:href="|url\()#([^")]+)', svg)):
        assert f'id="{ref}"' in svg, f"#{ref} is used but gone"


def test_a_panel_keeps_what_it_draws_beyond_its_subfigure():
    """A 3-D axes' labels reach past its subfigure (constrained layout does not see them):
    the panel is cropped to what it draws, not cut at the subfigure's edge."""
    fig = Figure(figsize=(6.3, 3.6), layout="constrained")
    left, right = fig.subfigures(1, 2, width_ratios=[3.7, 2.6])
    space = left.add_subplot(projection="3d")
    space.set(xlabel="x", ylabel="depth", zlabel="height")
    right.subplots()
    svg = to_svg(fig, name="x")
    fig.draw_without_rendering()
    reach = left.get_tightbbox().x1 / fig.dpi * 72  # points
    assert reach > left.bbox.x1 / fig.dpi * 72 + 5  # it does reach past the edge
    widths = [float(width) for width in re.findall(r'<svg [^>]*width="([\d.]+)pt"', svg)]
    assert widths[0] >= reach - 0.5, (widths, reach)


def test_a_figure_of_subfigures_draws_nothing_itself():
    fig = Figure(layout="constrained")
    for panel in fig.subfigures(1, 2):
        panel.subplots().plot([0, 1], [0, 1], label="a line")
    fig.suptitle("a title across both")
    with pytest.raises(ValueError, match="found Text on the figure itself"):
        to_svg(fig)


# Heatmaps follow the palette (issue 34): each cell's fill, and the colour of its number, are
# variables of the page's stylesheet, one scale per palette; masked cells have a fill of their own.
CSS = (Path(__file__).resolve().parent.parent / "docs" / "stylesheets" / "extra.css").read_text(encoding="utf-8")
PALETTES = ("default", "slate")
SLATE = "#1e2129"  # Material's slate background: hsl(225deg, 15%, 14%)


def declared(scheme: str) -> dict[str, str]:
    """The --attnlit-* variables that extra.css sets for one palette."""
    rules = re.findall(rf'\[data-md-color-scheme="{scheme}"\]\s*\{{([^}}]*)\}}', CSS)
    return dict(re.findall(r"--(attnlit-[\w-]+):\s*([^;]+);", "".join(rules)))


def test_a_heatmaps_cells_and_numbers_take_the_palettes_colours():
    from attnlit.plots import LEVELS, level
    fig = Figure(figsize=(3, 3), layout="constrained")
    weights = torch.tensor([[1.0, 0.0, 0.0], [0.37, 0.63, 0.0], [0.2, 0.3, 0.5]])
    heatmap(fig.subplots(), weights, WORDS, masked=FUTURE)
    svg = to_svg(fig, name="x")
    assert "<image" not in svg, "cells as a raster image, which CSS cannot recolour"
    classes = dict(re.findall(r"\.([\w-]+)\{([^}]*)\}", svg))
    styles = [classes[value] if kind == "class" else value
              for kind, value in re.findall(r' (class|style)="([^"]*)"', svg) if kind == "style" or value in classes]
    fills = {m[1] for style in styles for m in re.finditer(r"fill:var\(--attnlit-(w\d+|t\d+|masked),", style)}
    shown = [level(v) for row, col, v in ((r, c, weights[r, c].item()) for r in range(3) for c in range(3))
             if not FUTURE[row, col]]
    assert {f"w{k}" for k in shown} | {"masked"} <= fills
    assert {f"t{k}" for k in shown} <= fills
    assert level(0.0) == 0 and level(1.0) == LEVELS and level(2.0) == LEVELS and level(0.75, vmax=1.5) == LEVELS // 2


def test_the_stylesheet_holds_the_scales_of_attnlit_plots():
    from attnlit.plots import LEVELS, MASKED, SCALE, text_on
    for scheme in PALETTES:
        seen = declared(scheme)
        assert len(SCALE[scheme]) == LEVELS + 1
        for k, fill in enumerate(SCALE[scheme]):
            assert seen.get(f"attnlit-w{k}") == fill, (scheme, k)
            assert to_hex(seen.get(f"attnlit-t{k}", "none")) == text_on(fill), (scheme, k)
        assert seen.get("attnlit-masked") == MASKED[scheme]


def test_cell_numbers_meet_wcag_aa_and_masked_cells_look_unlike_any_weight():
    from attnlit.plots import MASKED, SCALE, contrast, text_on
    for scheme, page in (("default", "#ffffff"), ("slate", SLATE)):
        for k, fill in enumerate(SCALE[scheme]):
            assert contrast(text_on(fill), fill) >= 4.5, (scheme, k, fill)
        assert contrast(MASKED[scheme], page) >= 1.3, scheme  # the grey is seen on the page
        assert contrast(MASKED[scheme], SCALE[scheme][0]) >= 1.3, scheme  # and beside weight 0
        grey = MASKED[scheme].lstrip("#")
        assert grey[0:2] == grey[2:4] == grey[4:6], "a neutral grey: no weight is grey"
    assert contrast(SCALE["slate"][0], SLATE) < 1.15, "weight 0 is quiet on the dark page"
    assert contrast(SCALE["slate"][-1], SLATE) > 9, "and weight 1 stands out"


def test_an_image_in_blues_is_drawn_as_cells_and_the_figure_left_as_it_was():
    """Chapter 10 draws its heads with imshow: to_svg draws them as cells too, for that
    drawing only; an image in another colour map stays an image."""
    fig = Figure(figsize=(4, 2), layout="constrained")
    blues, other = fig.subplots(1, 2)
    values = torch.rand(4, 4, generator=torch.Generator().manual_seed(0)).numpy()
    image = blues.imshow(values, cmap="Blues", vmin=0, vmax=1, interpolation="none")
    other.imshow(values, cmap="viridis")
    limits = blues.get_xlim(), blues.get_ylim()
    svg = to_svg(fig, name="x")
    assert svg.count("<image") == 1, "the viridis image only"
    assert len(re.findall(r"fill:var\(--attnlit-w\d+,#[0-9a-f]{6}\)", svg)) >= 2
    assert image.get_visible() and not blues.patches and not blues.artists
    assert (blues.get_xlim(), blues.get_ylim()) == limits
