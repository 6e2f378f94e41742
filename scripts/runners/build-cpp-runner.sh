#!/usr/bin/env bash
# Builds examples/cpp-runner/pte_runner (the pte-runner protocol over the stock
# ExecuTorch C++ runtime) against the runtime shipped in the executorch wheel.
#   scripts/runners/build-cpp-runner.sh [VENV] [OUT_DIR]
#   VENV     a Python venv with executorch installed (default ../.venv-executorch);
#            without it the build is skipped (exit 0)
#   OUT_DIR  where the binary goes (default examples/cpp-runner/build)
# Needs g++ (C++17) and nlohmann/json (installed with apt-get when missing).
# libpte (the --replay mode reads packages with it) is built and installed by
# scripts/install-c.sh into OUT_DIR/libpte and found with pkg-config; its cargo
# profile is PTE_PROFILE (default dev, which reuses a debug build's artifacts;
# PTE_PROFILE=release for an optimized one).
# Plain g++ rather than CMake: the wheel's CMake package needs CMake >= 3.28 for
# its imported targets, and the link line below is all those targets amount to.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
out="${2:-$root/examples/cpp-runner/build}"
if [ ! -x "$venv/bin/python" ]; then echo "skipped: no ExecuTorch venv at $venv"; exit 0; fi
et=$("$venv/bin/python" -c 'import importlib.util as u; print(list(u.find_spec("executorch").submodule_search_locations)[0])' 2>/dev/null) \
  || { echo "skipped: executorch is not installed in $venv"; exit 0; }
lib="$et/lib"
if [ ! -f "$lib/libexecutorch.so" ] || [ ! -d "$et/include/executorch" ]; then
  echo "skipped: this executorch wheel ships no C++ runtime ($lib/libexecutorch.so, $et/include)"; exit 0
fi

cxx="${CXX:-g++}"
command -v "$cxx" >/dev/null || { echo "error: no C++ compiler ($cxx); install g++" >&2; exit 1; }
if ! echo '#include <nlohmann/json.hpp>' | "$cxx" -std=c++17 -x c++ -fsyntax-only - 2>/dev/null; then
  echo "installing nlohmann-json3-dev (header-only JSON library)"
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    { apt-get update -qq && apt-get install -y -qq nlohmann-json3-dev; } >/dev/null \
      || { echo "error: apt-get install nlohmann-json3-dev failed" >&2; exit 1; }
  else
    echo "error: nlohmann/json.hpp is missing; install nlohmann-json3-dev (Debian) or nlohmann-json" >&2; exit 1
  fi
fi

# libexecutorch.so: runtime, Module, data loaders, .ptd data maps (primitive ops only).
# The other libraries only register operators / backends from static
# initializers: nothing references them, so keep them with --no-as-needed.
#   kernels_optimized  the CPU kernels (aten::add.out, ...); portable ops included
#   kernels_quantized  quantized_decomposed ops (opt-in in the CMake package only
#                      because it collides with the Python plugin; no Python here)
#   backend_xnnpack    the XnnpackBackend delegate
#   threadpool         needed by the two above (and ET_USE_THREADPOOL in headers)
regs=()
for name in kernels_optimized kernels_quantized backend_xnnpack threadpool; do
  [ -f "$lib/libexecutorch_$name.so" ] && regs+=("$lib/libexecutorch_$name.so")
done
defs=(-DC10_USING_CUSTOM_GENERATED_MACROS -DET_EVENT_TRACER_ENABLED)
[ -f "$lib/libexecutorch_threadpool.so" ] && defs+=(-DET_USE_THREADPOOL)

mkdir -p "$out"
PTE_PROFILE="${PTE_PROFILE:-dev}" "$root/scripts/install-c.sh" "$out/libpte" \
  || { echo "error: scripts/install-c.sh $out/libpte failed" >&2; exit 1; }
if command -v pkg-config >/dev/null; then
  read -r -a pte_flags <<<"$(PKG_CONFIG_PATH="$out/libpte/lib/pkgconfig" pkg-config --cflags --libs pte)"
else
  pte_flags=(-I"$out/libpte/include" -L"$out/libpte/lib" -lpte)
fi
set -x
"$cxx" -std=c++17 -O2 -Wall "${defs[@]}" \
  -isystem "$et/include" -isystem "$et/include/executorch/runtime/core/portable_type/c10" \
  "$root/examples/cpp-runner/pte_runner.cpp" -o "$out/pte_runner" \
  "$lib/libexecutorch.so" "${pte_flags[@]}" \
  -Wl,--push-state,--no-as-needed "${regs[@]}" -Wl,--pop-state \
  -Wl,--enable-new-dtags,-rpath,"$lib",-rpath,"$out/libpte/lib"
{ set +x; } 2>/dev/null
echo "built $out/pte_runner"
