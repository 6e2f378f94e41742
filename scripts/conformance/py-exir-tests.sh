#!/usr/bin/env bash
# exir's own serializer tests (exir/_serialize/test/test_program.py from the
# installed executorch wheel) with exir's serialize_pte_binary and
# deserialize_pte_binary replaced by pte_rs.exir's, then the corpus compared
# with exir (scripts/conformance/py-exir-compare.py). Needs an executorch venv:
# EXIR_VENV, default ../.venv-executorch beside the repository. The package is
# installed into target/py-exir (the venv itself is not modified).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=${EXIR_VENV:-../.venv-executorch}
if [ ! -x "$venv/bin/python" ]; then
  echo "!!! exir tests SKIPPED: no executorch venv at $venv !!!" >&2
  exit 0
fi
"$venv/bin/python" -m pip install --quiet --no-deps --upgrade --target target/py-exir ./crates/pte-py
PYTHONPATH="$PWD/target/py-exir" "$venv/bin/python" scripts/conformance/py-exir-runner.py "$@"
# Then every corpus program: our reader equal to exir's, our writer's output
# the same program as exir's writer's (any byte difference is reported).
PYTHONPATH="$PWD/target/py-exir" "$venv/bin/python" scripts/conformance/py-exir-compare.py --serialize tests/corpus/*/model.pte
