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


def test_once_computes_a_missing_file_and_reads_a_present_one(tmp_path):
    path = tmp_path / "kind" / "key.txt"
    assert cache_key.once(path, lambda: "computed").read_text() == "computed"
    assert cache_key.once(path, lambda: 1 / 0).read_text() == "computed"  # not computed again


def test_a_builder_that_waits_for_another_reads_its_result_instead_of_computing(tmp_path):
    """Three builds start at once: the second builder to want a file waits on the first's
    lock, then finds the file there (the child tells when it waits: a condition, not a time)."""
    import subprocess
    import sys

    from filelock import FileLock

    path = tmp_path / "key.txt"
    child = f"""
import sys
sys.path.insert(0, {str(cache_key.ROOT / "tools")!r})
import cache_key, filelock
acquire = filelock.FileLock.acquire
def told(lock, *args, **kwargs):
    print("waiting", flush=True)
    return acquire(lock, *args, **kwargs)
filelock.FileLock.acquire = told
print(cache_key.once(cache_key.Path({str(path)!r}), lambda: "the child's").read_text())
"""
    with FileLock(tmp_path / "key.txt.lock"):
        waiting = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True)
        assert waiting.stdout.readline() == "waiting\n"
        cache_key.store(path, "the first builder's")
    assert waiting.communicate(timeout=60)[0] == "the first builder's\n"
