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

# The main job: list the built-in corpora, then the demo audit (VADER + TextBlob on the English
# corpora with every applicable statistic, WEAT on GloVe, HTML report) into ./out/demo.
run: $(STAMP)
	$(VPY) main.py corpus list
	$(VPY) main.py demo --out out/demo

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(VPY) -m pytest

bench: $(STAMP)
	$(VPY) -m pip install --quiet -e '.[test,bench]'
	for b in bench/bench_*.py; do echo "== $$b"; $(VPY) $$b || exit 1; done

clean:
	rm -rf $(VENV) out .pytest_cache
