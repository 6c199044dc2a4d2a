# Two-command quick start:  `make run`  and  `make test`.
# Both create .venv in the checkout, install torch==2.13.0 first (the local CPU wheel),
# then the package with its test extra (editable, so `python main.py` works from the checkout).
PY ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test bench clean

$(STAMP): pyproject.toml
	test -x $(VPY) || $(PY) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet torch==2.13.0
	$(VPY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

# The main job: check every built-in corpus and export them all to ./out/.
run: $(STAMP)
	$(VPY) main.py corpus list
	$(VPY) main.py corpus export --all --format csv --out out/

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(VPY) -m pytest

bench: $(STAMP)
	$(VPY) bench/bench_generate.py

clean:
	rm -rf $(VENV) out .pytest_cache
