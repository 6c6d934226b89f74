"""attnlit.cachesize: chapter 11b's arithmetic of caches for published models."""

import dataclasses

import pytest

from attnlit.cachesize import PRESETS, ModelShape, cache_costs, cost_table, designs, experts_read, own_design, size


@pytest.mark.parametrize("nbytes, shown", [
    (0, "0 B"), (999, "999 B"),                       # whole bytes below 1,000
    (1000, "0.98 KiB"), (1024, "1.00 KiB"),           # then three digits
    (1152, "1.13 KiB"),                               # 1.125 exactly: half up, not to even
    (10 * 1024, "10.0 KiB"), (100 * 1024, "100 KiB"),
    (2**30, "1.00 GiB"), (2**40 * 1500, "1500 TiB"),  # past the last unit, whole
])
def test_size_rounds_half_up_in_integers(nbytes, shown):
    assert size(nbytes) == shown


def test_size_never_goes_through_floats():
    """Past 2^53 a float cannot hold every integer; the integers still round exactly."""
    assert size(2**60 + 1) == "1048576 TiB"
    assert f"{1152 / 1024:.2f}" == "1.12"  # what a float format would print for 1,152 bytes


def test_chapter_11s_llama_3_8b_count():
    """Chapter 11: 1,024 MiB for Llama 3 8B's own cache at its full context."""
    costs = cache_costs(PRESETS["Llama 3 8B"], 8192, 1)
    assert costs[own_design(PRESETS["Llama 3 8B"])][2] == 1024 * 2**20
    assert costs[0][2] == 4 * costs[1][2]  # 32 heads against 8


def test_the_window_caps_the_tokens_and_only_them():
    mistral = PRESETS["Mistral 7B"]
    for n in (100, 4096):  # up to the window, the grouped-query cache
        assert cache_costs(mistral, n, 3)[3][2:] == cache_costs(mistral, n, 3)[1][2:]
    assert cache_costs(mistral, 10**6, 3)[3] == cache_costs(mistral, 4096, 3)[3]


def test_weights_are_read_once_for_the_batch():
    tiny = PRESETS["TinyGPT"]
    one, eight = cache_costs(tiny, 20, 1), cache_costs(tiny, 20, 8)
    for (_, _, held, read), (_, _, held8, read8) in zip(one, eight):
        assert held8 == 8 * held and read8 - held8 == read - held == 4 * 116_096


def test_a_batch_of_one_reads_the_experts_its_token_chose():
    v3 = PRESETS["DeepSeek-V3"]
    layers, routed, chosen, each = v3.experts
    assert experts_read(v3, 1) == layers * chosen * each * v3.weight_bytes
    assert experts_read(PRESETS["Llama 3 8B"], 16) == 0  # dense: no experts


def test_a_batch_reads_more_experts_but_never_more_than_there_are():
    v3 = PRESETS["DeepSeek-V3"]
    layers, routed, chosen, each = v3.experts
    every_expert = layers * routed * each * v3.weight_bytes
    reads = [experts_read(v3, 2**k) for k in range(9)]  # batches 1 to 256
    assert all(fewer < more for fewer, more in zip(reads, reads[1:]))
    assert every_expert - 256 < experts_read(v3, 2048) <= every_expert  # all, to rounding
    # Two tokens: the 8 of the first, and of the second's 8 those the first left, 8 * 248 / 256.
    assert experts_read(v3, 2) == layers * each * (8 * 256 + 8 * 248) // 256
    everyone = dataclasses.replace(v3, experts=(layers, routed, routed, each))
    assert experts_read(everyone, 1) == experts_read(everyone, 7) == every_expert
    rows = cost_table(v3, 4096, 16)
    assert rows[0].endswith("weights 258 GiB, 102 of 256 experts a layer")  # issue 34's count


def test_each_model_marks_its_own_design():
    own = {name: designs(model)[own_design(model)][0] for name, model in PRESETS.items()}
    assert own == {"GPT-2 small": "multi-head", "Llama 3 8B": "grouped-query, g = 8",
                   "Mistral 7B": "window, w = 4,096", "DeepSeek-V3": "latent, 512 + 64",
                   "TinyGPT": "multi-head"}
    mqa = dataclasses.replace(PRESETS["Llama 3 8B"], kv_heads=1)
    assert designs(mqa)[own_design(mqa)][0] == "multi-query"
    assert sum("its own" in row for row in cost_table(mqa, 16, 1)) == 1


def test_bad_arguments_are_refused_by_name():
    model = PRESETS["GPT-2 small"]
    with pytest.raises(ValueError, match="n must be positive, got 0"):
        cache_costs(model, 0, 1)
    with pytest.raises(TypeError, match="batch must be an integer, got 1.5"):
        cache_costs(model, 16, 1.5)
    with pytest.raises(TypeError, match="model must be a ModelShape"):
        cache_costs("GPT-2 small", 16, 1)
    with pytest.raises(ValueError, match="window must be positive"):
        dataclasses.replace(model, window=0)
    with pytest.raises(ValueError, match="layers must be positive"):
        ModelShape("empty", 0, 1, 1, 1, 1, 1, 1, 1)
    with pytest.raises(ValueError, match="experts_per_token must be at most the 8 experts, got 9"):
        dataclasses.replace(PRESETS["DeepSeek-V3"], experts=(58, 8, 9, 1000))
    with pytest.raises(ValueError, match="expert_layers must be positive, got 0"):
        dataclasses.replace(PRESETS["DeepSeek-V3"], experts=(0, 256, 8, 1000))
