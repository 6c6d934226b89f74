"""TinyGPT (chapter 10): its checks, the weights it reports, and switching heads off."""

import re
import zipfile

import pytest
import torch

from attnlit.gpt import TinyGPT, ablate, load_trained


@pytest.fixture
def model():
    torch.manual_seed(0)
    return TinyGPT(vocab_size=50, context_length=12, d_model=16, num_heads=4, num_layers=2).eval()


def test_logits_have_one_score_per_token_of_the_vocabulary(model):
    assert model(torch.randint(50, (3, 12))).shape == (3, 12, 50)
    assert model(torch.randint(50, (2, 5))).shape == (2, 5, 50)
    assert model.vocab_size == 50 and model.context_length == 12


def test_a_position_sees_only_its_past(model):
    idx = torch.randint(50, (1, 12))
    changed = idx.clone()
    changed[0, 7:] = (changed[0, 7:] + 1) % 50  # change the future of position 6
    assert torch.allclose(model(idx)[0, :7], model(changed)[0, :7], atol=1e-6)
    assert not torch.allclose(model(idx)[0, 7:], model(changed)[0, 7:])


@pytest.mark.parametrize("idx, error, message", [
    (torch.zeros(1, 13, dtype=torch.long), ValueError, "13 tokens, more than context_length=12"),
    (torch.tensor([[0, 50]]), ValueError, "from 0 to 50, outside 0..49"),
    (torch.tensor([[-1, 3]]), ValueError, "from -1 to 3, outside 0..49"),
    (torch.zeros(4, dtype=torch.long), ValueError, r"idx must have shape \(batch, num_tokens\), got \(4,\)"),
    (torch.zeros(1, 4), TypeError, "idx must be a LongTensor, got torch.float32"),
    ([[1, 2]], TypeError, "idx must be a LongTensor, got <class 'list'>"),
])
def test_bad_token_ids_are_refused_by_name(model, idx, error, message):
    with pytest.raises(error, match=message):
        model(idx)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"num_layers": 0}, ValueError, "num_layers must be positive"),
    ({"vocab_size": 2.5}, TypeError, "vocab_size must be an integer"),
    ({"num_heads": 3}, ValueError, "d_out must be divisible by num_heads"),
    ({"dropout": 1.0}, ValueError, r"dropout must be in \[0, 1\)"),
])
def test_bad_sizes_are_refused(kwargs, error, message):
    sizes = {"vocab_size": 10, "context_length": 8, "d_model": 16, "num_heads": 2, "num_layers": 1}
    with pytest.raises(error, match=message):
        TinyGPT(**{**sizes, **kwargs})


def test_attention_weights_are_softmax_rows_one_tensor_per_layer(model):
    weights = model.attention_weights(torch.randint(50, (3, 9)))
    assert [tuple(w.shape) for w in weights] == [(3, 4, 9, 9)] * 2
    assert all(torch.allclose(w.sum(-1), torch.ones(3, 4, 9)) for w in weights)
    assert all((w.triu(1) == 0).all() for w in weights)  # causal
    assert not any(block.att.dropout._forward_hooks for block in model.trf_blocks)


def test_attention_weights_in_training_are_the_dropped_out_weights_the_layer_used():
    torch.manual_seed(1)
    model = TinyGPT(50, 12, 16, num_heads=4, num_layers=2, dropout=0.5).train()
    att = model.trf_blocks[1].att
    seen = {}
    att.W_value.register_forward_hook(lambda m, a, out: seen.update(values=out))
    att.out_proj.register_forward_pre_hook(lambda m, a: seen.update(received=a[0]))
    weights = model.attention_weights(torch.randint(50, (2, 10)))[1]
    assert (weights == 0).any() and weights.max() > 1  # dropped and rescaled by 1 / (1 - p)
    context = weights @ att.split_heads(seen["values"])
    assert torch.equal(context.transpose(1, 2).reshape(2, 10, 16), seen["received"])


def test_attention_weights_removes_its_hooks_when_the_model_fails(model):
    with pytest.raises(ValueError):
        model.attention_weights(torch.full((1, 3), 99))
    assert not any(block.att.dropout._forward_hooks for block in model.trf_blocks)


def test_ablating_a_head_zeroes_its_columns_before_out_proj(model):
    idx = torch.randint(50, (2, 8))
    att = model.trf_blocks[1].att
    received = []  # what out_proj computed with, after every pre-hook
    att.out_proj.register_forward_hook(lambda m, a, out: received.append(a[0]))
    with torch.no_grad():
        model(idx)
        with ablate(model, [(1, 2), (0, 0)]):
            model(idx)
    normal, ablated = received
    hd = att.head_dim
    assert (ablated[..., 2 * hd:3 * hd] == 0).all()
    keep = torch.ones(att.d_out, dtype=torch.bool)
    keep[2 * hd:3 * hd] = False
    assert not torch.equal(normal[..., keep], ablated[..., keep])  # layer 0's head 0 was off too


def test_ablating_every_head_of_a_layer_leaves_only_the_bias(model):
    att = model.trf_blocks[0].att
    outputs = []
    att.register_forward_hook(lambda m, a, out: outputs.append(out))
    with ablate(model, [(0, head) for head in range(4)]):
        model(torch.randint(50, (1, 6)))
    assert torch.allclose(outputs[0], att.out_proj.bias.expand(1, 6, 16))


def test_ablate_restores_the_model_even_after_an_error(model):
    idx = torch.randint(50, (1, 6))
    before = model(idx)
    with pytest.raises(RuntimeError, match="inside"):
        with ablate(model, [(1, 1)]):
            assert not torch.equal(model(idx), before)
            raise RuntimeError("inside")
    assert torch.equal(model(idx), before)
    assert not any(block.att.out_proj._forward_pre_hooks for block in model.trf_blocks)


@pytest.mark.parametrize("heads, message", [
    ([(2, 0)], "heads: no layer 2 in a model of 2"),
    ([(-1, 0)], "heads: no layer -1"),
    ([(0, 4)], "heads: no head 4 in layer 0 of 4"),
])
def test_ablate_refuses_heads_that_do_not_exist(model, heads, message):
    with pytest.raises(ValueError, match=message):
        with ablate(model, heads):
            pass
    assert not any(block.att.out_proj._forward_pre_hooks for block in model.trf_blocks)


def test_ablating_at_positions_zeroes_the_head_there_only(model):
    idx = torch.randint(50, (2, 8))
    att = model.trf_blocks[0].att
    received = []
    att.out_proj.register_forward_hook(lambda m, a, out: received.append(a[0]))
    with torch.no_grad():
        model(idx)
        with ablate(model, [(0, 1)], positions=range(2, 5)):
            model(idx)
    normal, ablated = received
    hd = att.head_dim
    head = slice(hd, 2 * hd)
    assert (ablated[:, 2:5, head] == 0).all()
    assert torch.equal(ablated[:, [0, 1, 5, 6, 7], head], normal[:, [0, 1, 5, 6, 7], head])
    assert not torch.equal(normal[:, 2:5, head], ablated[:, 2:5, head])
    assert torch.equal(ablated[..., :hd], normal[..., :hd])  # the other heads run as before


def test_ablating_at_every_position_is_ablating_everywhere(model):
    idx = torch.randint(50, (2, 12))
    with torch.no_grad(), ablate(model, [(1, 3)]):
        everywhere = model(idx)
    with torch.no_grad(), ablate(model, [(1, 3)], positions=range(12)):
        assert torch.equal(model(idx), everywhere)


@pytest.mark.parametrize("heads", [[(True, 0)], [(0, False)], [(0.0, 1)]])
def test_ablate_refuses_a_layer_or_head_that_is_not_an_integer(model, heads):
    with pytest.raises(TypeError, match=r"heads: expected \(layer, head\) integers, got"):
        with ablate(model, heads):  # True was taken for layer 1
            pass
    assert not any(block.att.out_proj._forward_pre_hooks for block in model.trf_blocks)


@pytest.mark.parametrize("positions", [[12], [-1], [0.5], [torch.tensor(3)], [True]])
def test_ablate_refuses_positions_outside_the_context(model, positions):
    with pytest.raises(ValueError, match=r"positions: expected integers from 0 to 11, got"):
        with ablate(model, [(0, 0)], positions=positions):
            pass
    assert not any(block.att.out_proj._forward_pre_hooks for block in model.trf_blocks)


# load_trained (issue 24): a file that is not the weights is named, with what is wrong

LFS_POINTER = ("version https://git-lfs.github.com/spec/v1\n"
               "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
               "size 541234\n")


def test_a_git_lfs_pointer_is_named_with_the_command_that_fetches_the_file(tmp_path):
    path = tmp_path / "tiny_gpt.pt"
    path.write_text(LFS_POINTER)
    with pytest.raises(ValueError, match=f"{re.escape(str(path))} is a Git LFS pointer.*git lfs pull") as error:
        load_trained(path)
    assert "weights_only" not in str(error.value)


def saved_model(path, **contents):
    model = TinyGPT(vocab_size=10, context_length=8, d_model=16, num_heads=2, num_layers=1)
    config = {"vocab_size": 10, "context_length": 8, "d_model": 16, "num_heads": 2, "num_layers": 1}
    torch.save({"config": config, "state_dict": model.state_dict(), **contents}, path)
    return model


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_a_corrupt_file_is_named_without_advice_to_run_its_code(tmp_path, damage):
    path = tmp_path / "tiny_gpt.pt"
    saved_model(path)
    data = {"garbage": b"\x00garbage" * 10, "truncated": path.read_bytes()[:2000], "empty": b""}[damage]
    path.write_bytes(data)
    with pytest.raises(ValueError, match=f"{re.escape(str(path))} is not a file saved by torch.save") as error:
        load_trained(path)
    assert "weights_only" not in str(error.value)


def test_a_file_without_the_config_or_weights_is_named(tmp_path):
    path = tmp_path / "tiny_gpt.pt"
    torch.save({"state_dict": {}}, path)
    with pytest.raises(ValueError, match=f"{re.escape(str(path))} holds \\['state_dict'\\], not the 'config' and "
                                         "'state_dict'"):
        load_trained(path)
    torch.save([1, 2], path)
    with pytest.raises(ValueError, match=f"{re.escape(str(path))} holds a list, not"):
        load_trained(path)


def test_a_saved_model_loads_back(tmp_path):
    model = saved_model(tmp_path / "tiny_gpt.pt")
    loaded = load_trained(tmp_path / "tiny_gpt.pt")
    assert not loaded.training
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(),
                                                 loaded.state_dict().values()))


def test_a_whole_pickled_model_is_refused_without_advice_to_run_its_code(tmp_path):
    """torch.save(model) pickles the module: weights_only refuses it, and so must we, clearly."""
    path = tmp_path / "tiny_gpt.pt"
    torch.save(TinyGPT(vocab_size=10, context_length=8, d_model=16, num_heads=2, num_layers=1), path)
    with pytest.raises(ValueError, match=f"{re.escape(str(path))} holds more than tensors and plain data.*"
                                         "torch.save\\(model\\).*'config' and 'state_dict'") as error:
        load_trained(path)
    assert "weights_only" not in str(error.value)
    assert error.value.__suppress_context__  # torch's advice is not shown beneath ours


def flipped(data: bytes, start: int, count: int = 16) -> bytes:
    damaged = bytearray(data)
    for i in range(start, start + count):
        damaged[i] ^= 0xFF
    return bytes(damaged)


@pytest.mark.parametrize("where", ["weights", "pickle", "index"])
def test_a_damaged_archive_is_refused_not_loaded_with_wrong_weights(tmp_path, where):
    """A zip whose entries fail their CRC-32: torch.load would read damaged weights silently."""
    path = tmp_path / "tiny_gpt.pt"
    saved_model(path)
    data = path.read_bytes()
    start = {"weights": data.index(b"data/0") + 200,           # inside the first tensor
             "pickle": data.index(b"data.pkl") + 100,           # inside the pickled dict
             "index": data.rindex(b"data.pkl") - 10}[where]     # the central directory
    path.write_bytes(flipped(data, start))
    with pytest.raises(ValueError, match=f"{re.escape(str(path))} is not a file saved by torch.save: "
                                         "damaged, or cut short") as error:
        load_trained(path)
    assert "weights_only" not in str(error.value)


def test_a_zip_archive_not_written_by_torch_save_is_refused(tmp_path):
    path = tmp_path / "tiny_gpt.pt"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("notes.txt", "not weights")
    with pytest.raises(ValueError, match=f"{re.escape(str(path))} is not a file saved by torch.save"):
        load_trained(path)


@pytest.mark.parametrize("kind", ["TextGPT", torch.nn.Module, None])
def test_a_kind_of_model_that_is_not_a_tinygpt_is_refused(kind):
    with pytest.raises(TypeError, match="kind must be TinyGPT or a subclass, got"):
        load_trained(kind=kind)
