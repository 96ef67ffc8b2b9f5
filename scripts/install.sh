#!/usr/bin/env bash
# Installs the gateway into ./.venv, idempotently. CPU torch goes first: without it, the
# sentence-transformers dependency pulls several GB of CUDA wheels.
# Usage: scripts/install.sh [--dev]   (--dev adds test tools, Virtuoso and Chromium from apt)
set -euo pipefail
cd "$(dirname "$0")/.."
DEV=0
[[ "${1:-}" == "--dev" ]] && DEV=1

if [[ $DEV == 1 ]]; then
    scripts/install-system.sh
fi

PY=${PYTHON:-python3}
[[ -x .venv/bin/python ]] || "$PY" -m venv .venv
PIP=".venv/bin/pip --quiet --disable-pip-version-check"
.venv/bin/python -c "import torch" 2>/dev/null || $PIP install "torch==2.13.0"
if [[ $DEV == 1 ]]; then
    $PIP install -e ".[dev]"
else
    $PIP install -e .
fi
