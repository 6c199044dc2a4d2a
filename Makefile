# Two-command quick start:  `make run`  and  `make test`.
# Both create .venv in the checkout, install torch==2.13.0 first (the local CPU wheel),
# then the package with its test extra (editable, so `python main.py` works from the checkout).
PY ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test test-no-system-dictionaries bench bundle clean

# pip stays quiet (its progress bars fill screens); each step says what it is doing instead.
$(STAMP): pyproject.toml
	@test -x $(VPY) || { echo "== creating the virtual environment $(VENV)"; $(PY) -m venv $(VENV); }
	@echo "== updating pip in $(VENV)"
	@$(VPY) -m pip install --quiet --upgrade pip
	@echo "== installing torch 2.13.0 (the largest step: about a minute)"
	@$(VPY) -m pip install --quiet torch==2.13.0
	@echo "== installing EEC Studio and its dependencies (PySide6, transformers, statsmodels, …) with the test extra"
	@$(VPY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)
	@echo "== $(VENV) is ready"

setup: $(STAMP)

# The main job: list the built-in corpora, then the demo audit (VADER + TextBlob on the English
# corpora with every applicable statistic, WEAT on GloVe, HTML report) into ./out/demo.
run: $(STAMP)
	$(VPY) main.py corpus list
	$(VPY) main.py demo --out out/demo

# one worker per core (pytest-xdist); `worksteal` evens out the long GUI tests between them
TEST_JOBS ?= auto
test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(VPY) -m pytest -n $(TEST_JOBS) --dist worksteal

# the suite with the system's Hunspell dictionaries hidden (issue 38): it must give what `make test` gives
test-no-system-dictionaries: $(STAMP)
	EEC_STUDIO_SYSTEM_DICTIONARIES=0 QT_QPA_PLATFORM=offscreen $(VPY) -m pytest -n $(TEST_JOBS) --dist worksteal

bench: $(STAMP)
	@echo "== installing the benchmark extra (all-MiniLM-L6-v2)"
	@$(VPY) -m pip install --quiet -e '.[test,bench]'
	for b in bench/bench_*.py; do echo "== $$b"; $(VPY) $$b || exit 1; done

# The translator's install as one folder (PyInstaller): dist/eec-studio/eec-studio starts the app
# without Python. Built in its own environment with the plain install plus the 'parquet' extra (a
# bundle cannot add extras later), so that nothing else of .venv (torch, transformers, GloVe, Dask)
# enters it. tests/test_bundle.py starts it under Xvfb.
BUNDLE_VENV := .venv-bundle
bundle:
	@test -x $(BUNDLE_VENV)/bin/python || { echo "== creating $(BUNDLE_VENV)"; $(PY) -m venv $(BUNDLE_VENV); }
	@echo "== installing the translator's install (with the parquet extra) and PyInstaller into $(BUNDLE_VENV)"
	@$(BUNDLE_VENV)/bin/python -m pip install --quiet --upgrade pip
	@$(BUNDLE_VENV)/bin/python -m pip install --quiet '.[parquet]' 'pyinstaller>=6.10'
	@echo "== building dist/eec-studio with PyInstaller (packaging/eec-studio.spec; minutes)"
	$(BUNDLE_VENV)/bin/pyinstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller \
		packaging/eec-studio.spec
	@du -sh dist/eec-studio

clean:
	rm -rf $(VENV) $(BUNDLE_VENV) out .pytest_cache build/pyinstaller dist/eec-studio
