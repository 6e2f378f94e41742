#!/usr/bin/env bash
# The operators each ExecuTorch release's stock kernel libraries register, as
# its wheel reports them (`_get_operator_names()` of the pybindings, the same
# set `Runtime.get().operator_registry.operator_names` gives), written as
# crates/pte-analysis/data/operators-<release>.txt: one `name.overload` a line,
# sorted, after a `#` header naming the release and the torch it ran with.
# `pte verify` (rule needs.operator) and `pte ops --runtime` read these files,
# embedded at build time; nothing else is read at run time.
#
#   scripts/runners/operators-by-release.sh [VENV]...
#     (default: ../.venv-executorch ../.venv-et100 ../.venv-et131; make them
#     with scripts/runners/install-releases.sh). A VENV without executorch is
#     skipped with a message; exit 0 unless a present venv fails.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out="$root/crates/pte-analysis/data"
if [ $# -eq 0 ]; then
  set -- "$root/../.venv-executorch" "$root/../.venv-et100" "$root/../.venv-et131"
fi
status=0
for venv in "$@"; do
  if [ ! -x "$venv/bin/python" ]; then echo "skipped: no Python venv at $venv"; continue; fi
  # stdout is the data; the bindings' import chatter goes to stderr (dropped)
  if ! text=$("$venv/bin/python" - 2>/dev/null <<'PY'
import sys
import torch
from executorch.version import __version__ as v
from executorch.extension.pybindings import portable_lib as lib
names = sorted(set(lib._get_operator_names()))
release = v.split("+")[0]
print(release)
print(f"# ExecuTorch {release}: the operators its stock Python runtime (portable_lib) registers,")
print(f"# from _get_operator_names() with torch {torch.__version__.split('+')[0]}; {len(names)} names.")
print("# Written by scripts/runners/operators-by-release.sh; do not edit.")
for n in names:
    print(n)
PY
  ); then
    echo "skipped: $venv has no executorch pybindings"; continue
  fi
  release=${text%%$'\n'*}
  if ! [[ $release =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then echo "FAIL $venv: release $release"; status=1; continue; fi
  printf '%s\n' "${text#*$'\n'}" >"$out/operators-$release.txt"
  echo "$release: $(grep -vc '^#' "$out/operators-$release.txt") operators -> crates/pte-analysis/data/operators-$release.txt"
done
exit $status
