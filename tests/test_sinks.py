"""Chapter 14: the rolling cache, the attention with a fix, the streams, and their commands."""

import csv

import pytest
import torch

from attnlit.gpt import load_trained
from attnlit.sinks import (SinkAttention, SinkCache, SinkGPT, load_sink_gpt, recomputed_losses,
                           streamed_losses, where_weight_goes)
from attnlit.train import sinks as train_sinks
from attnlit.train import stream as train_stream

TINY = ["--steps", "4", "--batch", "2", "--context", "16", "--width", "16", "--heads", "2",
        "--layers", "1", "--warmup", "1", "--every", "2", "--threads", "1"]


def kv(token: float, tokens: int = 1) -> torch.Tensor:
    return torch.full((1, 1, tokens, 2), token)                      # (b, h, L, hd)


def test_a_full_cache_keeps_its_sinks_and_the_latest_and_counts_positions_inside_itself():
    cache = SinkCache(window=4, sinks=1)
    cache.update(kv(0.0, 3), kv(0.0, 3))                              # three at once, room left
    assert cache.seen == 3
    for token in (3.0, 4.0, 5.0):
        keys, values, positions = cache.update(kv(token), kv(token))
    assert keys[0, 0, :, 0].tolist() == [0.0, 3.0, 4.0, 5.0] and positions.tolist() == [0, 1, 2, 3]
    assert cache.seen == 3 and cache.nbytes == 2 * 4 * 2 * 4       # keys and values, float32
    without = SinkCache(window=3)
    for token in range(6):
        keys, _, _ = without.update(kv(float(token)), kv(float(token)))
    assert keys[0, 0, :, 0].tolist() == [3.0, 4.0, 5.0]


@pytest.mark.parametrize("window, sinks, error, message", [
    (0, 0, ValueError, "window must be positive, got 0"),
    (4, 4, ValueError, "sinks must be an integer 0 to window - 1 = 3, got 4"),
    (4, -1, ValueError, "sinks must be an integer 0 to window - 1 = 3, got -1"),
    (4, 1.0, ValueError, "sinks must be an integer 0 to window - 1 = 3, got 1.0"),
    (2.5, 0, TypeError, "window must be an integer, got 2.5"),
])
def test_a_cache_that_cannot_work_is_refused(window, sinks, error, message):
    with pytest.raises(error, match=message):
        SinkCache(window, sinks)


def test_a_full_cache_takes_one_token_at_a_time_and_a_window_no_more_than_it_holds():
    with pytest.raises(ValueError, match="a cache that must evict takes one token at a time: it holds 0 of 4, got 5"):
        SinkCache(4).update(kv(0.0, 5), kv(0.0, 5))
    cache = SinkCache(4, sinks=1)
    cache.update(kv(0.0, 4), kv(0.0, 4))
    with pytest.raises(ValueError, match="a cache that must evict takes one token at a time: it holds 4 of 4, got 2"):
        cache.update(kv(1.0, 2), kv(1.0, 2))
    with pytest.raises(ValueError, match="do not continue the cache's"):
        cache.update(torch.zeros(1, 2, 1, 2), torch.zeros(1, 2, 1, 2))


def test_the_model_passes_on_the_caches_own_refusal_before_its_own_count():
    """A full SinkCache holds `window` tokens; the model's check would count window - 1."""
    model = load_sink_gpt()
    caches = [SinkCache(8) for _ in model.trf_blocks]
    model(torch.zeros(1, 8, dtype=torch.long), caches)
    with pytest.raises(ValueError, match="a cache that must evict takes one token at a time: it holds 8 of 8, got 2"):
        model(torch.zeros(1, 2, dtype=torch.long), caches)
    assert model(torch.zeros(1, 1, dtype=torch.long), caches).shape == (1, 1, 256)


def test_a_fix_that_is_not_one_of_the_three_is_refused():
    with pytest.raises(ValueError, match=r"fix must be one of \(None, 'sink', 'gate'\), got 'gates'"):
        SinkAttention(16, 2, 8, fix="gates")
    with pytest.raises(ValueError, match="fix must be one of"):
        SinkGPT(context_length=8, d_model=16, num_heads=2, num_layers=1, fix="Sink")
    with pytest.raises(ValueError, match="fix must be one of"):
        load_sink_gpt("none")


def test_each_shipped_model_has_its_fix_and_chapter_13s_is_the_plain_one():
    for fix in (None, "sink", "gate"):
        model = load_sink_gpt(fix)
        assert model.fix == fix and not model.training
        assert all(block.att.fix == fix for block in model.trf_blocks)
    parameters = {fix: sum(p.numel() for p in load_sink_gpt(fix).parameters())
                  for fix in (None, "sink", "gate")}
    assert parameters == {None: 857_344, "sink": 857_344 + 16, "gate": 857_344 + 4 * 128 * 128}


def test_streaming_equals_recomputing_until_the_window_fills_and_parts_from_it_after():
    model = load_sink_gpt()
    ids = torch.arange(40, 100).view(2, 30) % 256                   # (2, 30): 29 scored each
    before = recomputed_losses(model, ids[:, :9], window=8)
    assert before.shape == (2, 8)
    for sinks in (0, 2):
        streamed = streamed_losses(model, ids, window=8, sinks=sinks)
        assert streamed.shape == (2, 29)
        torch.testing.assert_close(streamed[:, :8], before, rtol=0, atol=1e-4)
    evicting, keeping = (streamed_losses(model, ids, 8, sinks) for sinks in (0, 2))
    assert torch.equal(evicting[:, :8], keeping[:, :8]) and not torch.equal(evicting, keeping)
    recomputed = recomputed_losses(model, ids, window=8, batch_size=5)
    assert recomputed.shape == (2, 29) and torch.equal(recomputed[:, :8], before)
    last = model(ids[:, 21:29])[:, -1]                                # the last window, by hand
    expected = torch.nn.functional.cross_entropy(last, ids[:, 29], reduction="none")
    torch.testing.assert_close(recomputed[:, -1], expected)


@pytest.mark.parametrize("ids, window, error, message", [
    (torch.arange(10), 4, ValueError, r"ids must have shape \(batch, num_tokens\)"),
    (torch.arange(10.0).view(1, -1), 4, TypeError, "ids must be a LongTensor"),
    (torch.tensor([[256, 1]]), 4, ValueError, "ids holds token ids from 1 to 256"),
    (torch.tensor([[1]]), 4, ValueError, "ids must hold 2 bytes or more, got 1"),
    (torch.zeros(1, 10, dtype=torch.long), 257, ValueError, "window must be at most context_length=256, got 257"),
    (torch.zeros(1, 10, dtype=torch.long), 0, ValueError, "window must be positive, got 0"),
])
def test_a_stream_that_cannot_be_read_is_refused_in_words(ids, window, error, message):
    model = load_sink_gpt()
    for losses in (streamed_losses, recomputed_losses):
        with pytest.raises(error, match=message):
            losses(model, ids, window)


def test_where_the_weight_goes_sums_to_each_heads_whole_weight():
    rows = torch.arange(64).view(2, 32)
    for fix in (None, "sink"):
        shares = where_weight_goes(load_sink_gpt(fix), rows, skip=8)
        assert all(share.shape == (4, 4) for share in shares.values())
        assert (shares["first four"] >= shares["position 0"]).all()
        if fix is None:
            torch.testing.assert_close(shares["sink logit"], torch.zeros(4, 4), rtol=0, atol=1e-6)
        else:
            assert (shares["sink logit"] > 0).all()
    for skip in (32, -1, 2.0):
        with pytest.raises(ValueError, match=f"skip must be an integer 0 to 31, the rows' last "
                                             f"position, got {skip}"):
            where_weight_goes(load_sink_gpt(), rows, skip=skip)


def test_the_training_command_stores_the_fix_and_loads_as_what_it_trained(tmp_path):
    train_sinks.main([*TINY, "--fix", "gate", "--out", str(tmp_path)])
    model = load_trained(tmp_path / "text_gpt.pt", kind=SinkGPT)
    assert model.fix == "gate" and model.context_length == 16
    assert model.trf_blocks[0].att.gate.weight.shape == (16, 16)
    with pytest.raises(SystemExit):
        train_sinks.main([*TINY, "--out", str(tmp_path)])             # --fix is required


def test_the_stream_command_writes_each_model_and_policys_losses(tmp_path):
    train_stream.main(["--streams", "2", "--length", "12", "--window", "8", "--sinks", "2",
                       "--threads", "1", "--out", str(tmp_path)])
    with open(tmp_path / "stream.csv") as table:
        rows = list(csv.DictReader(table))
    names = [f"{fix} {policy}" for fix in ("plain", "sink", "gate")
             for policy in ("evict", "sinks", "recompute")]
    assert list(rows[0]) == ["position", *names] and len(rows) == 12
    for fix in ("plain", "sink", "gate"):
        for row in rows[:8]:                      # the window not yet full: one computation
            assert abs(float(row[f"{fix} evict"]) - float(row[f"{fix} recompute"])) < 1e-3
            assert row[f"{fix} evict"] == row[f"{fix} sinks"]
    assert "2 streams of 12 bytes, window 8, 2 sinks" in (tmp_path / "stream.md").read_text()


@pytest.mark.parametrize("argv, option", [
    (["--sinks", "8", "--window", "8"], "--sinks"),
    (["--window", "1"], "--window"),
    (["--streams", "0"], "--streams"),
])
def test_the_stream_command_refuses_nonsense_before_any_work(argv, option, tmp_path, capsys):
    with pytest.raises(SystemExit):
        train_stream.main([*argv, "--out", str(tmp_path)])
    assert f"argument {option}" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
