#!/usr/bin/env bash
# Side-by-side timings on the same files, one run: exir's deserialize and
# serialize, the stock C++ runtime loading from a path, cp, and our CLI;
# prints the ratios the performance issues set as targets. Then the
# program-heavy files (the corpus deep_program, the 100k-value and the
# 1M-value programs): verify, dump, rewrite beside cp and the stock runtime's
# Program::load with InternalConsistency verification and load_method.
#   bench/compare.sh [VENV] [SIZES_MIB]     defaults: ../.venv-executorch, "16 256 1024"
# Without the venv, only our numbers and cp are printed. SIZES_MIB "" skips
# the segment-heavy files.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="${1:-$root/../.venv-executorch}"
sizes="${2-16 256 1024}"
runs=5
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" && \
  cargo build -q --release -p pte-verify --examples --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/release/pte"
work=$(mktemp -d "${TMPDIR:-/tmp}/pte-compare.XXXXXX"); trap 'rm -rf "$work"' EXIT
median() { # command...: prints the median wall time of $runs runs, seconds
  local ts=() i s e
  for ((i = 0; i < runs; i++)); do
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    ts+=("$(awk -v a="$e" -v b="$s" 'BEGIN { printf "%.4f", a - b }')")
  done
  printf '%s\n' "${ts[@]}" | sort -g | sed -n "$(( (runs + 1) / 2 ))p"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/{print $2}') GiB"
declare -A verify_t verify_i
for mib in $sizes; do  # segment-heavy files
  f="$work/big$mib.pte"
  "$root/target/release/examples/make_big" "$f" "$mib" >/dev/null
  cat "$f" >/dev/null   # warm the page cache for every tool alike
  v=$(median "$pte" verify "$f"); verify_t[$mib]=$v
  vi=$("$root/target/release/examples/time_read" "$f" 21); verify_i[$mib]=$vi
  r=$(median "$pte" rewrite "$f" "$work/out.pte")
  c=$(median cp "$f" "$work/cp.pte")
  echo "== $mib MiB: pte verify ${v}s (process; ${vi}s in-process)  pte rewrite ${r}s  cp ${c}s  rewrite/cp $(ratio "$r" "$c")x"
  if [ -x "$venv/bin/python" ]; then
    ex=$("$venv/bin/python" "$root/../shared/tools/exir_bench.py" "$f" 3 2>/dev/null | tail -n 1)
    ds=$(sed -n 's/.*deserialize_s=\([0-9.]*\).*/\1/p' <<<"$ex"); ss=$(sed -n 's/.*serialize_s=\([0-9.]*\).*/\1/p' <<<"$ex")
    rl=$("$venv/bin/python" "$root/bench/runtime_load.py" "$f" "$runs" 2>/dev/null)
    lp=$(awk '/runtime_load_program/{print $2}' <<<"$rl"); le=$(awk '/runtime_load_for_executorch/{print $2}' <<<"$rl")
    echo "   exir: $ex"
    echo "   runtime: _load_program ${lp}s  _load_for_executorch ${le}s"
    if [ -n "$ds" ] && [ -n "$ss" ]; then
      echo "   verify vs exir deserialize: $(ratio "$ds" "$v")x faster as a whole process, $(ratio "$ds" "$vi")x in-process (target >= 100x)"
      echo "   rewrite vs exir deserialize+serialize: $(ratio "$(awk -v a="$ds" -v b="$ss" 'BEGIN { print a + b }')" "$r")x faster (target >= 3x)"
    fi
    [ -n "$lp" ] && echo "   in-process verify vs runtime _load_program (both in-process): $(ratio "$lp" "$vi")x faster (target > 1)"
  fi
done
if [ -n "$sizes" ]; then
  set -- $sizes
  first=$1; last=${!#}
  echo "== read cost independence: verify ${last} MiB / ${first} MiB = $(ratio "${verify_t[$last]}" "${verify_t[$first]}")x as a process, $(ratio "${verify_i[$last]}" "${verify_i[$first]}")x in-process (target <= 1.2x)"
fi

# program-heavy files: the exporter's deep_program and two generated programs
rss() { /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -n 1; }   # peak resident KiB
"$root/target/release/examples/make_program_heavy" "$work/p100k.pte" 100000 >/dev/null
"$root/target/release/examples/make_program_heavy" "$work/p1m.pte" 1000000 >/dev/null
# the files just written (and the segment-heavy ones) are still being
# written out by the kernel, on the core a two-thread verify would use
sync
for f in "$root/tests/corpus/deep_program/model.pte" "$work/p100k.pte" "$work/p1m.pte"; do
  cat "$f" >/dev/null
  name=$(basename "$(dirname "$f")")/$(basename "$f"); [ "$(dirname "$f")" = "$work" ] && name=$(basename "$f")
  # medians of many runs for the small files, fewer for the 1M-value one
  n=201; [ "$(stat -c %s "$f")" -gt 4000000 ] && n=51; [ "$(stat -c %s "$f")" -gt 40000000 ] && n=11
  tv=$("$root/target/release/examples/time_verify" "$f" "$n")
  # the runtime's load right after ours, in the same conditions
  rl=""
  [ -x "$venv/bin/python" ] && rl=$("$venv/bin/python" "$root/bench/runtime_program_load.py" "$f" "$n" 2>/dev/null)
  vi=$(sed -n 's/.*verify_s=\([0-9.]*\).*/\1/p' <<<"$tv"); heap=$(sed -n 's/.*peak_heap_bytes=\([0-9]*\).*/\1/p' <<<"$tv")
  prog=$(sed -n 's/.*program_bytes=\([0-9]*\).*/\1/p' <<<"$tv")
  v=$(median "$pte" verify "$f")
  d=$(median "$pte" dump "$f"); drss=$(rss "$pte" dump "$f")
  dlim=$( (ulimit -v 512000; "$pte" dump "$f" >/dev/null 2>&1) && echo ok || echo FAILED)
  i=$(median "$pte" info "$f"); irss=$(rss "$pte" info "$f")
  r=$(median "$pte" rewrite "$f" "$work/out.pte"); c=$(median cp "$f" "$work/cp.pte")
  same=$(cmp -s "$f" "$work/out.pte" && echo identical || echo differs)
  echo "== $name: program $prog bytes, file $(stat -c %s "$f") bytes"
  echo "   verify: ${v}s process, ${vi}s in-process, peak heap $heap bytes"
  echo "   dump: ${d}s, peak RSS ${drss} KiB, under ulimit -v 512000: $dlim"
  echo "   info: ${i}s, peak RSS ${irss} KiB"
  echo "   rewrite ${r}s (output $same to the input)  cp ${c}s  rewrite/cp $(ratio "$r" "$c")x (target <= 2x)"
  if [ -n "$rl" ]; then
    lp=$(awk '/runtime_load_program_internal_consistency/{print $2}' <<<"$rl"); lm=$(awk '/runtime_load_method/{print $2}' <<<"$rl")
    echo "   runtime: _load_program(InternalConsistency) ${lp}s  load_method ${lm}s"
    [ -n "$lp" ] && echo "   in-process read + verify vs runtime Program::load: $(ratio "$lp" "$vi")x faster (target >= 1)"
  fi
done
