# Everything runs in .venv, created and filled from requirements.txt (pinned whole by
# constraints.txt) on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve test tangle build bench lock clean

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

lock:  ## re-pin constraints.txt to what requirements.txt installs today, in a fresh venv
	rm -rf .venv-lock
	$(PYTHON) -m venv .venv-lock
	grep -v '^-c ' requirements.txt > .venv-lock/requirements.txt
	PYTHON=.venv-lock/bin/python tools/install.sh .venv-lock/requirements.txt
	{ grep '^#' constraints.txt; .venv-lock/bin/python -m pip freeze --all --exclude-editable \
	  | grep -v '^pip==' | sed 's/+[^=]*$$//'; } > .venv-lock/constraints.txt
	mv .venv-lock/constraints.txt constraints.txt
	rm -rf .venv-lock

clean:
	rm -rf site .cache .pytest_cache

$(STAMP): requirements.txt constraints.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
	  || { echo "attnlit needs Python 3.10 or newer: $(PYTHON) is $$($(PYTHON) -V)"; exit 1; }
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "$(PYTHON) cannot make a virtual environment. On Debian or Ubuntu:"; \
	  echo "    sudo apt-get install python3-venv"; exit 1; }
	PYTHON=$(BIN)/python tools/install.sh
	touch $(STAMP)
