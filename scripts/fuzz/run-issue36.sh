#!/usr/bin/env bash
# The issue-36 campaign: three harnesses (fb_verify, et_load, exir) each run
# twice for SECONDS of wall time (default 3600), once with our structure-aware
# mutator (crates/pte-fuzz) and once with libFuzzer's byte mutator, from the
# same seeds with the same flags, all six at once under `nice -n 19`, in the
# background. Everything goes under RUNS (default /work/fuzz-runs):
#   RUNS/NAME/corpus      the run's corpus (starts as a copy of the seeds)
#   RUNS/NAME/artifacts   crash-*, timeout-*, oom-* reproducers
#   RUNS/NAME/log         libFuzzer / atheris output of every segment
#   RUNS/NAME/time        wall, user and system seconds of every segment
# The C++ runs use libFuzzer's fork mode (-fork=1 -ignore_crashes=1 ...): a
# crash, timeout or out-of-memory input is saved and fuzzing goes on (the
# stock runtime's XNNPACK backend crashes within seconds otherwise). atheris
# has no fork mode: a crash there ends the process, and the run starts again
# on its corpus for the time left, so every run uses its whole wall time.
# Needs: scripts/fuzz/build-harnesses.sh RUNS/bin, scripts/fuzz/seeds.sh
# RUNS/seeds, atheris in the ExecuTorch venv, and pte_rs (with pte_rs.fuzz)
# installed under RUNS/pylib. Summarize with scripts/fuzz/report-runs.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${RUNS:-/work/fuzz-runs}
seconds=${SECONDS_PER_RUN:-3600}
venv=${VENV:-/work/.venv-executorch}
# ONLY=HARNESS (fb_verify, et_load or exir) starts that harness's two runs only.
only=${ONLY:-}
# Copies, so the runs do not depend on the worktree staying as it is.
cp "$root/scripts/fuzz/harness/exir_deserialize.py" "$root/crates/pte-fuzz/pte.dict" "$runs/bin/"
common=(-dict=$runs/bin/pte.dict -max_len=1048576 -rss_limit_mb=2048 -print_final_stats=1 -close_fd_mask=3)

one() { # NAME TIMEOUT COMMAND...
  local name=$1 timeout=$2; shift 2
  local dir=$runs/$name
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp -n "$runs"/seeds/pte/* "$dir/corpus/"
  local end=$(( $(date +%s) + seconds ))
  echo "start $(date -u +%FT%TZ) end $(date -u -d @$end +%FT%TZ) seconds $seconds" >"$dir/status"
  while [ "$(date +%s)" -lt $((end - 5)) ]; do
    local left=$(( end - $(date +%s) ))
    echo "=== segment $(date -u +%FT%TZ) left ${left}s" >>"$dir/log"
    /usr/bin/time -a -o "$dir/time" -f "%e %U %S" \
      env PTE_FUZZ_FINDINGS="$dir/findings" nice -n 19 "$@" "${common[@]}" -timeout="$timeout" -max_total_time="$left" \
      -artifact_prefix="$dir/artifacts/" "$dir/corpus" >>"$dir/log" 2>&1 || true
  done
  echo "done $(date -u +%FT%TZ)" >>"$dir/status"
}

export PYTHONPATH=$runs/pylib
# A failed allocation returns null, as malloc would, instead of ending the
# process inside ASan (an oversized one is still an oom- finding).
export ASAN_OPTIONS=allocator_may_return_null=1
fork="-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
start() { # HARNESS ARGS...
  local h=$1; shift
  [ -z "$only" ] || [ "$only" = "$h" ] || return 0
  nohup bash -c "$(declare -f one); runs=$runs seconds=$seconds; common=(${common[*]}); one $*" >/dev/null 2>&1 &
}
for m in pte bytes; do
  start fb_verify fb_verify-$m 25 $runs/bin/fb_verify-$m $fork
  start et_load et_load-$m 25 $runs/bin/et_load-$m $fork
  start exir exir-$m 60 $venv/bin/python $runs/bin/exir_deserialize.py --mutator=$m
done
echo "runs ${only:-(all six)} started under $runs; they end at $(date -u -d @$(( $(date +%s) + seconds )) +%FT%TZ)"
