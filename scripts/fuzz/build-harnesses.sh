#!/usr/bin/env bash
# Builds the issue-36 fuzz harnesses into OUTDIR (default /work/fuzz-runs/bin),
# each twice: NAME-pte (linked with crates/pte-fuzz, our structure-aware
# mutator) and NAME-bytes (libFuzzer's own byte mutator). Same source, flags
# and instrumentation otherwise.
#   fb_verify   flatbuffers C++ verifier over schema/program.fbs
#   et_load     the stock runtime (executorch wheel) Program::load + load_method
# Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev), flatc and
# flatbuffers headers (flatbuffers-compiler, libflatbuffers-dev), and for
# et_load the ExecuTorch venv (default /work/.venv-executorch).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/work/fuzz-runs/bin}
venv=${VENV:-/work/.venv-executorch}
cxx=${CXX:-clang++}
mkdir -p "$out/gen"

(cd "$root" && CARGO_INCREMENTAL=0 cargo build --quiet --release -p pte-fuzz)
lib=$root/target/release/libpte_fuzz.a
# libFuzzer refers to the custom mutator weakly, and a weak reference does not
# pull an object out of a static archive: -u makes the linker take it.
with_pte=(-Wl,-u,LLVMFuzzerCustomMutator -Wl,-u,LLVMFuzzerCustomCrossOver "$lib" -lpthread -ldl -lm)

# flatc and headers from the same flatbuffers release (generated code checks
# the header version).
flatc --cpp -o "$out/gen" -I "$root/schema" "$root/schema/program.fbs" "$root/schema/scalar_type.fbs"
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address -fno-omit-frame-pointer)
for m in pte bytes; do
  extra=(); [ $m = pte ] && extra=("${with_pte[@]}")
  "$cxx" "${flags[@]}" -I "$out/gen" "$root/scripts/fuzz/harness/fb_verify.cc" -o "$out/fb_verify-$m" "${extra[@]}"
done

et=$("$venv/bin/python" -c 'import importlib.util as u; print(list(u.find_spec("executorch").submodule_search_locations)[0])')
regs=()
for name in kernels_optimized kernels_quantized backend_xnnpack threadpool; do
  [ -f "$et/lib/libexecutorch_$name.so" ] && regs+=("$et/lib/libexecutorch_$name.so")
done
defs=(-DC10_USING_CUSTOM_GENERATED_MACROS -DET_EVENT_TRACER_ENABLED)
[ -f "$et/lib/libexecutorch_threadpool.so" ] && defs+=(-DET_USE_THREADPOOL)
for m in pte bytes; do
  extra=(); [ $m = pte ] && extra=("${with_pte[@]}")
  "$cxx" "${flags[@]}" "${defs[@]}" -isystem "$et/include" -isystem "$et/include/executorch/runtime/core/portable_type/c10" \
    "$root/scripts/fuzz/harness/et_load.cc" -o "$out/et_load-$m" "${extra[@]}" \
    "$et/lib/libexecutorch.so" -Wl,--push-state,--no-as-needed "${regs[@]}" -Wl,--pop-state \
    -Wl,--enable-new-dtags,-rpath,"$et/lib"
done
ls -la "$out"/fb_verify-* "$out"/et_load-*
