"""`python -m attnlit.bench`: run the benchmark (its code is tangled from docs/benchmark.md)."""

from attnlit.bench import main

main()
