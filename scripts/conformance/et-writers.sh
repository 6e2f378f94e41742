#!/usr/bin/env bash
# Round-trips files written by other writers (tests/writers/: old exporters,
# other builders) through `pte extract DIR && pte pack DIR OUT` and reports
# whether OUT is byte-identical to the original; then runs original and
# repack in the stock ExecuTorch runtime and checks they behave alike
# (same load verdicts, same output bytes for fixed inputs).
#
#   scripts/conformance/et-writers.sh [--strict] [VENV]   (default VENV: ../.venv-executorch)
#
# More folders of such files (kept outside the repo) can be added with
# ET_WRITERS_EXTRA=dir1:dir2. A .pte is run together with the .ptd of the same
# stem beside it; a .bpte is unbundled first and its program round-tripped.
# Exit status: 1 when a repack behaves differently in the runtime; byte
# differences and extract/pack errors are reported, and fail only with
# --strict. Without the venv the runtime part is skipped.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
strict=0
[ "${1:-}" = "--strict" ] && { strict=1; shift; }
venv="${1:-$root/../.venv-executorch}"
if [ -z "${PTE:-}" ]; then
  cargo build -q -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
  PTE="$root/target/debug/pte"
fi
runtime=1
[ -x "$venv/bin/python" ] || { runtime=0; echo "note: no ExecuTorch venv at $venv: runtime checks skipped"; }
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT

dirs=("$root/tests/writers")
IFS=: read -r -a extra <<<"${ET_WRITERS_EXTRA:-}"
for d in "${extra[@]}"; do [ -n "$d" ] && dirs+=("$d"); done
mapfile -t files < <(find "${dirs[@]}" -type f \( -name '*.pte' -o -name '*.ptd' -o -name '*.bpte' \) | sort)

same=0; differ=0; errors=0; alike=0; unlike=0
declare -A packed # original -> its repack
declare -A source # original -> what was round-tripped (a .bpte's program)
specs=()          # runtime specs, original and repack alternating
labels=()         # one per pair
rel() { local p=$1; p=${p#"$root"/}; echo "$p"; }

n=0
for f in "${files[@]}"; do
  n=$((n + 1)); work="$out/$n"; mkdir -p "$work"
  src=$f
  if [[ $f == *.bpte ]]; then
    # the bundle is not a pack target: its embedded program is
    "$PTE" bpte unbundle "$f" "$work/inner.pte" >/dev/null 2>"$work/err" \
      || { errors=$((errors + 1)); echo "error  $(rel "$f"): bpte unbundle: $(head -c 160 "$work/err")"; continue; }
    src="$work/inner.pte"
  fi
  ext=${src##*.}
  if ! "$PTE" extract "$src" "$work/x" >/dev/null 2>"$work/err"; then
    errors=$((errors + 1)); echo "error  $(rel "$f"): extract: $(tr '\n' ' ' <"$work/err" | head -c 200)"; continue
  fi
  if ! "$PTE" pack "$work/x" "$work/packed.$ext" >/dev/null 2>"$work/err"; then
    errors=$((errors + 1)); echo "error  $(rel "$f"): pack: $(tr '\n' ' ' <"$work/err" | head -c 200)"; continue
  fi
  packed[$f]="$work/packed.$ext"; source[$f]=$src
  if cmp -s "$src" "$work/packed.$ext"; then
    same=$((same + 1)); echo "same   $(rel "$f")"
  else
    differ=$((differ + 1))
    at=$(cmp "$src" "$work/packed.$ext" 2>&1 | grep -o 'byte [0-9]*' | head -n 1)
    echo "differ $(rel "$f"): ${at:-at the end}, $(stat -c %s "$src") -> $(stat -c %s "$work/packed.$ext") bytes"
  fi
done

if [ "$runtime" -eq 1 ]; then
  for f in "${files[@]}"; do
    [[ $f == *.ptd ]] && continue
    [ -n "${packed[$f]:-}" ] || continue
    ptd="${f%.*}.ptd"
    if [[ $f == *.pte ]] && [ -f "$ptd" ]; then
      # original with original data; repack with repacked data when that
      # round trip worked, else with the original data
      specs+=("$f=$ptd" "${packed[$f]}=${packed[$ptd]:-$ptd}"); labels+=("$(rel "$f") (+ .ptd)")
    else
      specs+=("${source[$f]}" "${packed[$f]}"); labels+=("$(rel "$f")")
    fi
  done
  worker="$root/scripts/conformance/et_writers_run.py"
  "$venv/bin/python" "$worker" "${specs[@]}" >"$out/results" 2>/dev/null
  result() { # spec -> its RESULT json, running it alone when the batch died first
    local line; line=$(grep -F "RESULT $1 " "$out/results" | head -n 1)
    [ -z "$line" ] && line=$("$venv/bin/python" "$worker" "$1" 2>/dev/null | grep -F "RESULT $1 " | head -n 1)
    [ -z "$line" ] && { echo "crashed"; return; }
    echo "${line#"RESULT $1 "}"
  }
  for ((i = 0; i < ${#specs[@]}; i += 2)); do
    a=$(result "${specs[i]}"); b=$(result "${specs[i + 1]}")
    name=${labels[i / 2]}
    verdict=$(python3 -c 'import json,sys
r=json.loads(sys.argv[1]) if sys.argv[1]!="crashed" else {"program":"crashed"}
if r["program"]!="ok": print("program refused: "+r["program"][:60]); sys.exit()
m=r["methods"]; ran=sum(1 for v in m.values() if v.get("run")=="ok")
print(f"{len(m)} methods, {ran} ran" + ("" if ran==len(m) else f", {len(m)-ran} refused"))' "$a")
    if [ "$a" = "$b" ]; then
      alike=$((alike + 1)); echo "alike  $name: $verdict"
    else
      unlike=$((unlike + 1)); echo "UNLIKE $name: original $verdict; repack: $(head -c 200 <<<"$b")"
    fi
  done
fi

echo "round trip: $same identical, $differ differ, $errors errors; runtime: $alike alike, $unlike unlike"
[ "$unlike" -eq 0 ] || exit 1
[ "$strict" -eq 0 ] || [ $((differ + errors)) -eq 0 ]
