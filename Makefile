# The verbs people type. Each recipe is a thin wrapper over `uv run --frozen`.
# uv is installed with pip when it is missing; everything else comes from uv.lock.

UV = $(shell command -v uv 2>/dev/null || echo python3 -m uv)
RUN = $(UV) run --frozen

.PHONY: setup test lint demo bench eval figures wheels clean

setup:
	@command -v uv >/dev/null 2>&1 || python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet uv
	$(UV) sync --frozen

test: setup
	@missing=""; command -v redis-server >/dev/null 2>&1 || missing="redis-server"; \
	 command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing="$$missing haproxy"; \
	 if [ -n "$$missing" ]; then echo "make test: NOTE:$$missing not found, so the fleet tests (tests/test_fleet*.py) will be skipped; install with: apt-get install -y redis-server haproxy (bash .ci/run does)"; fi
	$(RUN) pytest

lint: setup
	$(RUN) ruff check .
	$(RUN) ruff format --check .
	$(RUN) mypy
	$(RUN) python tests/lint/code_shape.py

demo: setup
	$(RUN) python examples/demo.py

bench: setup
	$(RUN) python tests/bench/run.py

eval: setup
	$(RUN) python tests/eval/run.py $(ONLY)

figures: setup
	@mkdir -p .bench && rm -f .bench/figures.jsonl
	-HARDENING_FIGURES=.bench/figures.jsonl FUZZ_EXAMPLES_PER_TOOL=400 LOAD_ROUNDS=30 $(RUN) pytest -q \
		tests/test_hardening_fuzz.py tests/test_hardening_jsonrpc.py tests/test_hardening_load.py \
		tests/test_hardening_faults.py tests/test_hardening_urls.py tests/test_papers_faults.py --junitxml=.bench/hardening.xml
	$(RUN) python tests/support/figures.py .bench/figures.jsonl .bench/hardening.xml

.PHONY: install-check clients inspect bundles

install-check: setup
	$(RUN) pytest tests/test_install.py tests/test_install_bundles.py -q

clients: setup
	$(RUN) pytest tests/test_clients_examples.py tests/test_clients_shutdown.py tests/test_clients_typescript.py tests/test_clients_demo.py -q

inspect: setup
	$(RUN) bash tests/ts-client/inspect.sh

wheels: setup
	$(RUN) python tests/support/wheels.py

# An MCP Bundle per server in dist/bundles/, and packages/<server>/server.json (needs Node.js >= 20).
bundles: setup
	$(RUN) python examples/bundles/build.py

clean:
	rm -rf .venv dist .pytest_cache .mypy_cache .ruff_cache
