"""`python -m attnlit.bench.flash`: chapter 12's benchmark (tangled from docs/benchmark.md)."""

from attnlit.bench.flash import main

main()
