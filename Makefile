# Everything runs in .venv, created and filled from requirements.txt (pinned whole by
# constraints.txt) on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1
# The lock: uv resolves requirements.txt for every platform and Python from this one on
# (pymdown-extensions 13.1.2 needs 3.11.5), torch's CUDA packages included (`make lock`).
UV := 0.13.8
OLDEST_PYTHON := 3.11.5

# The translations: mkdocs.<lang>.yml builds docs/<lang>/ into site/<lang>/ (CONTRIBUTING.md).
LANGUAGES := $(patsubst mkdocs.%.yml,%,$(wildcard mkdocs.*.yml))

.PHONY: serve test quick tangle build bench lock clean $(addprefix serve-,$(LANGUAGES))

# The port make serve listens on, checked before the build: make serve PORT=8001.
PORT ?= 8000

serve: $(STAMP)  ## serve the English site at http://127.0.0.1:$(PORT), rebuilding on change
	@$(BIN)/python tools/port_free.py $(PORT)
	@echo "Another language: $(foreach language,$(LANGUAGES),make serve-$(language)) (its pages alone;"
	@echo "make build puts every language in site/, where the language selector links them)."
	$(BIN)/properdocs serve --config-file mkdocs.yml --dev-addr 127.0.0.1:$(PORT)

$(addprefix serve-,$(LANGUAGES)): serve-%: $(STAMP)  ## serve one translation, e.g. make serve-th
	@$(BIN)/python tools/port_free.py $(PORT)
	$(BIN)/properdocs serve --config-file mkdocs.$*.yml --dev-addr 127.0.0.1:$(PORT)

test: $(STAMP)  ## run every test: code blocks, unit tests, drift check, strict site build
	$(BIN)/pytest

quick: $(STAMP)  ## the fast loop: unit tests, code blocks and notebooks, no site build or browser
	$(BIN)/pytest -m "not site"

tangle: $(STAMP)  ## regenerate attnlit/ from the chapters in docs/
	$(BIN)/python tools/tangle.py

build: $(STAMP)  ## build the site into site/, each translation into site/<lang>/
	$(BIN)/properdocs build --strict --config-file mkdocs.yml  # first: a build empties its folder
	for language in $(LANGUAGES); do \
	  $(BIN)/properdocs build --strict --config-file mkdocs.$$language.yml || exit 1; done

bench: $(STAMP)  ## what the executed labs cost the site build (cold and warm)
	$(BIN)/python tools/bench_build.py --repeat 2

lock:  ## re-pin constraints.txt: what requirements.txt resolves to today, on every platform
	rm -rf .venv-lock
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip install --quiet --disable-pip-version-check uv==$(UV)
	{ grep '^#' constraints.txt; grep -v '^-[ce] ' requirements.txt \
	  | .venv-lock/bin/uv pip compile - --universal --python-version $(OLDEST_PYTHON) \
	    --no-header --no-annotate --quiet; } > .venv-lock/constraints.txt
	mv .venv-lock/constraints.txt constraints.txt
	rm -rf .venv-lock

clean:
	rm -rf site .cache .pytest_cache

$(STAMP): requirements.txt constraints.txt pyproject.toml tools/install.sh
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11, 5))' \
	  || { echo "attnlit needs Python $(OLDEST_PYTHON) or newer: $(PYTHON) is $$($(PYTHON) -V); README.md (Start) says how to get one and name it: make PYTHON=python3.12"; exit 1; }
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "$(PYTHON) cannot make a virtual environment. On Debian or Ubuntu:"; \
	  echo "    sudo apt-get install python3-venv"; exit 1; }
	PYTHON=$(BIN)/python tools/install.sh
	touch $(STAMP)
