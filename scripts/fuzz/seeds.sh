#!/usr/bin/env bash
# Seed corpora for fuzzing ExecuTorch file parsers, one directory per format:
#   OUTDIR/pte   `pte gen` programs (seeds 1..COUNT) and the corpus programs
#   OUTDIR/ptd, OUTDIR/bpte, OUTDIR/ptn   the corpus files of those kinds
# Usage: scripts/fuzz/seeds.sh OUTDIR [COUNT]   (COUNT defaults to 32)
# Uses $PTE_BIN, else target/release/pte, else builds the CLI.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: seeds.sh OUTDIR [COUNT]}
count=${2:-32}
pte=${PTE_BIN:-$root/target/release/pte}
if [ ! -x "$pte" ]; then
  (cd "$root" && CARGO_INCREMENTAL=0 cargo build --quiet --release -p pte-cli)
fi
mkdir -p "$out"/{pte,ptd,bpte,ptn}
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
"$pte" gen --seed 1 --count "$count" "$gen"
cp "$gen"/*.pte "$out/pte/"
for kind in pte ptd bpte ptn; do
  for f in "$root"/tests/corpus/*/*."$kind"; do
    [ -e "$f" ] || continue
    cp "$f" "$out/$kind/corpus-$(basename "$(dirname "$f")")-$(basename "$f")"
  done
done
for kind in pte ptd bpte ptn; do
  echo "$out/$kind: $(ls "$out/$kind" | wc -l) files, $(du -sh "$out/$kind" | cut -f1)"
done
