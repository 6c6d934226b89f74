"""`python -m attnlit.train.sinks`: train chapter 14's SinkGPT (its code is tangled from docs/attention-sinks.md)."""

from attnlit.train.sinks import main

main()
