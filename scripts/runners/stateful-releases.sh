#!/usr/bin/env bash
# A stateful model checked on several ExecuTorch releases through
# `python -m pte_rs.runner`: state carried from call to call within a
# sample, fresh for every sample. The model (two mutable buffers: a decaying
# accumulator and a step counter) is exported by the FIRST release's exporter,
# its samples recorded once from the eager module with pte_rs.samples.record
# (fresh=True: the buffers restored before each sample); `bad` is the same
# set with one expected element moved by ten times its tolerance. Expected:
# exit 0 for `good` and exit 1 for `bad` on every release, the mismatch
# naming sample 1, call 2, output 0, element 3.
#
#   scripts/runners/stateful-releases.sh [RELEASE=VENV]...
#     default: 1.0.0=../.venv-et100 1.3.1=../.venv-et131 1.5.1=../.venv-executorch
#     (scripts/runners/install-releases.sh makes them; each needs executorch
#     and pte_rs). Absent venvs are skipped; with none the script exits 0.
#     PTE=BINARY uses a built pte instead of building one.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || set -- "1.0.0=$root/../.venv-et100" "1.3.1=$root/../.venv-et131" "1.5.1=$root/../.venv-executorch"
runners=() first=""
for spec in "$@"; do
  release=${spec%%=*} venv=${spec#*=}
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import executorch.runtime, pte_rs.runner" 2>/dev/null; then
    [ -n "$first" ] || first=$venv
    runners+=("$release=$venv")
  else
    echo "skipped $release: no venv with executorch and pte_rs at $venv"
  fi
done
if [ -z "$first" ]; then echo "skipped: no release venv"; exit 0; fi
pte=${PTE:-$root/target/debug/pte}
[ -n "${PTE:-}" ] || cargo build -q -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# The 1.0.0 exporter runs `flatc` from PATH (or FLATC_EXECUTABLE) although
# its wheel ships one: point it there.
for f in "$first"/lib/python3*/site-packages/executorch/data/bin/flatc; do
  [ -x "$f" ] && export FLATC_EXECUTABLE=${FLATC_EXECUTABLE:-$f}
done

"$first/bin/python" - "$work" <<'PY' 2> >(grep -v "^W[0-9]" >&2) || exit 2
import sys
import numpy as np
import torch
from executorch.exir import ExecutorchBackendConfig, to_edge
from executorch.exir.passes.init_mutable_pass import InitializedMutableBufferPass
import pte_rs.samples as S
from pte_rs.recording import read_set

work = sys.argv[1]

class Accumulator(torch.nn.Module):
    """state = state / 2 + x; steps += 1; returns (tanh(state) * steps, sum(state))."""

    def __init__(self):
        super().__init__()
        self.register_buffer("state", torch.full((4,), 0.25))
        self.register_buffer("steps", torch.zeros(1))

    def forward(self, x):
        self.state.mul_(0.5).add_(x)
        self.steps.add_(1.0)
        return torch.tanh(self.state) * self.steps, self.state.sum()

m = Accumulator().eval()
x = torch.linspace(-1, 1, 4)
ep = torch.export.export(m, (x,), strict=False)
config = ExecutorchBackendConfig(passes=[InitializedMutableBufferPass(["state", "steps"])])
with open(f"{work}/model.pte", "wb") as f:
    f.write(to_edge(ep).to_executorch(config).buffer)

rng = np.random.default_rng(7)
samples = [[(rng.standard_normal(4).astype(np.float32),) for _ in range(4)] for _ in range(2)]
s = S.record(Accumulator().eval(), "forward", "good", samples, tolerance=(1e-6, 1e-5), fresh=True)
S.write_set(s, f"{work}/good")
s = read_set(f"{work}/good")
s.name = "bad"
out = np.array(s.samples[1].calls[2].outputs[0], copy=True)
out.reshape(-1)[3] += 10 * (1e-6 + 1e-5 * abs(float(out.reshape(-1)[3])))
s.samples[1].calls[2].outputs[0] = out
S.write_set(s, f"{work}/bad")
print(f"exported {work}/model.pte with torch {torch.__version__}; recorded good and bad", file=sys.stderr)
PY

status=0
for r in "${runners[@]}"; do
  release=${r%%=*} venv=${r#*=}
  for set in good bad; do
    "$pte" samples check "$work/$set" -- "$venv/bin/python" -m pte_rs.runner "$work/model.pte" >"$work/out" 2>&1
    code=$?
    want=0; [ $set = good ] || want=1
    line=$(grep -m1 "^FAIL" "$work/out" | cut -c1-160)
    echo "$release $set: exit $code (want $want) ${line}"
    [ $code = $want ] || { status=1; tail -5 "$work/out"; }
  done
done
args=(); for r in "${runners[@]}"; do args+=(--runner "${r%%=*}=${r#*=}/bin/python -m pte_rs.runner $work/model.pte"); done
# every release at once (a matrix): good exits 0 naming each runner, bad exits 1
for set in good bad; do
  "$pte" samples check --json "$work/$set" "${args[@]}" >"$work/matrix-$set.json" 2>/dev/null
  code=$?
  want=0; [ $set = good ] || want=1
  named=$(python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["order"]))' \
    "$work/matrix-$set.json" 2>/dev/null)
  echo "matrix $set: exit $code (want $want), runners named: ${named:-none}"
  [ $code = $want ] && [ -n "$named" ] || status=1
done
"$pte" samples check "$work/bad" "${args[@]}" 2>/dev/null | grep -v "^FAIL"
exit $status
