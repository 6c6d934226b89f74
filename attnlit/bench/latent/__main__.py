"""`python -m attnlit.bench.latent`: chapter 15's benchmark (tangled from docs/latent-and-linear.md)."""

from attnlit.bench.latent import main

main()
