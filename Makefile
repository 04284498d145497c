# Two commands matter: `make demo` (set up, then play a round on built-in defaults) and
# `make test` (every check CI runs). Both create or reuse the virtualenv in .venv.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
export PYO3_PYTHON := $(abspath $(PY))
WHEEL_DIR := $(or $(CARGO_TARGET_DIR),target)/wheels

.PHONY: demo test dev wheel wheel-smoke lint rust-test py-test fuzz bench clean

$(VENV)/.ready: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet "maturin>=1.9.4,<2" "numpy>=1.24" "tomli-w>=1.0" "tqdm>=4.60" "pyarrow>=14" "ray>=2.9" "matplotlib>=3.7" \
		"pytest>=8" "pytest-benchmark>=4" "hypothesis>=6" "mypy>=1.10" "ruff>=0.5" \
		treys eval7 phevaluator
	touch $@

# Build the release wheel (abi3, CPython >= 3.11) and install it: tests run against exactly
# what `pip install` gives a user.
wheel: $(VENV)/.ready
	rm -rf $(WHEEL_DIR)
	$(VENV)/bin/maturin build --release --quiet --out $(WHEEL_DIR)
	$(PIP) install --quiet --force-reinstall --no-deps $(WHEEL_DIR)/*.whl

dev: $(VENV)/.ready
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release --quiet

demo: wheel
	$(VENV)/bin/chinese-poker demo

lint: $(VENV)/.ready
	cargo fmt --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings
	$(VENV)/bin/ruff check python tests benches
	$(VENV)/bin/ruff format --check python tests benches
	$(VENV)/bin/mypy
	MYPYPATH=python $(PY) -m mypy.stubtest chinese_poker._core --allowlist stubtest-allowlist.txt --mypy-config-file pyproject.toml

rust-test:
	cargo test --release --quiet -p chinese-poker

py-test: $(VENV)/.ready
	$(PY) -m pytest -q --benchmark-disable

# The fuzz suite (tests/test_fuzz.py) with its long hypothesis profile: many more examples,
# random each run. `make test` runs it with the quick, derandomised profile.
fuzz: wheel
	HYPOTHESIS_PROFILE=long $(PY) -m pytest -q --benchmark-disable tests/test_fuzz.py

# A fresh virtualenv, the wheel and its declared dependencies only: does it import and work?
wheel-smoke:
	rm -rf $(WHEEL_DIR)/../smoke-venv
	$(PYTHON) -m venv $(WHEEL_DIR)/../smoke-venv
	$(WHEEL_DIR)/../smoke-venv/bin/pip install --quiet $(WHEEL_DIR)/*.whl
	cd $(WHEEL_DIR)/.. && smoke-venv/bin/python -c "import chinese_poker as cp; \
		print('wheel ok:', cp.__version__, cp.evaluate('As Ks Qs Js Ts').describe())"

test: wheel
	$(MAKE) rust-test
	$(MAKE) py-test
	$(MAKE) lint
	$(MAKE) wheel-smoke

bench: wheel
	$(PY) -m pytest benches -q --benchmark-only --benchmark-columns=median,ops,rounds
	cargo bench -p chinese-poker --bench eval --bench score --bench solve
	$(PY) benches/simulate_costs.py
	$(PY) benches/compare_wheel.py
	$(PY) benches/compare_wheel.py --presets all --players 2 4 --own-tables --hands 5000 --mc-hands 0
	$(PY) benches/compare_wheel.py --ref 2104d42 --presets two_four --players 2 --own-tables --hands 5000 --mc-hands 0
	$(PY) benches/compare_boundary.py --ref 2104d42

clean:
	rm -rf $(VENV) target
