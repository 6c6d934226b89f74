"""The caches' folders (tools/cache_key.py): named after attnlit and the lock, hashed once until
a file changes, and written whole."""

import cache_key


def test_the_digest_follows_every_change_to_the_package_while_read_once_between(tmp_path, monkeypatch):
    (tmp_path / "attnlit").mkdir()
    module = tmp_path / "attnlit" / "a.py"
    module.write_text("x = 1\n")
    first = cache_key.digest(tmp_path)
    hashed = []
    monkeypatch.setattr(cache_key.Path, "read_bytes", lambda path: hashed.append(path) or b"")
    assert cache_key.digest(tmp_path) == first and hashed == []  # not hashed again
    monkeypatch.undo()
    module.write_text("x = 22\n")                                  # a change: hashed anew
    assert cache_key.digest(tmp_path) != first
    module.write_text("x = 1\n")
    assert cache_key.digest(tmp_path) == first
    (tmp_path / "constraints.txt").write_text("torch==2.13.0\n")     # the lock counts too
    assert cache_key.digest(tmp_path) != first


def test_a_stored_file_is_whole_and_leaves_nothing_beside_it(tmp_path):
    cache_key.store(tmp_path / "kind" / "a.svg", "<svg/>")
    cache_key.store(tmp_path / "kind" / "b", bytes([0, 255]))
    assert (tmp_path / "kind" / "a.svg").read_text() == "<svg/>"
    assert (tmp_path / "kind" / "b").read_bytes() == bytes([0, 255])
    assert sorted(path.name for path in (tmp_path / "kind").iterdir()) == ["a.svg", "b"]
