#!/usr/bin/env bash
# System packages for tests, benchmarks and local evaluation: Virtuoso (the engine behind DBpedia),
# headless Chromium for the web page test. Idempotent: installs only what is missing.
set -euo pipefail
need=()
for pkg in virtuoso-opensource chromium chromium-driver wrk; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if (( ${#need[@]} )); then
    SUDO=""
    [[ $(id -u) == 0 ]] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
