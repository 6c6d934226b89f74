"""`python -m attnlit.train.state`: train softmax and fixed-state models to copy (its code is tangled from docs/latent-and-linear.md)."""

from attnlit.train.state import main

main()
