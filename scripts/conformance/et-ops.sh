#!/usr/bin/env bash
# Conformance of `pte ops --yaml` with ExecuTorch's selective-build tools:
# every corpus program, edited programs reaching the YAML writer's corners,
# and the union of many files, byte for byte against gen_oplist.py and
# gen_all_oplist.py (scripts/conformance/et_ops_compare.py says how).
#   scripts/conformance/et-ops.sh [VENV]                   (default ../.venv-executorch; skips without it)
#   scripts/conformance/et-ops.sh [VENV] --expected DIR    write gen_oplist's files for the Rust test
#                                                          (crates/pte-cli/tests/data/ops)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import executorch.codegen.tools.gen_oplist" 2>/dev/null; then
  echo "skipped: no ExecuTorch venv at $venv"
  exit 0
fi
shift $(( $# > 0 ? 1 : 0 ))
cargo build -q -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/debug/pte"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
"$venv/bin/python" "$root/scripts/conformance/et_ops_compare.py" "$pte" "$root" "$out" "$@"
