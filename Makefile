# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit bench clean install fuzz load web web-test web-deploy bytecode artifacts sam lambda-artifact

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	# MILA's package (the bench extra) lets make test replay MILA's DAIDE transcripts and load a
	# Convoy game exported as MILA JSON in MILA's own code (issues 31, 34); those tests skip,
	# saying so, where it cannot be installed
	$(BIN)/pip install --quiet -e '.[bench]' || echo "*** MILA's diplomacy package did not install: the MILA round-trip tests will be SKIPPED"
	touch $(STAMP)

# Tools with pins of their own (checkov) live in a second virtualenv.
TOOLS := .venv-tools
TOOLS_STAMP := $(TOOLS)/.installed

$(TOOLS_STAMP): requirements-tools.txt
	test -x $(TOOLS)/bin/pip || $(PY) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet -r requirements-tools.txt
	touch $(TOOLS_STAMP)

# The SAM CLI, in a third virtualenv (requirements-sam.txt says why): .venv-sam/bin/sam
SAM_VENV := .venv-sam
SAM_STAMP := $(SAM_VENV)/.installed

$(SAM_STAMP): requirements-sam.txt
	test -x $(SAM_VENV)/bin/pip || $(PY) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/pip install --quiet -r requirements-sam.txt
	touch $(SAM_STAMP)

sam: $(SAM_STAMP)

install: $(STAMP) $(TOOLS_STAMP) $(SAM_STAMP) bytecode

# The Lambda artifacts (issue 27, deploy/build_artifacts.py says how and why). `sam build` runs
# deploy/lambda/Makefile (template.yaml: CodeUri deploy/lambda/, BuildMethod makefile), which
# calls `lambda-artifact` here with FUNCTION and ARTIFACTS_DIR: the product modules the handler
# reaches plus its pinned runtime wheels for python3.12 on arm64, nothing else. `make artifacts`
# builds all six for this machine's CPU into build/lambda/ (what the deploy rehearsal runs).
lambda-artifact: $(STAMP)
	test -n "$(FUNCTION)" -a -n "$(ARTIFACTS_DIR)" || { echo "set FUNCTION and ARTIFACTS_DIR (sam build does)"; exit 2; }
	$(BIN)/python deploy/build_artifacts.py build $(FUNCTION) --out "$(ARTIFACTS_DIR)"

artifacts: $(STAMP)
	$(BIN)/python -c "from deploy.rehearsal import built_artifacts; [print(p) for p in built_artifacts().values()]"

# Our packages compiled to bytecode. An import writes none where PYTHONDONTWRITEBYTECODE is
# set (this machine's default), so without this every process of `make run` (each API
# worker) and `make test` (each test worker) would compile every module it imports anew; a
# cold start then reads bytecode, as bench/cold_start.py measures it. Quick when nothing changed.
PACKAGES := engine functions composition infra local_stack render backgammon daide_bridge bench deploy testkit
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q $(PACKAGES) > /dev/null

# The web client (issue 16, docs/web.md): npm ci from the committed lockfile, then a Vite build
# into web/dist, which the local stack serves at /. Rebuilt only when a source changed.
WEB_SRC := $(shell find web/src web/public -type f 2>/dev/null) web/index.html web/vite.config.ts web/tsconfig.json
NPM := $(shell command -v npm 2>/dev/null)

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error

web/dist/index.html: web/node_modules/.package-lock.json $(WEB_SRC)
	cd web && npm run --silent build

ifeq ($(NPM),)
web:
	@echo "*** npm not found: the web client is not built, so / serves nothing and the browser tests are SKIPPED"
web-test: web
else
web: web/dist/index.html
web-test: web
	cd web && npx vitest run
	@cd web && out=$$(npm audit --omit=dev --audit-level=high --json 2>/dev/null); code=$$?; \
	if echo "$$out" | grep -q '"vulnerabilities"'; then \
	  test $$code -eq 0 && echo "npm audit --omit=dev: no high findings in the shipped bundle" || { echo "$$out"; exit 1; }; \
	else echo "*** npm audit --omit=dev: the advisory service did not answer; the shipped bundle was NOT audited"; fi
endif

# Upload the built client to the stack's bucket (outputs WebBucketName, WebDistributionId).
web-deploy: web
	test -n "$(WEB_BUCKET)" -a -n "$(WEB_DISTRIBUTION)" || { echo "set WEB_BUCKET and WEB_DISTRIBUTION (sam deploy outputs)"; exit 2; }
	aws s3 sync web/dist/assets s3://$(WEB_BUCKET)/assets --cache-control "public, max-age=31536000, immutable"
	aws s3 cp web/dist/index.html s3://$(WEB_BUCKET)/index.html --cache-control "no-cache"
	aws s3 cp web/dist/favicon.svg s3://$(WEB_BUCKET)/favicon.svg
	aws s3 cp web/dist/sw.js s3://$(WEB_BUCKET)/sw.js --cache-control "no-cache"
	aws cloudfront create-invalidation --distribution-id $(WEB_DISTRIBUTION) --paths /index.html /

run: $(STAMP) web bytecode
	$(BIN)/python -m local_stack $(if $(filter-out 0,$(FRESH)),--fresh)

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) $(TOOLS_STAMP) $(SAM_STAMP) bytecode artifacts
	@test -x /usr/bin/chromium || echo "*** /usr/bin/chromium is not installed: the browser tests (tests/web) will be SKIPPED (apt-get install chromium chromium-driver)"
	$(BIN)/pytest -n 2

test: lint typecheck web-test unit

# The long fuzz (issue 10): in process by default; FUZZ_BASE_URL=http://127.0.0.1:8000 fuzzes
# a running `make run` instead. `make test` runs the same test with a few examples each.
FUZZ_EXAMPLES ?= 300
fuzz: $(STAMP)
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest tests/api/test_fuzz.py -q

# Races, retries and triggers against a local stack on loopback (docs/reliability.md)
load: $(STAMP)
	$(BIN)/python bench/load.py

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]' || echo "MILA diplomacy package not installable; benchmarking Convoy alone"
	$(BIN)/python bench/engine_bench.py

clean:
	rm -rf $(VENV) $(TOOLS) $(SAM_VENV) .pytest_cache .mypy_cache .ruff_cache build .aws-sam
