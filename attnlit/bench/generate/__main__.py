"""`python -m attnlit.bench.generate`: chapter 11's benchmark (tangled from docs/benchmark.md)."""

from attnlit.bench.generate import main

main()
