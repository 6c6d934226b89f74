"""The one reader of the site's config files (tools/site_config.py)."""

import os

import site_config


def test_a_config_is_read_as_plain_data_once_and_again_when_it_changes(tmp_path):
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_url: !ENV [SITE_URL, '/']\nnav:\n  - a.md\n")
    first = site_config.read_yaml(config)
    assert first == {"site_url": None, "nav": ["a.md"]}  # a tag reads as None
    first["nav"].append("b.md")  # a caller's copy: the next read is the file's
    assert site_config.read_yaml(config)["nav"] == ["a.md"]
    config.write_text("nav:\n  - c.md\n")
    os.utime(config, ns=(0, 10**18))  # changed, even within the clock's resolution
    assert site_config.read_yaml(config) == {"nav": ["c.md"]}
