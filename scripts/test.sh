#!/usr/bin/env bash
# Installs everything the tests need (idempotently) and runs the test suite and the linter.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install.sh --dev
.venv/bin/ruff check .
.venv/bin/python -m pytest -q "$@"
