"""`python -m attnlit.train`: train the copying TinyGPT (its code is tangled from docs/training-code.md)."""

from attnlit.train import main

main()
