#!/usr/bin/env bash
# Regenerates tests/writers/flatc-python/ from the stock corpus with
# flatc_python_writer.py (flatc's generated Python object API and the
# flatbuffers Builder, layout chosen there). Needs the stock venv for flatc and
# the flatbuffers package; skips without it.
#
#   scripts/writers/flatc-python.sh [VENV]    (default ../.venv-executorch)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
flatc=$(ls "$venv"/lib/python3*/site-packages/executorch/data/bin/flatc 2>/dev/null | head -n 1)
if [ ! -x "$venv/bin/python" ] || [ -z "$flatc" ]; then
  echo "skipped: no ExecuTorch venv (with its flatc) at $venv"; exit 0
fi
out="$root/tests/writers/flatc-python"; mkdir -p "$out"
corpus="$root/tests/corpus"
w() { "$venv/bin/python" "$root/scripts/writers/flatc_python_writer.py" "$flatc" "$@"; }
status=0
w "$corpus/add/model.pte" "$out/add_defaults.pte" --force-defaults || status=1
w "$corpus/linear/model.pte" "$out/linear_a16_padtail.pte" --force-defaults --segment-alignment 16 --pad-tail || status=1
w "$corpus/multi_method/model.pte" "$out/multi_method_a256.pte" --force-defaults --segment-alignment 256 || status=1
w "$corpus/xnnpack_mlp/model.pte" "$out/xnnpack_mlp_a32.pte" --segment-alignment 32 --pad-tail || status=1
w "$corpus/external/model.pte" "$out/external.pte" --force-defaults || status=1
w "$corpus/external/_default_external_constant.ptd" "$out/external.ptd" --force-defaults --segment-alignment 32 --pad-tail || status=1
exit "$status"
