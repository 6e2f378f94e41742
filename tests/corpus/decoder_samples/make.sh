#!/usr/bin/env bash
# Remakes this case (tests/corpus/README.md, `decoder_samples`) with the stock
# exporter and the scripts of examples/llm, unchanged:
#   model.pte, model.ptn   examples/llm/export.py (executorch 1.5.1, torch 2.15.0)
#   model.ptn's samples    examples/llm/record.py on the EAGER model, added with
#                          `pte samples add`: set `teacher-forced` as recorded,
#                          set `teacher-forced-wrong` the same calls with one
#                          expected element moved by 10x its tolerance
#                          (examples/llm/perturb.py: sample 1, call 6, output 0, element 13)
#   io.safetensors         the stock runtime's prefill from a freshly loaded model.pte
# Run it where `python` has executorch and pte_rs and `pte` is on PATH (the
# venv of docs/samples.md's quick start):  tests/corpus/decoder_samples/make.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ex="$here/../../../examples/llm"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
python "$ex/export.py" "$work"
python "$ex/record.py" "$work"
cp -r "$work/teacher-forced" "$work/wrong"
python - "$work/wrong" <<'PY'
import sys
from pte_rs.recording import read_set, write_set
s = read_set(sys.argv[1])
s.name = "teacher-forced-wrong"
write_set(s, sys.argv[1])
PY
python "$ex/perturb.py" "$work/wrong" 1 6 0 13 10
cp "$work/model.pte" "$work/model.ptn" "$here/"
pte samples add "$here/model.ptn" "$work/teacher-forced"
pte samples add "$here/model.ptn" "$work/wrong"
python - "$here" "$ex" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[2])
from executorch.runtime import Runtime
from safetensors.torch import save_file
from model import example_inputs
here = sys.argv[1]
x = example_inputs()
y = Runtime.get().load_program(os.path.join(here, "model.pte")).load_method("forward").execute(list(x))
save_file({"input.0": x[0], "input.1": x[1], "output.0": y[0]}, os.path.join(here, "io.safetensors"))
PY
pte verify "$here/model.pte" "$here/model.ptn"
pte samples list "$here/model.ptn"
