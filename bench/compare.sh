#!/usr/bin/env bash
# Side-by-side timings on the same files, one run: exir's deserialize and
# serialize, the stock C++ runtime loading from a path, cp, and our CLI;
# prints the ratios the performance issue sets as targets.
#   bench/compare.sh [VENV] [SIZES_MIB]     defaults: ../.venv-executorch, "16 256 1024"
# Without the venv, only our numbers and cp are printed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="${1:-$root/../.venv-executorch}"
sizes="${2:-16 256 1024}"
runs=5
cargo build -q --release -p pte-cli --manifest-path "$root/Cargo.toml" && \
  cargo build -q --release -p pte-file --examples --manifest-path "$root/Cargo.toml" || exit 2
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
for mib in $sizes; do
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
set -- $sizes
first=$1; last=${!#}
echo "== read cost independence: verify ${last} MiB / ${first} MiB = $(ratio "${verify_t[$last]}" "${verify_t[$first]}")x as a process, $(ratio "${verify_i[$last]}" "${verify_i[$first]}")x in-process (target <= 1.2x)"
