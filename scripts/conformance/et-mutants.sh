#!/usr/bin/env bash
# Differential test against the stock runtime: mutants of every corpus .pte
# (every applicable corruption class plus PER_FILE seeded blind edits) are
# judged by `pte verify` and loaded by the runtime (program and every method,
# Minimal and InternalConsistency, one restartable worker per core with a
# per-file timeout). Prints both directions of disagreement and every runtime
# crash; docs/fuzzing.md records a run.
#   scripts/conformance/et-mutants.sh [PER_FILE] [SEED] [VENV]   (defaults 700, 1, ../.venv-executorch)
# ONLY_ACCEPTED=1 loads only the files pte verify accepts (the crash check, in minutes).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
per_file="${1:-700}"; seed="${2:-1}"
venv="${3:-$root/../.venv-executorch}"
if [ ! -x "$venv/bin/python" ]; then echo "skipped: no ExecuTorch venv at $venv"; exit 0; fi
cargo build -q --release -p pte-gen --example mutants --manifest-path "$root/Cargo.toml" || exit 2
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
"$root/target/release/examples/mutants" "$root/tests/corpus" "$out" "$per_file" "$seed" || exit 2
"$venv/bin/python" "$root/scripts/conformance/et_mutants.py" "$out" --workers "$(nproc)" ${ONLY_ACCEPTED:+--only-accepted} 2>&1 | grep -v -e W1203 -e cpuinfo_utils
if [ -n "${KEEP:-}" ]; then mkdir -p "$KEEP" && cp "$out/verdicts.jsonl" "$out/runtime.jsonl" "$KEEP/"; fi
