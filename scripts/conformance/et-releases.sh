#!/usr/bin/env bash
# The corpus's samples through several ExecuTorch releases, one matrix each
# (`pte samples check SOURCE --runner RELEASE="VENV/bin/python -m pte_rs.runner
# PROGRAM" ...`), written as the table of who passes what in
# docs/runtime-releases.md.
#
#   scripts/conformance/et-releases.sh [RELEASE=VENV]...
#     default: 1.0.0=../.venv-et100 1.3.1=../.venv-et131 1.5.1=../.venv-executorch
#     (make them with scripts/runners/install-releases.sh: each needs
#     executorch and pte_rs). A release whose venv is absent is skipped with
#     a message; with none left the script exits 0 and writes nothing.
#
# Samples: every tests/corpus case with io.safetensors (and io_<method>):
# one call recorded from the stock 1.5.1 runtime, imported as set `io` with
# the format's default tolerance (atol 1e-8, rtol 1e-5); each .bpte's test
# cases; each .ptn's sidecar (decoder_samples: recorded from eager PyTorch).
# Set KEEP=DIR to keep each check's JSON, PTE=BINARY to use a built pte.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || set -- "1.0.0=$root/../.venv-et100" "1.3.1=$root/../.venv-et131" "1.5.1=$root/../.venv-executorch"
releases=()
for spec in "$@"; do
  release=${spec%%=*} venv=${spec#*=}
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import executorch.runtime, pte_rs.runner" 2>/dev/null; then
    releases+=("$release=$venv")
  else
    echo "skipped $release: no venv with executorch and pte_rs at $venv"
  fi
done
if [ ${#releases[@]} -eq 0 ]; then echo "skipped: no release venv"; exit 0; fi
pte=${PTE:-$root/target/debug/pte}
[ -n "${PTE:-}" ] || cargo build -q -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

# check NAME SOURCE PROGRAM [--ptd F]...: one matrix, its JSON in $work/NAME.json
check() {
  local name=$1 source=$2 program=$3; shift 3
  local args=() r
  for r in "${releases[@]}"; do
    args+=(--runner "${r%%=*}=${r#*=}/bin/python -m pte_rs.runner $program $*")
  done
  "$pte" samples check "$source" --json --timeout 600 "${args[@]}" >"$work/$name.json" 2>"$work/$name.err"
  echo "$name: exit $?"
}

corpus="$root/tests/corpus"
for case in "$corpus"/*/; do
  case=${case%/}; c=$(basename "$case")
  [ -f "$case/model.pte" ] || continue
  ptds=(); for d in "$case"/*.ptd; do [ -f "$d" ] && ptds+=(--ptd "$d"); done
  for io in "$case"/io*.safetensors; do
    [ -f "$io" ] || continue
    method=forward; base=$(basename "$io" .safetensors)
    [ "$base" = io ] || method=${base#io_}
    "$pte" samples import-io "$io" "$method" io "$work/sets/$c-$method" --force >/dev/null || continue
    check "$c-$method" "$work/sets/$c-$method" "$case/model.pte" "${ptds[@]}"
  done
  [ -f "$case/model.bpte" ] && check "$c-bpte" "$case/model.bpte" "$case/model.pte" "${ptds[@]}"
  if [ -f "$case/model.ptn" ] && [ -n "$("$pte" samples list "$case/model.ptn" --json | tr -d '[] \n')" ]; then
    check "$c-ptn" "$case/model.ptn" "$case/model.pte" "${ptds[@]}"
  fi
done

python3 - "$work" "$root/docs/runtime-releases.md" "${releases[@]}" <<'PY'
import glob, json, os, sys
work, out, releases = sys.argv[1], sys.argv[2], [r.split("=", 1)[0] for r in sys.argv[3:]]

def cell(row, report):
    status = row["status"]
    if status == "passed":
        errs = [c["max_abs_error"] for c in report.get("call_results", []) if c["set"] == row["set"]]
        worst = max((e for e in errs if isinstance(e, (int, float))), default=0.0)
        return "pass (exact)" if worst == 0 else f"pass (max abs error {worst:.1e})"
    if status == "mismatch":
        w = row["worst"]
        return f"**mismatch** ({row['failures']} failed, worst error {w.get('error', w.get('actual'))})"
    if status == "runner_failed":
        msg = (row["worst"] or {}).get("problem", {}).get("error", "") or (row["worst"] or {}).get("message", "")
        return "**runner failed**: " + msg.splitlines()[0][:140].replace("|", "\\|") if msg else "**runner failed**"
    return "not run"

lines = []
for path in sorted(glob.glob(os.path.join(work, "*.json"))):
    name = os.path.basename(path)[:-5]
    try:
        j = json.load(open(path))
    except ValueError:
        err = open(path[:-5] + ".err").read().strip().splitlines()
        lines.append(f"| {name} | " + " | ".join(["could not check: " + (err[0] if err else "?")] * len(releases)) + " |")
        continue
    for s in j["sets"]:
        cells = []
        for r in releases:
            row = next(x for x in j["table"] if x["runner"] == r and f"{x['method']}/{x['set']}" == s)
            cells.append(cell(row, j["runners"][r]))
        lines.append(f"| {name} `{s}` | " + " | ".join(cells) + " |")
head = f"""# Samples across ExecuTorch releases

Written by `scripts/conformance/et-releases.sh` (do not edit): every sample of
the repository's corpus (`tests/corpus`) checked with `pte samples check
--runner RELEASE="VENV/bin/python -m pte_rs.runner PROGRAM" ...`, one venv
per release (`scripts/runners/install-releases.sh`). The `io` sets hold one
call recorded from the stock 1.5.1 runtime, checked with the format's
default tolerance (atol 1e-8, rtol 1e-5); `bundled` sets are a `.bpte`'s test
cases; `decoder_samples` was recorded from eager PyTorch with per-call
tolerances. "exact": every output bit for bit.

| samples | {' | '.join('ExecuTorch ' + r for r in releases)} |
| --- | {' | '.join('---' for _ in releases)} |
"""
open(out, "w").write(head + "\n".join(lines) + "\n")
print(f"wrote {out}: {len(lines)} rows")
PY
