#!/usr/bin/env bash
# The runner-overhead benchmark (docs/performance.md, "Samples check through a runner"):
# builds the CLI and runs bench/runner_overhead.py with the ExecuTorch venv's python.
#   VENV=/path/to/venv bench/runner-overhead.sh [--sweep] [--calls 1000] [--reps 5] [--json OUT] ...
# VENV defaults to ../.venv-executorch; without it (or without executorch in it) the
# benchmark is skipped with exit 0. The C++ runner is used when
# examples/cpp-runner/build/pte_runner exists (scripts/runners/build-cpp-runner.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="${VENV:-$root/../.venv-executorch}"
if [ ! -x "$venv/bin/python" ]; then echo "skipped: no ExecuTorch venv at $venv"; exit 0; fi
(cd "$root" && cargo build --release -q -p pte-cli)
exec "$venv/bin/python" "$root/bench/runner_overhead.py" "$@"
