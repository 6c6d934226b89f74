"""`python -m attnlit.train`: train the copying TinyGPT (its code is tangled from docs/trained-gpt.md)."""

from attnlit.train import main

main()
