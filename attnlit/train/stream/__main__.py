"""`python -m attnlit.train.stream`: stream held-out text through chapter 14's models (its code is tangled from docs/attention-sinks.md)."""

from attnlit.train.stream import main

main()
