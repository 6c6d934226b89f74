# Everything runs in .venv, created and filled from requirements.txt on first use.
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve test tangle build clean

serve: $(STAMP)  ## serve the site at http://127.0.0.1:8000, rebuilding on change
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

test: $(STAMP)  ## run every test: code blocks, unit tests, drift check, strict site build
	$(BIN)/pytest

tangle: $(STAMP)  ## regenerate attnlit/ from the chapters in docs/
	$(BIN)/python tools/tangle.py

build: $(STAMP)  ## build the site into site/
	$(BIN)/mkdocs build --strict

clean:
	rm -rf site .cache .pytest_cache

$(STAMP): requirements.txt pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install -r requirements.txt
	touch $(STAMP)
