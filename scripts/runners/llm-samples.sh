#!/usr/bin/env bash
# The LLM flow end to end with the stock ExecuTorch (examples/llm/):
#   1. a tiny stateful decoder (KV cache in mutable buffers, dynamic sequence
#      length) exported by the stock exporter to model.pte and (to_native) model.ptn;
#   2. teacher-forced samples recorded from the EAGER model with
#      pte_rs.recording.record (per sample: a prefill call, then nine one-token
#      decode calls; per-call tolerances on the later ones), added to the .ptn;
#   3. `pte samples check model.ptn -- python -m pte_rs.runner model.pte` passes;
#   4. negative controls: (a) one expected element moved by ten times its
#      tolerance fails, naming that element; (b) a runner that reloads the
#      program before every call fails every decode call and no prefill;
#      (c) .bpte bundles of the prefill get the same verdict from
#      `pte samples check X.bpte -- python -m pte_rs.runner model.pte` as from
#      the runtime's own bundled-program check.
#   5. the C++ runner (examples/cpp-runner) gives the Python runner's reports,
#      and its --replay mode (libpte reads the package, no checker) the
#      checker's verdicts on the same packages.
#   scripts/runners/llm-samples.sh [VENV]   (default ../.venv-executorch; exit 0
#   with a message when it lacks executorch). The package is installed into
#   target/py-llm (the venv is not modified). LLM_SAMPLES_OUT=DIR keeps the files.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
if [ ! -x "$venv/bin/python" ]; then echo "skipped: no Python venv at $venv"; exit 0; fi
if ! "$venv/bin/python" -c "import executorch.runtime, executorch.exir, torch" >/dev/null 2>&1; then
  echo "skipped: $venv has no executorch (pip install executorch)"; exit 0
fi
py="$venv/bin/python"
cargo build -q -p pte-cli --manifest-path "$root/Cargo.toml" || exit 2
pte="$root/target/debug/pte"
MATURIN_PEP517_ARGS="--profile dev" "$py" -m pip install --quiet --no-deps --upgrade --target "$root/target/py-llm" \
  "$root/crates/pte-py" || exit 2
export PYTHONPATH="$root/target/py-llm"
if [ -n "${LLM_SAMPLES_OUT:-}" ]; then out=$LLM_SAMPLES_OUT; mkdir -p "$out"
else out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; fi
ex="$root/examples/llm"
pass=0; fail=0
ok() { pass=$((pass+1)); echo "ok    $1"; }
bad() { fail=$((fail+1)); echo "FAIL  $1"; }
quiet() { grep -v -e '^I executorch:' -e '^\[cpuinfo' -e '^W12' -e 'UserWarning' -e 'warnings.warn' >&2; }
runner=("$py" -m pte_rs.runner "$out/model.pte")

# 1-2. Export, record, add.
"$py" "$ex/export.py" "$out" 2> >(quiet) || { echo "export failed"; exit 2; }
"$py" "$ex/record.py" "$out" 2> >(quiet) || { echo "recording failed"; exit 2; }
cp "$out/model.ptn" "$out/samples.ptn"
"$pte" samples add "$out/samples.ptn" "$out/teacher-forced" >/dev/null || bad "pte samples add (the recorded set)"
"$pte" verify "$out/samples.ptn" >/dev/null && ok "pte verify samples.ptn (the package with its samples)" \
  || bad "pte verify samples.ptn"
"$pte" samples list "$out/samples.ptn"

# 3. The runtime against the eager recording.
"$pte" samples check "$out/samples.ptn" -- "${runner[@]}" >"$out/check.txt" 2> >(quiet)
rc=$?
tail -1 "$out/check.txt"
[ "$rc" = 0 ] && ok "pte samples check samples.ptn -- python -m pte_rs.runner model.pte: exit 0 (20 calls)" \
  || bad "pte samples check samples.ptn -- runner: exit $rc, want 0 (see $out/check.txt)"

# 4a. One expected element moved by ten times its tolerance (sample 1, decode call 6, element 13).
rm -rf "$out/wrong-set"; cp -r "$out/teacher-forced" "$out/wrong-set"
"$py" "$ex/perturb.py" "$out/wrong-set" 1 6 0 13 10
cp "$out/samples.ptn" "$out/wrong.ptn"
"$pte" samples add --replace "$out/wrong.ptn" "$out/wrong-set" >/dev/null || bad "pte samples add --replace (wrong set)"
"$pte" samples check --json "$out/wrong.ptn" -- "${runner[@]}" >"$out/wrong.json" 2> >(quiet)
rc=$?
"$py" - "$out/wrong.json" "$rc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
f = d["failures"]
named = len(f) == 1 and (f[0]["sample"], f[0]["call"], f[0]["output"], f[0]["problem"]["mismatch"]["index"]) == (1, 6, 0, 13)
print(f[0]["message"] if f else "no failure reported")
sys.exit(0 if rc == 1 and named else 1)
PY
[ $? = 0 ] && ok "one element off by 10x its tolerance: exit 1, the one failure names sample 1 call 6 output 0 element 13" \
  || bad "the changed element: exit $rc, want 1 with exactly that element named (see $out/wrong.json)"

# 4b. A runner that forgets the KV cache between calls.
"$pte" samples check --json "$out/samples.ptn" -- "$py" "$ex/forgetful_runner.py" "$out/model.pte" \
  >"$out/forgetful.json" 2> >(quiet)
rc=$?
"$py" - "$out/forgetful.json" "$rc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
failed = {(f["sample"], f["call"]) for f in d["failures"]}
want = {(s, c) for s in (0, 1) for c in range(1, 10)}
print(f"forgetful runner: {len(failed)} failing calls: {sorted(failed)}")
sys.exit(0 if rc == 1 and failed == want else 1)
PY
[ $? = 0 ] && ok "forgetful runner (program reloaded before every call): exit 1, all 18 decode calls fail, both prefills pass" \
  || bad "forgetful runner: exit $rc, want 1 with exactly the decode calls failing (see $out/forgetful.json)"

# 4c. .bpte: our check through the runner against the runtime's own bundled check.
cp -r "$out/prefill-runtime" "$out/prefill-wrong"
"$py" "$ex/perturb.py" "$out/prefill-wrong" 0 0 0 37 10 >/dev/null
for b in prefill-runtime prefill prefill-wrong; do
  "$pte" bpte bundle "$out/model.pte" "$out/$b" "$out/$b.bpte" >/dev/null 2>&1 || bad "pte bpte bundle $b"
  "$pte" samples check "$out/$b.bpte" -- "${runner[@]}" >"$out/$b.check.txt" 2> >(quiet)
  ours=$?
  "$py" "$ex/bundled_check.py" "$out/$b.bpte" >"$out/$b.runtime.txt" 2> >(quiet)
  theirs=$?
  verdict() { [ "$1" = 0 ] && echo pass || echo fail; }
  case $b in
    prefill-runtime) want=pass; what="prefill recorded from the runtime" ;;
    prefill) want=any; what="prefill recorded from the eager model (runtime default tolerance)" ;;
    prefill-wrong) want=fail; what="runtime prefill, one element off by 10x the default tolerance" ;;
  esac
  if [ "$(verdict $ours)" = "$(verdict $theirs)" ] && { [ $want = any ] || [ "$(verdict $ours)" = $want ]; } \
     && [ "$ours" -le 1 ]; then
    ok "$b.bpte ($what): pte samples check $(verdict $ours), runtime bundled check $(verdict $theirs)"
  else
    bad "$b.bpte ($what): pte samples check exit $ours, runtime bundled check exit $theirs"
  fi
done

# A note, not a check: the runtime's bundled check runs a method's cases one
# after another on the same loaded method, so a stateful program's second case
# sees the first one's KV cache; samples (and so a .bpte's cases in `pte samples
# check`) each start from the initial state.
"$pte" bpte bundle "$out/model.pte" "$out/two-cases" "$out/two-cases.bpte" >/dev/null 2>&1
"$pte" samples check "$out/two-cases.bpte" -- "${runner[@]}" >"$out/two-cases.check.txt" 2> >(quiet)
ours=$?
"$py" "$ex/bundled_check.py" "$out/two-cases.bpte" >"$out/two-cases.runtime.txt" 2> >(quiet)
theirs=$?
echo "note  two-cases.bpte (prefill; one token at position 5 on empty caches): pte samples check exit $ours;" \
  "runtime bundled check exit $theirs: $(tr '\n' ';' <"$out/two-cases.runtime.txt" | cut -c1-160)"

# The same protocol from C++: the runner of examples/cpp-runner over the
# runtime's C++ library must give the Python runner's report, number for number
# (the runner's name aside), on the passing package and on the wrong one.
cpp="$out/cpp/pte_runner"
if "$root/scripts/runners/build-cpp-runner.sh" "$venv" "$out/cpp" >"$out/cpp-build.txt" 2>&1 && [ -x "$cpp" ]; then
  for pkg in samples wrong; do
    "$pte" samples check --json "$out/$pkg.ptn" -- "$cpp" "$out/model.pte" >"$out/$pkg.cpp.json" 2> >(quiet)
    crc=$?
    "$pte" samples check --json "$out/$pkg.ptn" -- "${runner[@]}" >"$out/$pkg.py.json" 2> >(quiet)
    prc=$?
    "$py" - "$out/$pkg.cpp.json" "$out/$pkg.py.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
a.pop("runner"); b.pop("runner")
sys.exit(0 if a == b else 1)
PY
    [ $? = 0 ] && [ "$crc" = "$prc" ] && ok "C++ runner on $pkg.ptn: exit $crc and the Python runner's report, number for number"       || bad "C++ runner on $pkg.ptn: exit $crc (Python $prc) or a report that differs ($out/$pkg.cpp.json)"
  done
  # --replay: the same runner reads the package itself with libpte, runs the
  # calls and compares; its verdict (exit code and failing calls) must be the
  # checker's with this runner. The .bpte bundles carry their program.
  for pkg in samples.ptn wrong.ptn prefill-runtime.bpte prefill.bpte prefill-wrong.bpte; do
    "$cpp" --replay "$out/$pkg" "$out/model.pte" >"$out/$pkg.replay.txt" 2> >(quiet)
    rrc=$?
    case $pkg in *.bpte) "$cpp" --replay "$out/$pkg" >"$out/$pkg.replay-own.txt" 2> >(quiet); orc=$? ;; *) orc=$rrc ;; esac
    "$pte" samples check --json "$out/$pkg" -- "$cpp" "$out/model.pte" >"$out/$pkg.cpp-check.json" 2> >(quiet)
    crc=$?
    "$py" - "$out/$pkg.replay.txt" "$out/$pkg.cpp-check.json" <<'PY'
import json, re, sys
lines = open(sys.argv[1]).read().splitlines()
ours = {tuple(map(int, m.groups())) for l in lines if l.startswith("FAIL")
        for m in [re.search(r" sample (\d+)(?: \(.*?\))? call (\d+)", l)] if m}
calls = sum(l.startswith(("ok", "FAIL")) for l in lines)
d = json.load(open(sys.argv[2]))
theirs = {(f["sample"], f["call"]) for f in d.get("failures", [])}
print(f"      replay: {lines[-1] if lines else 'no output'}")
sys.exit(0 if ours == theirs and calls > 0 else 1)
PY
    same=$?
    if [ "$same" = 0 ] && [ "$rrc" = "$crc" ] && [ "$orc" = "$crc" ] && [ "$crc" -le 1 ]; then
      ok "pte_runner --replay $pkg: exit $rrc and the same failing calls as pte samples check with the C++ runner"
    else
      bad "pte_runner --replay $pkg: exit $rrc (own program: $orc), the checker with the C++ runner $crc, or other failing calls ($out/$pkg.replay.txt)"
    fi
  done
else
  echo "note  C++ runner not built ($(tail -n 1 "$out/cpp-build.txt")): the C++ comparison is skipped"
fi

echo "$pass passed, $fail failed (files in $out)"
[ "$fail" = 0 ]
