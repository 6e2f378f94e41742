#!/usr/bin/env bash
# Regenerates tests/writers/exir-<version>/ with old ExecuTorch releases from
# PyPI (their exporters lay files out differently from 1.5.1: a 24-byte
# extended header without segment_data_size, segments on 4096 (0.3), legacy
# inline constants (0.3), ...). Each release needs its own venv and torch:
#
#   scripts/writers/old-exporters.sh            export with every venv present
#   scripts/writers/old-exporters.sh --setup    first create the missing venvs (~6 GB each)
#
# Venvs live outside the repo: $ET_OLD_VENVS_DIR (default ../venvs), as et03
# (executorch 0.3.0, torch 2.4.0), et04 (0.4.0, torch 2.5.0) and et07 (0.7.0,
# torch 2.8.0).
# A missing venv is skipped with a message, never an error.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dir="${ET_OLD_VENVS_DIR:-$root/../venvs}"

# name  executorch-version  requirements (torch pinned to what that release was built against;
# the wheel's own pins also pull torchaudio/torchvision, which export does not need)
releases=(
  "et03|0.3.0|torch==2.4.0 numpy<2 pandas"
  "et04|0.4.0|torch==2.5.0 numpy==1.23.2"
  "et07|0.7.0|torch==2.8.0 torchao==0.12.0 numpy>=2 typing-extensions>=4.10 hydra-core omegaconf"
)
common="flatbuffers pyyaml ruamel.yaml sympy tabulate packaging typing-extensions mpmath==1.3.0 expecttest"

setup() { # venv version requirements
  local venv=$1 version=$2 reqs=$3
  [ -x "$venv/bin/python" ] && return 0
  python3 -m venv "$venv" || return 1
  "$venv/bin/pip" install -q --upgrade pip || return 1
  "$venv/bin/pip" install -q --no-deps "executorch==$version" || return 1
  # shellcheck disable=SC2086 # the requirement lists are meant to split
  "$venv/bin/pip" install -q $reqs $common
}

status=0
for r in "${releases[@]}"; do
  IFS='|' read -r name version reqs <<<"$r"
  venv="$dir/$name"
  if [ "${1:-}" = "--setup" ]; then
    setup "$venv" "$version" "$reqs" || { echo "FAIL  setting up $venv"; status=1; continue; }
  fi
  if [ ! -x "$venv/bin/python" ]; then
    echo "skipped: no venv at $venv (executorch $version); run with --setup"
    continue
  fi
  out="$root/tests/writers/exir-$version"
  "$venv/bin/python" "$root/scripts/writers/export_old.py" "$out" 2>/dev/null | grep -v '^executorch ' \
    || { echo "FAIL  export with executorch $version"; status=1; }
done
exit "$status"
