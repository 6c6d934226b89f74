"""Chapter 10's task, training command and shipped model: it copies, with the heads the page names."""

import csv
import json
import os
import shutil
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from attnlit import train
from attnlit.bench import torch_threads
from attnlit.gpt import TinyGPT, ablate, load_trained
from attnlit.train import IGNORE, copy_accuracy, head_scores, induction_batch, probe_sequence, snapshot

ROOT = Path(__file__).resolve().parent.parent
TINY = ["--steps", "40", "--vocab", "16", "--context", "16", "--width", "32", "--batch", "16",
        "--warmup", "4", "--lr", "1e-2"]


def test_each_row_repeats_one_stretch_and_targets_only_the_copyable_tokens():
    tokens, targets = induction_batch(500, 1000, 20, 3, 7, generator=torch.Generator().manual_seed(0))
    assert tokens.shape == targets.shape == (500, 20) and tokens.dtype == torch.long
    for row, target in zip(tokens.tolist(), targets.tolist()):
        scored = [m for m, t in enumerate(target) if t != IGNORE]
        length = len(scored) + 1
        assert 3 <= length <= 7 and scored == list(range(scored[0], scored[0] + length - 1))
        start = scored[0] - length  # the repeat starts at scored[0]
        assert start >= 0 and row[start:start + length] == row[start + length:start + 2 * length]
        assert all(target[m] == row[m + 1] == row[m + 1 - length] for m in scored)


def test_stretches_of_every_length_start_everywhere_they_fit():
    _, targets = induction_batch(4000, 50, 16, 2, generator=torch.Generator().manual_seed(0))
    scored = targets != IGNORE
    lengths = scored.sum(1) + 1
    starts = scored.float().argmax(1) - lengths
    assert set(lengths.tolist()) == set(range(2, 9))
    for length in (2, 8):
        assert set(starts[lengths == length].tolist()) == set(range(0, 16 - 2 * length + 1))


@pytest.mark.parametrize("lengths", [(0, 4), (5, 4), (2, 9)])
def test_impossible_lengths_are_refused(lengths):
    with pytest.raises(ValueError, match="need 1 <= min_length <= max_length <= context_length // 2"):
        induction_batch(2, 10, 16, *lengths)


def test_head_scores_need_rows_whose_second_half_repeats_the_first():
    model = TinyGPT(10, 8, 8, 2, 1)
    with pytest.raises(ValueError, match="second half repeats the first"):
        head_scores(model, torch.tensor([[1, 2, 3, 4, 1, 2, 3, 5]]))
    previous, induction = head_scores(model, torch.tensor([[1, 2, 3, 4, 1, 2, 3, 4]]))
    assert previous.shape == induction.shape == (1, 2)


def test_training_command_writes_weights_log_and_snapshots_and_the_loss_falls(tmp_path, capsys):
    threads = torch.get_num_threads()
    train.main([*TINY, "--out", str(tmp_path)])
    assert torch.get_num_threads() == threads  # one thread while training, then as before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loss.csv", "run.md", "snapshots.json", "tiny_gpt.pt"]
    with open(tmp_path / "loss.csv") as log:
        rows = list(csv.DictReader(log))
    assert [int(row["step"]) for row in rows] == list(range(40))
    seconds = [float(row["seconds"]) for row in rows]
    assert seconds == sorted(seconds) and 0 < seconds[-1] < 60
    assert "40 steps of 16 sequences" in capsys.readouterr().out
    snapshots = json.loads((tmp_path / "snapshots.json").read_text())
    assert snapshots["step"] == [0, 25, 40]  # every 25 steps, and after the last
    assert snapshots["sequence"] == probe_sequence(16, 4)[0].tolist()  # a quarter of 16, twice
    assert all(len(snapshots[key]) == 3 for key in ("loss", "accuracy", "previous", "prefix", "patterns"))
    # Two layers of two heads, each the causal triangle of the 8 tokens, in hundredths.
    assert [[[len(row) for row in head] for head in layer] for layer in snapshots["patterns"][0]] == \
        [[list(range(1, 9))] * 2] * 2
    assert all(sum(row) in range(97, 104) for layer in snapshots["patterns"][-1] for head in layer for row in head)
    # On the same fresh batch, the trained model's loss is below the untrained model's.
    trained = load_trained(tmp_path / "tiny_gpt.pt")
    torch.manual_seed(0)  # the command's default seed: the weights it started from
    untrained = TinyGPT(16, 16, 32, 2, 2).eval()
    tokens, targets = induction_batch(400, 16, 16, 4, generator=torch.Generator().manual_seed(9))
    with torch.no_grad():
        losses = [F.cross_entropy(model(tokens).flatten(0, 1), targets.flatten()).item()
                  for model in (untrained, trained)]
    assert losses[1] < losses[0] - 0.1, losses
    assert snapshots["loss"][-1] < snapshots["loss"][0]  # measured on the probe, it falls too


def test_by_default_the_command_writes_into_the_current_directory_not_the_package(
        tmp_path, monkeypatch):
    results = files("attnlit.train").joinpath("results")
    shipped = {name: results.joinpath(name).read_bytes()
               for name in ("tiny_gpt.pt", "loss.csv", "run.md", "snapshots.json")}
    monkeypatch.chdir(tmp_path)
    train.main([*TINY, "--steps", "2"])
    assert sorted(p.name for p in (tmp_path / "tiny-gpt").iterdir()) == [
        "loss.csv", "run.md", "snapshots.json", "tiny_gpt.pt"]
    assert {name: results.joinpath(name).read_bytes() for name in shipped} == shipped


def test_training_is_seeded_to_the_bit_weights_and_snapshots(tmp_path):
    """Same machine, same torch, one thread: two runs write the same bytes."""
    for name in ("a", "b"):
        train.main([*TINY, "--steps", "12", "--every", "4", "--out", str(tmp_path / name)])
    a, b = (load_trained(tmp_path / name / "tiny_gpt.pt").state_dict() for name in ("a", "b"))
    assert all(torch.equal(a[key], b[key]) for key in a)
    assert (tmp_path / "a" / "snapshots.json").read_bytes() == (tmp_path / "b" / "snapshots.json").read_bytes()


def test_measuring_changes_nothing_in_the_training():
    weights = []
    for probe in (None, (*induction_batch(8, 16, 16, 8), probe_sequence(16, 4))):
        torch.manual_seed(0)
        model = TinyGPT(16, 16, 32, 2, 2)
        rows, snapshots = train.train(model, 6, 16, 1e-2, 2, 4, seed=0, probe=probe, every=2)
        assert len(rows) == 6 and [s["step"] for s in snapshots] == ([] if probe is None else [0, 2, 4, 6])
        weights.append(model.state_dict())
    assert all(torch.equal(weights[0][key], weights[1][key]) for key in weights[0])


def test_snapshots_equal_a_recomputation_from_the_weights_saved_at_their_steps(tmp_path):
    """The proof at a tiny size: three checkpoints, each measured again, give what was recorded."""
    train.main([*TINY, "--every", "5", "--checkpoints", "0", "15", "40", "--out", str(tmp_path)])
    recorded = json.loads((tmp_path / "snapshots.json").read_text())
    assert recorded["step"] == list(range(0, 41, 5))
    tokens, targets = induction_batch(1000, 16, 16, 8, generator=torch.Generator().manual_seed(1))
    sequence = torch.tensor([recorded["sequence"]])
    assert torch.equal(sequence, probe_sequence(16, 4))
    seen = []
    for step in (0, 15, 40):
        model = load_trained(tmp_path / f"checkpoint-{step}.pt")
        with torch_threads(1):  # as the command measured: the sums, to the bit
            again = snapshot(model, tokens[:200], targets[:200], sequence)
        i = recorded["step"].index(step)
        assert again == {key: recorded[key][i] for key in again}, step
        seen.append(again["patterns"])
    assert seen[0] != seen[1] != seen[2]  # three different models, not one measured thrice
    final = load_trained(tmp_path / "checkpoint-40.pt").state_dict()
    shipped = load_trained(tmp_path / "tiny_gpt.pt").state_dict()
    assert all(torch.equal(final[key], shipped[key]) for key in final)  # the last is the model


@pytest.mark.parametrize("steps, error", [
    (["--checkpoints", "7"], "7 is not a snapshot step"),
    (["--checkpoints", "50"], "50 is not a snapshot step"),
])
def test_checkpoints_only_at_snapshot_steps(tmp_path, capsys, steps, error):
    with pytest.raises(SystemExit):
        train.main([*TINY, *steps, "--out", str(tmp_path)])
    assert error in capsys.readouterr().err


@pytest.fixture(scope="module")
def shipped():
    model = load_trained()
    half = model.context_length // 2
    tokens, targets = induction_batch(1000, model.vocab_size, model.context_length, half,
                                      generator=torch.Generator().manual_seed(7))
    return model, tokens, targets


def test_shipped_model_copies_any_random_sequence_repeated(shipped):
    model, tokens, targets = shipped
    half = model.context_length // 2
    assert not model.training and torch.equal(tokens[:, :half], tokens[:, half:])
    assert copy_accuracy(model, tokens, targets) >= 0.95


def test_shipped_model_has_the_heads_the_chapter_names(shipped):
    model, tokens, _ = shipped
    previous, induction = head_scores(model, tokens[:300])
    assert previous[0, 0] >= 0.5  # head 0.0: previous token
    assert induction[1, 0] >= 0.5 and induction[1, 1] >= 0.5  # heads 1.0, 1.1: induction
    assert previous[1].max() < 0.2 and induction[0].max() < 0.2  # and not the other way round


def test_switching_the_induction_heads_off_breaks_the_copying(shipped):
    model, tokens, targets = shipped
    full = copy_accuracy(model, tokens, targets)
    with ablate(model, [(1, 0)]):
        assert copy_accuracy(model, tokens, targets) < full - 0.05
    with ablate(model, [(1, 0), (1, 1)]):
        assert copy_accuracy(model, tokens, targets) < 0.1
    with ablate(model, [(0, 0)]):
        assert copy_accuracy(model, tokens, targets) < 0.75


def test_shipped_files_are_small_and_consistent():
    results = files("attnlit.train").joinpath("results")
    assert results.joinpath("tiny_gpt.pt").stat().st_size <= 2 * 2**20
    assert results.joinpath("snapshots.json").stat().st_size <= 150_000
    log = train.training_log()
    assert len(log) == 1200 and log[-1]["loss"] < 1.0 < 5.0 < log[0]["loss"]
    summary = results.joinpath("run.md").read_text()
    assert summary.startswith("Trained on ") and "1200 steps" in summary
    snapshots = train.training_snapshots()
    assert snapshots["step"] == list(range(0, 1201, 25)) and len(snapshots["step"]) >= 30
    assert snapshots["sequence"] == probe_sequence(256, 8)[0].tolist()


def test_shipped_snapshots_are_those_of_the_shipped_model_at_the_last_step(shipped):
    """Recomputed from the shipped weights. On another machine the last bits of a sum may
    differ: a tolerance here, to the bit in the tiny proof above (same machine, same run)."""
    model = shipped[0]
    half = model.context_length // 2
    tokens, targets = induction_batch(1000, model.vocab_size, 2 * half, half,
                                      generator=torch.Generator().manual_seed(1))  # seed + 1
    snapshots = train.training_snapshots()
    with torch_threads(1):
        again = snapshot(model, tokens[:200], targets[:200], torch.tensor([snapshots["sequence"]]))
    for key in ("loss", "accuracy", "previous", "prefix"):
        assert torch.allclose(torch.tensor(again[key]), torch.tensor(snapshots[key][-1]), atol=1e-5), key
    gap = torch.tensor(sum(sum(sum(again["patterns"], []), []), [])) - torch.tensor(
        sum(sum(sum(snapshots["patterns"][-1], []), []), []))
    assert gap.abs().max() <= 1  # hundredths, rounded: at most one apart


def test_the_loss_falls_as_the_induction_heads_form(shipped):
    """What chapter 10's figure shows: before step 500 neither, by step 650 both."""
    snapshots = train.training_snapshots()
    at = {step: i for i, step in enumerate(snapshots["step"])}
    best = [max(sum(prefix, [])) for prefix in snapshots["prefix"]]
    assert all(snapshots["loss"][at[step]] > 4 and best[at[step]] < 0.3 for step in range(0, 501, 25))
    assert all(snapshots["loss"][at[step]] < 1.5 and best[at[step]] > 0.8 for step in range(650, 1201, 25))


def test_an_installed_attnlit_loads_the_trained_model_anywhere(tmp_path):
    """Build a wheel from the project as it is, install it alone, load the model elsewhere."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "attnlit", source / "attnlit",
                    ignore=shutil.ignore_patterns("__pycache__"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir",
                    str(tmp_path / "wheel"), str(source)], check=True, capture_output=True)
    subprocess.run([*pip, "install", "--no-deps", "--target", str(tmp_path / "site"),
                    *map(str, (tmp_path / "wheel").glob("*.whl"))], check=True, capture_output=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    code = ("import attnlit, attnlit.gpt as g, attnlit.train as t; m = g.load_trained(); "
            "print(attnlit.__file__); print(m.training, sum(p.numel() for p in m.parameters()), "
            "len(t.training_snapshots()['step']))")
    done = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    where, loaded = done.stdout.splitlines()
    assert where.startswith(str(tmp_path / "site")) and loaded == "False 134528 49"


def test_copying_scores_are_those_of_the_whole_vocabulary_matrix():
    torch.manual_seed(3)
    model = TinyGPT(vocab_size=20, context_length=8, d_model=12, num_heads=3, num_layers=2)
    with torch.no_grad():
        for block in model.trf_blocks:  # gains other than 1, so that leaving them out shows
            block.norm1.weight.uniform_(0.5, 2.0)
        model.final_norm.weight.uniform_(0.5, 2.0)
    scores = train.copying_scores(model)
    assert scores.shape == (2, 3) and scores.dtype == torch.float64
    W_E = model.tok_emb.weight.double().detach()
    W_U = model.out_head.weight.double().detach().T * model.final_norm.weight.double().detach()[:, None]
    for layer, block in enumerate(model.trf_blocks):
        att = block.att
        for head in range(3):
            cols = slice(4 * head, 4 * head + 4)
            full = (W_E * block.norm1.weight.double().detach()
                    @ att.W_value.weight.double().detach()[cols].T
                    @ att.out_proj.weight.double().detach()[:, cols].T @ W_U)  # (V, V), rank 4
            eigenvalues = torch.linalg.eigvals(full)
            expected = eigenvalues.sum().real / eigenvalues.abs().sum()
            assert abs(scores[layer, head] - expected) < 1e-9


def test_a_head_that_passes_each_token_to_its_own_logit_scores_one():
    torch.manual_seed(0)
    model = TinyGPT(vocab_size=16, context_length=8, d_model=16, num_heads=2, num_layers=1)
    with torch.no_grad():
        model.tok_emb.weight.copy_(torch.eye(16))
        model.out_head.weight.copy_(torch.eye(16))
        att = model.trf_blocks[0].att
        att.W_value.weight.copy_(torch.eye(16))
        att.out_proj.weight.copy_(torch.eye(16))  # each head: a copy of its 8 tokens
        att.out_proj.weight[8:, 8:] *= -1  # head 1 writes each token's negative
    scores = train.copying_scores(model)
    assert torch.allclose(scores, torch.tensor([[1.0, -1.0]], dtype=torch.float64))
