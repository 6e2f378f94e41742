#!/usr/bin/env bash
# Regenerates tests/writers/flatc-python/ and tests/writers/flatc-cpp/ from
# the stock corpus with flatc_writer.py: the flatbuffer built by flatc's
# generated Python object API and the flatbuffers Builder, or by flatc's own
# C++ builder (JSON in, binary out); header and segments laid out there.
# Needs the stock venv for flatc and the flatbuffers package; skips without it.
#
#   scripts/writers/flatc-writers.sh [VENV]    (default ../.venv-executorch)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
flatc=$(ls "$venv"/lib/python3*/site-packages/executorch/data/bin/flatc 2>/dev/null | head -n 1)
if [ ! -x "$venv/bin/python" ] || [ -z "$flatc" ]; then
  echo "skipped: no ExecuTorch venv (with its flatc) at $venv"; exit 0
fi
out="$root/tests/writers/flatc-python"; cpp="$root/tests/writers/flatc-cpp"; mkdir -p "$out" "$cpp"
corpus="$root/tests/corpus"
w() { "$venv/bin/python" "$root/scripts/writers/flatc_writer.py" "$flatc" "$@"; }
status=0
w "$corpus/add/model.pte" "$out/add_defaults.pte" --force-defaults || status=1
w "$corpus/linear/model.pte" "$out/linear_a16_padtail.pte" --force-defaults --segment-alignment 16 --pad-tail || status=1
w "$corpus/multi_method/model.pte" "$out/multi_method_a256.pte" --force-defaults --segment-alignment 256 || status=1
w "$corpus/xnnpack_mlp/model.pte" "$out/xnnpack_mlp_a32.pte" --segment-alignment 32 --pad-tail || status=1
w "$corpus/external/model.pte" "$out/external.pte" --force-defaults || status=1
w "$corpus/external/_default_external_constant.ptd" "$out/external.ptd" --force-defaults --segment-alignment 32 --pad-tail || status=1
w "$corpus/add/model.pte" "$cpp/add.pte" --via-flatc-json || status=1
w "$corpus/linear/model.pte" "$cpp/linear.pte" --via-flatc-json --segment-alignment 128 || status=1
w "$corpus/multi_method/model.pte" "$cpp/multi_method_defaults.pte" --via-flatc-json --force-defaults --segment-alignment 128 || status=1
w "$corpus/xnnpack_mlp/model.pte" "$cpp/xnnpack_mlp.pte" --via-flatc-json --segment-alignment 128 || status=1
w "$corpus/external/model.pte" "$cpp/external.pte" --via-flatc-json || status=1
w "$corpus/external/_default_external_constant.ptd" "$cpp/external.ptd" --via-flatc-json --segment-alignment 128 || status=1
exit "$status"
