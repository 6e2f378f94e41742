#!/usr/bin/env bash
# Checks that `pte graph` yields DOT that Graphviz renders, on the corpus
# models with a delegate (xnnpack_mlp) and with two methods (multi_method),
# and on the other kinds that carry a program (a .ptn's native graph, the
# program a .bpte embeds).
# Installs Graphviz from the distribution's packages when it is missing;
# skips (exit 0, with a note) when that is not possible.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
if ! command -v dot >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null) || true
  fi
fi
if ! command -v dot >/dev/null; then
  echo "graph-check: skipped (Graphviz's dot is not installed and could not be)"
  exit 0
fi
cargo build -q -p pte-cli --manifest-path "$root/Cargo.toml"
pte="$root/target/debug/pte"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
check() { # case method [file]
  local model="$root/tests/corpus/$1/${3:-model.pte}"
  "$pte" graph "$model" --method "$2" -o "$out/$1-$2.dot"
  dot -Tsvg "$out/$1-$2.dot" -o "$out/$1-$2.svg"
  grep -q "<svg" "$out/$1-$2.svg"
  "$pte" graph "$model" --method "$2" --svg -o "$out/$1-$2.direct.svg"
  grep -q "<svg" "$out/$1-$2.direct.svg"
  echo "graph-check: $1 $2 renders ($(wc -c <"$out/$1-$2.svg") bytes of SVG)"
}
check xnnpack_mlp forward
check multi_method forward
check multi_method encode
check native_ptn forward model.ptn
check bundled forward model.bpte
echo "graph-check: ok"
