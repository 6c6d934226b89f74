"""`python -m attnlit.train.text`: train chapter 13's TextGPT (its code is tangled from docs/real-text.md)."""

from attnlit.train.text import main

main()
