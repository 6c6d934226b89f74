"""Chapter 13's training command, run at a tiny size, and the model it shipped."""

import csv
from importlib.resources import files

import pytest
import torch

from attnlit.text import encode, split
from attnlit.textgpt import TextGPT, load_text_gpt
from attnlit.train import text as train_text
from attnlit.train.text import even_windows, text_batch, text_loss, text_training_log

TINY = ["--steps", "30", "--batch", "8", "--context", "32", "--width", "16", "--heads", "2",
        "--layers", "1", "--warmup", "3", "--lr", "1e-2", "--every", "10", "--threads", "1"]


def test_a_batch_is_windows_of_the_text_and_the_bytes_after_them():
    data = torch.arange(100)
    inputs, targets = text_batch(data, 5, 8, torch.Generator().manual_seed(0))
    assert inputs.shape == targets.shape == (5, 8)
    assert torch.equal(targets, inputs + 1) and torch.equal(inputs[:, 1:], inputs[:, :-1] + 1)
    with pytest.raises(ValueError, match="data holds 8 bytes: too few"):
        text_batch(torch.arange(8), 1, 8, torch.Generator())


def test_the_loss_of_every_window_is_the_mean_over_its_bytes():
    torch.manual_seed(0)
    model = TextGPT(context_length=8, d_model=8, num_heads=2, num_layers=1).eval()
    data = torch.randint(256, (8 * 5 + 3,))
    rows = data[:41].view(-1)  # five whole windows and their targets
    logits = model(rows[:40].view(5, 8))
    expected = torch.nn.functional.cross_entropy(logits.flatten(0, 1), rows[1:41].view(5, 8).flatten())
    assert text_loss(model, data, batch_size=2) == pytest.approx(expected.item(), rel=1e-6)
    with pytest.raises(ValueError, match="no whole window"):
        text_loss(model, data[:8])


def test_measured_windows_start_every_n_bytes_all_of_them_or_spread_evenly():
    data = torch.arange(8 * 5 + 3)
    every = even_windows(data, 8)                     # five whole windows, each with its targets
    assert every.shape == (5, 9) and every[:, 0].tolist() == [0, 8, 16, 24, 32]
    assert every[1].tolist() == list(range(8, 17))
    assert even_windows(data, 8, 3)[:, 0].tolist() == [0, 16, 32]
    assert torch.equal(even_windows(data, 8, 5), every)
    with pytest.raises(ValueError, match="windows must be 1 to 5, got 6"):
        even_windows(data, 8, 6)
    with pytest.raises(ValueError, match="windows must be 1 to 5, got 6"):
        text_loss(TextGPT(context_length=8, d_model=8, num_heads=2, num_layers=1), data, windows=6)


@pytest.mark.parametrize("args, error, message", [
    ((torch.arange(43), 8, 0), ValueError, "windows must be positive, got 0"),
    ((torch.arange(43), 8, 2.5), TypeError, "windows must be an integer, got 2.5"),
    ((torch.arange(43), 8, True), TypeError, "windows must be an integer, got True"),
    ((torch.arange(43), 0), ValueError, "context_length must be positive, got 0"),
    ((torch.arange(43).view(1, -1), 8), TypeError, "data must be a 1-D tensor"),
    (([0] * 43, 8), TypeError, "data must be a 1-D tensor"),
])
def test_windows_asked_of_what_cannot_give_them_are_refused(args, error, message):
    with pytest.raises(error, match=message):
        even_windows(*args)


def test_training_measures_as_many_held_out_windows_as_there_are_up_to_64():
    """A context so long that the held-out text holds fewer than 64 windows still trains."""
    torch.manual_seed(0)
    model = TextGPT(context_length=8, d_model=8, num_heads=2, num_layers=1)
    data = torch.randint(256, (200,), generator=torch.Generator().manual_seed(1))
    rows = train_text.train_text(model, data, data[:50], steps=2, batch_size=2, peak_lr=1e-3, warmup=1, seed=0, every=1)
    assert [row["held_out"] is not None for row in rows] == [True, True]  # over its 6 windows


def test_the_command_trains_writes_its_files_and_a_rerun_writes_the_same_weights(tmp_path, capsys):
    threads = torch.get_num_threads()
    for run in ("a", "b"):
        train_text.main([*TINY, "--out", str(tmp_path / run)])
    assert torch.get_num_threads() == threads
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["text_gpt.pt", "text_loss.csv", "text_run.md"]
    with open(tmp_path / "a" / "text_loss.csv") as log:
        rows = list(csv.DictReader(log))
    assert [int(row["step"]) for row in rows] == list(range(30))
    assert [row["step"] for row in rows if row["held_out"]] == ["9", "19", "29"]
    losses = [float(row["loss"]) for row in rows]
    assert sum(losses[-5:]) < sum(losses[:5]) - 2.5  # from ln 256 = 5.5 a byte, down
    weights = [torch.load(tmp_path / run / "text_gpt.pt")["state_dict"] for run in ("a", "b")]
    assert all(torch.equal(weights[0][name], weights[1][name]) for name in weights[0])
    assert "30 steps of 8 windows of 32 bytes" in capsys.readouterr().out
    model = load_text_gpt(tmp_path / "a" / "text_gpt.pt")
    assert model.context_length == 32 and not model.training


@pytest.mark.parametrize("argv, message", [
    (["--heads", "3", "--width", "9"], "a head's width, 9 // 3, must be even"),
    (["--heads", "5"], "5 heads do not divide --width 128"),
    (["--threads", "99999"], "must be at most"),
])
def test_impossible_options_are_refused_before_anything_is_made(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        train_text.main([*argv, "--out", str(tmp_path / "out")])
    assert stop.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "out" / "text_gpt.pt").exists()


def test_the_shipped_model_is_the_commands_defaults_and_reaches_the_logged_held_out_loss():
    defaults = train_text.options().parse_args([])
    model = load_text_gpt()
    assert (model.context_length, model.tok_emb.embedding_dim, len(model.trf_blocks)) == \
        (defaults.context, defaults.width, defaults.layers)
    assert model.trf_blocks[0].att.num_heads == defaults.heads
    log = text_training_log()
    assert [row["step"] for row in log] == list(range(defaults.steps))
    measured = [row["held_out"] for row in log if row["held_out"] is not None]
    assert len(measured) == defaults.steps // defaults.every and measured[-1] < 1.6 < measured[0]
    run = files("attnlit.train").joinpath("results/text_run.md").read_text()
    assert f"{defaults.steps} steps of {defaults.batch} windows of {defaults.context} bytes" in run
    _, held_out = split()
    assert text_loss(model, encode(held_out), windows=16) == pytest.approx(measured[-1], abs=0.05)
