"""Chapter 13's behaviours of heads: each behaviour's keys, read off the bytes, and the scores."""

import pytest
import torch

from attnlit.text import encode
from attnlit.textgpt import TextGPT
from attnlit.gpt import ablate
from attnlit.textheads import (BEHAVIOURS, BYTE_KINDS, ablation_costs, behaviour_keys, behaviour_scores,
                                byte_kinds, byte_losses, held_out_windows, last_where)

TEXT = "ALL:\nFair is foul, and foul is fair"


def keys_of(name: str, position: int) -> list[str]:
    keys = behaviour_keys(encode(TEXT).unsqueeze(0))[name]
    return [f"{j}{TEXT[j]}" for j in keys[0, position].nonzero().flatten().tolist()]


@pytest.mark.parametrize("name, position, expected", [
    ("previous byte", 5, ["4\n"]), ("previous byte", 0, []),
    ("start of word", 7, ["5F"]), ("start of word", 5, []),      # a word's first letter has none
    ("start of word", 25, ["23f"]), ("start of word", 9, []),    # nor has a space
    ("last space", 14, ["12 "]), ("last space", 7, ["4\n"]), ("last space", 3, []),
    ("start of line", 25, ["5F"]), ("start of line", 5, []),     # the line's first byte has none
    ("same byte", 23, ["13f"]), ("same byte", 7, []),
    ("repeat", 24, ["15u"]), ("repeat", 25, ["16l"]), ("repeat", 23, []),  # after " fo": "u"
])
def test_each_behaviour_names_the_keys_its_definition_says(name, position, expected):
    assert keys_of(name, position) == expected


def test_last_where_finds_the_last_set_position_at_or_before_each():
    flags = torch.tensor([[False, True, False, False, True, False]])
    assert last_where(flags).tolist() == [[-1, 1, 1, 1, 4, 4]]


def test_a_head_that_attends_only_to_the_byte_before_scores_one_there():
    """Scores are attention mass on the keys: a model whose every head looks at the byte before
    (forced through the dropout hook that attention_weights reads) scores 1 on previous byte."""
    torch.manual_seed(0)
    model = TextGPT(context_length=16, d_model=8, num_heads=2, num_layers=1).eval()
    n = 16
    before = torch.zeros(n, n)
    before[0, 0] = 1.0
    before[torch.arange(1, n), torch.arange(n - 1)] = 1.0
    model.trf_blocks[0].att.dropout.register_forward_hook(lambda m, a, out: before.expand_as(out))
    ids = torch.randint(256, (3, n), generator=torch.Generator().manual_seed(1))
    scores, chance = behaviour_scores(model, ids)
    assert set(scores) == set(BEHAVIOURS) and scores["previous byte"].shape == (1, 2)
    assert torch.allclose(scores["previous byte"], torch.ones(1, 2))
    assert chance["previous byte"] == pytest.approx(sum(1 / (i + 1) for i in range(1, n)) / (n - 1))


def test_windows_of_the_held_out_plays_are_spread_and_bounded():
    windows = held_out_windows(4, 64)
    assert windows.shape == (4, 64) and windows.dtype == torch.long
    with pytest.raises(ValueError, match="windows must be positive, got 0"):
        held_out_windows(0)
    with pytest.raises(ValueError, match="windows must be 1 to"):
        held_out_windows(10**6)


def test_each_kind_of_next_byte_is_the_one_its_definition_says():
    rows = encode(TEXT).unsqueeze(0)                    # predictions of bytes 1 to the end
    kinds = byte_kinds(rows)
    assert set(kinds) == set(BYTE_KINDS) and kinds["every byte"].all()
    named = {name: "".join(TEXT[i + 1] if kinds[name][0, i] else "." for i in range(len(TEXT) - 1))
             for name in BYTE_KINDS}
    # Under each byte of "LL:\nFair is foul, and foul is fair", it or a dot.
    assert named["inside a word"] == "LL...air..s..oul...nd..oul..s..air"
    assert named["start of a word"] == "....F....i..f.....a...f....i..f..."
    assert named["copyable"] == "........................ul... f..."   # "u" after " fo", ...
    # Copyable, found the slow way: the byte after the same three bytes, earlier.
    slow = "".join(TEXT[i + 1] if any(TEXT[j - 3:j] == TEXT[i - 2:i + 1] and TEXT[j] == TEXT[i + 1]
                                      for j in range(3, i + 1)) else "." for i in range(len(TEXT) - 1))
    assert named["copyable"] == slow and slow.count(".") < len(slow) - 3


def test_a_head_that_writes_nothing_costs_nothing_when_switched_off():
    torch.manual_seed(0)
    model = TextGPT(context_length=16, d_model=8, num_heads=2, num_layers=2).eval()
    with torch.no_grad():
        model.trf_blocks[1].att.out_proj.weight[:, 4:] = 0.0   # head 1 of layer 1 writes zeros
    rows = torch.randint(256, (3, 17), generator=torch.Generator().manual_seed(1))
    costs = ablation_costs(model, rows)
    assert set(costs) == set(BYTE_KINDS) and costs["every byte"].shape == (2, 2)
    assert costs["every byte"][1, 1] == 0 and (costs["every byte"][0] != 0).all()
    base, kinds = byte_losses(model, rows), byte_kinds(rows)
    with ablate(model, [(0, 1)]):
        rise = byte_losses(model, rows) - base
    assert costs["every byte"][0, 1] == pytest.approx(rise.mean().item())
    # Each kind's cost is over its own bytes (some random bytes are a word's first letter).
    start = kinds["start of a word"]
    assert start.any() and costs["start of a word"][0, 1] == pytest.approx(rise[start].mean().item())
    assert costs["inside a word"].isnan().all() == (not kinds["inside a word"].any())  # none: NaN


@pytest.mark.parametrize("rows, error, message", [
    (torch.arange(5), ValueError, r"rows must have shape \(batch, num_tokens\), got \(5,\)"),
    (torch.zeros(2, 1, dtype=torch.long), ValueError, "rows must hold a byte and its target, got 1"),
    (torch.zeros(2, 5), TypeError, "rows must be a LongTensor"),
    ([[1, 2, 3]], TypeError, "rows must be a LongTensor"),
    (torch.tensor([[65, 300, 66]]), ValueError, r"rows holds token ids from 65 to 300, outside 0\.\.255"),
])
def test_windows_that_are_not_bytes_with_targets_are_refused(rows, error, message):
    model = TextGPT(context_length=4, d_model=8, num_heads=2, num_layers=1).eval()
    with pytest.raises(error, match=message):
        byte_kinds(rows)
    with pytest.raises(error, match=message):
        byte_losses(model, rows)


@pytest.mark.parametrize("ids, error, message", [
    ([[1, 2, 3]], TypeError, "ids must be a LongTensor"),
    (torch.tensor([[65, 300, 66]]), ValueError, r"ids holds token ids from 65 to 300, outside 0\.\.255"),
])
def test_behaviour_keys_names_its_argument_when_it_refuses_it(ids, error, message):
    with pytest.raises(error, match=message):
        behaviour_keys(ids)
