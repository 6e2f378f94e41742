#!/usr/bin/env bash
# Installs ExecuTorch releases, each in a venv of its own, with the torch its
# wheel was built against and this checkout's pte_rs beside it, so that
# `VENV/bin/python -m pte_rs.runner PROGRAM.pte` runs that release's stock
# runtime (docs/samples.md, "Upgrading the runtime").
#
#   scripts/runners/install-releases.sh [RELEASE[=TORCH]]...
#     default: 1.0.0 1.3.1 1.5.1; VENV_ROOT (default: the checkout's parent)
#     gets .venv-et<release without dots> (1.5.1: .venv-executorch, the venv
#     the other scripts default to).
#
# Each release pins its torch, and only the one it was built with works
# (the wheel's own requirement is loose or absent): 1.0.0 needs torch 2.9.0,
# 1.3.1 torch 2.12.0, 1.5.1 torch 2.15.0 (table below; give RELEASE=TORCH for
# another). Measured on Linux x86_64, Python 3.11: each venv takes 5 to 6 GB
# (torch with its CUDA libraries is most of it) and 5 to 10 minutes to
# install, mostly download; pte_rs is built once (maturin, a few minutes)
# and installed into each.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv_root=${VENV_ROOT:-$(dirname "$root")}
declare -A torch_of=([1.0.0]=2.9.0 [1.0.1]=2.9.0 [1.3.1]=2.12.0 [1.5.0]=2.15.0 [1.5.1]=2.15.0)
[ $# -gt 0 ] || set -- 1.0.0 1.3.1 1.5.1
python=${PYTHON:-python3}
command -v "$python" >/dev/null || { echo "skipped: no $python"; exit 0; }

# the wheel of this checkout, built once
wheels="$root/target/wheels"
if ! ls "$wheels"/pte_rs-*.whl >/dev/null 2>&1; then
  build="$root/target/maturin-venv"
  "$python" -m venv "$build"
  "$build/bin/pip" install -q maturin
  "$build/bin/maturin" build -q --release -m "$root/crates/pte-py/Cargo.toml" -o "$wheels"
fi
wheel=$(ls -t "$wheels"/pte_rs-*.whl | head -1)

for spec in "$@"; do
  release=${spec%%=*}
  torch=${spec#*=}
  [ "$torch" != "$spec" ] || torch=${torch_of[$release]:-}
  if [ -z "$torch" ]; then echo "FAIL $release: which torch? give $release=TORCH_VERSION"; exit 2; fi
  case $release in
    1.5.1) venv="$venv_root/.venv-executorch" ;;
    *) venv="$venv_root/.venv-et${release//./}" ;;
  esac
  start=$SECONDS
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  "$venv/bin/pip" install -q "executorch==$release" "torch==$torch" "safetensors"
  "$venv/bin/pip" install -q --force-reinstall --no-deps "$wheel"
  "$venv/bin/python" -c 'import numpy' 2>/dev/null || "$venv/bin/pip" install -q numpy
  version=$("$venv/bin/python" -c 'from executorch.version import __version__ as v; print(v)' 2>/dev/null)
  echo "$release: $venv (executorch $version, torch $torch, $(du -sh "$venv" | cut -f1), $((SECONDS - start)) s)"
done
