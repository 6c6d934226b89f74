"""attnlit: the attention mechanism of GPT-style language models, tangled from its guide's chapters.

Every other module in this package is generated from docs/ by `make tangle`; edit the chapters.
"""
