#!/usr/bin/env bash
# docs/performance.md, Python section: builds the 256 MiB program (make_big),
# installs pte_rs into target/py-exir and times it against exir in one run.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${EXIR_VENV:-../.venv-executorch}
deep=tests/corpus/deep_program/model.pte
[ -f target/big256.pte ] || cargo run -q --release -p pte-verify --example make_big -- target/big256.pte 256
"$venv/bin/python" -m pip install --quiet --no-deps --upgrade --target target/py-exir ./crates/pte-py
PYTHONPATH="$PWD/target/py-exir" "$venv/bin/python" scripts/bench/py-bench.py "$PWD/target/big256.pte" "$deep"
