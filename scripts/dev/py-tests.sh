#!/usr/bin/env bash
# The Python package (crates/pte-py): a fresh virtual environment in target/,
# maturin + pytest + numpy from the package registry, `pip install` of the
# package, then its pytest suite. Built with the dev profile so the workspace
# crates compiled by `cargo test` are reused (a release build would redo them).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v python3 >/dev/null 2>&1; then
  echo "!!! Python package tests SKIPPED: python3 not available !!!" >&2
  exit 0
fi
venv=target/py-venv
python3 -m venv --clear "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet maturin pytest numpy
MATURIN_PEP517_ARGS="--profile dev" "$venv/bin/python" -m pip install --quiet ./crates/pte-py
cargo build --quiet -p pte-cli --bins --example pte-runner-demo
# The suite has tests on purpose: pytest's "no tests collected" (5) is a failure.
set +e
(cd crates/pte-py && PTE_BIN="$PWD/../../target/debug/pte" "../../$venv/bin/python" -m pytest -q tests)
rc=$?
set -e
if [ "$rc" -ne 0 ]; then
  echo "pytest failed with exit code $rc (5 means no tests were collected)" >&2
  exit "$rc"
fi
