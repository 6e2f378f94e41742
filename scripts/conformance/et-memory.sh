#!/usr/bin/env bash
# Compares `pte memory --json` with what the stock ExecuTorch runtime says of
# every corpus program (tests/corpus/*/model.pte):
#   * per method, MethodMeta's memory-planned buffer sizes
#     (num_memory_planned_buffers(), memory_planned_buffer_size(i)) against
#     the arenas (the runtime's buffer i is arena id i + 1); a difference fails;
#   * the bytes the method allocator held after load_method against the
#     estimate (reported; exact for methods without delegates).
#
#   scripts/conformance/et-memory.sh [VENV]   (default VENV: ../.venv-executorch)
#
# Uses executorch.runtime's Program.metadata(method) when its MethodMeta has
# num_memory_planned_buffers(); the 1.5.1 wheel's Python MethodMeta does not,
# so MethodMeta is then read through the C++ runtime the wheel ships
# (et_memory_probe.cpp, built with g++), which also measures the allocator.
# A program the runtime refuses as stored (legacy inline constants) is checked
# in its `pte rewrite --constants segment` form, and says so. The corpus
# methods have one planned buffer each, so the programs `pte gen --seed 1
# --count GEN` writes (several buffers, empty ones; GEN=20 by default, 0 for
# none) are checked the same way after the corpus.
# Skips (exit 0) without the venv; exit 1 when a buffer size differs.
# PTE=path/to/pte overrides the binary (default: a debug build of pte-cli).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
py="$venv/bin/python"
if [ ! -x "$py" ]; then echo "skipped: no ExecuTorch venv at $venv"; exit 0; fi
et=$("$py" -c 'import importlib.util as u; print(list(u.find_spec("executorch").submodule_search_locations)[0])' 2>/dev/null) \
  || { echo "skipped: executorch is not installed in $venv"; exit 0; }
if [ -z "${PTE:-}" ]; then
  cargo build -q -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
  PTE="$root/target/debug/pte"
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

# How to ask the runtime: the Python API when it has the call, else the C++ probe.
has_py_api=$("$py" - "$root/tests/corpus/add/model.pte" 2>/dev/null <<'EOF'
import sys
from executorch.runtime import Runtime
m = Runtime.get().load_program(sys.argv[1]).metadata("forward")
print("yes" if hasattr(m, "num_memory_planned_buffers") else "no")
EOF
)
has_py_api=$(echo "$has_py_api" | tail -n 1)
probe=""
if [ "$has_py_api" = yes ]; then
  echo "runtime: executorch.runtime Program.metadata(method).memory_planned_buffer_size(i)"
else
  echo "runtime: this wheel's Python MethodMeta has no num_memory_planned_buffers(); reading MethodMeta through its C++ runtime"
  lib="$et/lib"
  if [ ! -f "$lib/libexecutorch.so" ] || [ ! -d "$et/include/executorch" ]; then
    echo "skipped: the wheel ships no C++ runtime ($lib/libexecutorch.so) and its Python API lacks the call"; exit 0
  fi
  command -v "${CXX:-g++}" >/dev/null || { echo "skipped: no C++ compiler (${CXX:-g++}) to build the probe"; exit 0; }
  regs=()
  for name in kernels_optimized kernels_quantized backend_xnnpack threadpool; do
    [ -f "$lib/libexecutorch_$name.so" ] && regs+=("$lib/libexecutorch_$name.so")
  done
  defs=(-DC10_USING_CUSTOM_GENERATED_MACROS)
  [ -f "$lib/libexecutorch_threadpool.so" ] && defs+=(-DET_USE_THREADPOOL)
  probe="$work/et_memory_probe"
  "${CXX:-g++}" -std=c++17 -O1 "${defs[@]}" -isystem "$et/include" \
    -isystem "$et/include/executorch/runtime/core/portable_type/c10" \
    "$here/et_memory_probe.cpp" -o "$probe" "$lib/libexecutorch.so" \
    -Wl,--push-state,--no-as-needed "${regs[@]}" -Wl,--pop-state -Wl,-rpath,"$lib" \
    || { echo "error: building the probe failed" >&2; exit 2; }
fi

# One JSON line per method from the runtime: {"method", "buffers", "method_allocator_used"?}
runtime() { # program [ptd]
  if [ -n "$probe" ]; then
    "$probe" "$@" 2>/dev/null
  else
    "$py" - "$@" 2>/dev/null <<'EOF'
import json, sys
from executorch.runtime import Runtime
kw = {"data_path": sys.argv[2]} if len(sys.argv) > 2 else {}
try:
    p = Runtime.get().load_program(sys.argv[1], **kw)
except Exception as e:
    print(json.dumps({"error": f"Program::load: {e}"})); sys.exit(0)
for name in sorted(p.method_names):
    m = p.metadata(name)
    print(json.dumps({"method": name,
                      "buffers": [m.memory_planned_buffer_size(i) for i in range(m.num_memory_planned_buffers())]}))
EOF
  fi
}

compare() { # label pte.json runtime.jsonl
  "$py" - "$@" <<'EOF'
import json, sys
label, ours, theirs = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
rt = [json.loads(l) for l in open(theirs) if l.strip()]
errors = [r["error"] for r in rt if "error" in r]
if errors:
    print(f"REFUSED {label}: {errors[0]}"); sys.exit(3)
rt = {r["method"]: r for r in rt}
bad = 0
for m in ours["methods"]:
    name = m["name"]
    r = rt.pop(name, None)
    if r is None:
        print(f"FAIL  {label}/{name}: the runtime has no such method"); bad += 1; continue
    got = [a["size"] for a in sorted(m["arenas"], key=lambda a: a["runtime_index"])]
    ids = [a["id"] for a in sorted(m["arenas"], key=lambda a: a["runtime_index"])]
    est = m["method_allocator"]["bytes"]
    used = r.get("method_allocator_used")
    if used is None:
        alloc = f"allocator estimate {est} (runtime: {r.get('load_error', 'not measured')})"
    elif est == used:
        alloc = f"allocator estimate {est} = runtime {used}"
    else:
        alloc = f"allocator estimate {est}, runtime {used} ({used - est:+d}; {m['method_allocator']['delegates']} delegate(s))"
    if got == r["buffers"]:
        print(f"ok    {label}/{name}: buffers {got} (arena ids {ids}); {alloc}")
    else:
        print(f"FAIL  {label}/{name}: pte says {got}, the runtime {r['buffers']}; {alloc}"); bad += 1
for name in rt:
    print(f"FAIL  {label}/{name}: pte memory does not list this method"); bad += 1
sys.exit(1 if bad else 0)
EOF
}

gen="${GEN:-20}"
if [ "$gen" -gt 0 ]; then
  "$PTE" gen --seed 1 --count "$gen" "$work/gen" >/dev/null || { echo "error: pte gen failed" >&2; exit 2; }
fi
pass=0; fail=0
for f in "$root"/tests/corpus/*/model.pte $(ls "$work"/gen/*.pte 2>/dev/null | sort -V); do
  dir=$(dirname "$f")
  case $f in "$work"/gen/*) case=$(basename "$f" .pte); ptd="";; *) case=$(basename "$dir"); ptd=$(ls "$dir"/*.ptd 2>/dev/null | head -n 1);; esac
  "$PTE" memory --json "$f" > "$work/ours.json" || { fail=$((fail+1)); echo "FAIL  $case: pte memory failed"; continue; }
  runtime "$f" ${ptd:+"$ptd"} > "$work/theirs.jsonl"
  compare "$case" "$work/ours.json" "$work/theirs.jsonl"; rc=$?
  if [ $rc -eq 3 ]; then
    # refused as stored: check the same program with its constants in a segment
    g="$work/$case-constseg.pte"
    "$PTE" rewrite "$f" "$g" --constants segment >/dev/null \
      && runtime "$g" ${ptd:+"$ptd"} > "$work/theirs.jsonl" \
      && compare "$case (as rewritten with --constants segment)" "$work/ours.json" "$work/theirs.jsonl"; rc=$?
  fi
  if [ $rc -eq 0 ]; then pass=$((pass+1)); else fail=$((fail+1)); fi
done
echo "$pass programs agree, $fail differ"
[ "$fail" -eq 0 ]
