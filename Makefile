# Everything runs in .venv, created and filled from requirements.txt on first use.
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1
# Executed labs are cached by their own text only: key the cache on attnlit's code too, so that
# a changed package never serves stale lab outputs.
export MKDOCS_JUPYTER_CACHE := .cache/mkdocs-jupyter/$(shell cat attnlit/*.py | sha1sum | cut -c1-12)

.PHONY: serve test tangle build bench clean

serve: $(STAMP)  ## serve the site at http://127.0.0.1:8000, rebuilding on change
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

test: $(STAMP)  ## run every test: code blocks, unit tests, drift check, strict site build
	$(BIN)/pytest

tangle: $(STAMP)  ## regenerate attnlit/ from the chapters in docs/
	$(BIN)/python tools/tangle.py

build: $(STAMP)  ## build the site into site/
	$(BIN)/mkdocs build --strict

bench: $(STAMP)  ## what the executed labs cost the site build (cold and warm)
	$(BIN)/python tools/bench_build.py --repeat 2

clean:
	rm -rf site .cache .pytest_cache

$(STAMP): requirements.txt pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install -r requirements.txt
	touch $(STAMP)
