"""A page's Markdown rendered as the site renders it: with the extensions mkdocs.yml names, in a
language (what a translation's config sets), and no MkDocs around them."""

import markdown

import site_config

OURS = ("attnlit_tools.block_titles", "attnlit_tools.figures", "attnlit_tools.site_files")


def rendered(text: str, language: str = "en") -> str:
    """The HTML that Python-Markdown makes of `text` with the site's extensions and options."""
    extensions = site_config.read_config()["markdown_extensions"]
    configs = {name: dict(options or {}) for name, options in extensions.items()}
    for name in OURS:
        configs[name]["language"] = language
    return markdown.Markdown(extensions=list(extensions), extension_configs=configs).convert(text)
