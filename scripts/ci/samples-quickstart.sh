#!/usr/bin/env bash
# docs/samples.md's quick start ("Check a model on the runtime in five
# minutes") run as written: the commands come from the section's ```sh blocks,
# so the doc cannot drift from what works.
#
#   scripts/ci/samples-quickstart.sh [VENV]   (default ../.venv-executorch)
#
# The blocks run in order in one bash session from the repository root. A
# block that mentions `python`, `pip` or `VENV` needs the runtime; without a
# VENV holding executorch those are skipped with a message and the others
# (building `pte`, `pte samples list`, `pte verify` on the shipped package)
# still run. Checks: every command line ends with the status its `# exit N`
# comment gives (0 when none), and the lines of the ```text block after a
# ```sh block appear, in order and whole, in what that block printed (stdout
# and stderr); a line `...` stands for any lines, and a line ending in ` ...`
# for any line that starts with what comes before.
#
# Two stand-ins keep the run fast and leave VENV untouched, so the doc's
# commands themselves stay literal: the doc's `VENV=...` line is pointed at
# target/samples-quickstart/venv, and `python3 -m venv DIR` makes DIR with
# VENV's interpreter and VENV's packages visible through a .pth file, so the
# doc's `pip install executorch==...` must find that release already there
# (the run fails if torch or executorch lands in the new venv: the pin then
# differs from VENV's). MATURIN_PEP517_ARGS=--profile dev makes the doc's
# `pip install ./crates/pte-py` reuse the dev build.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
venv="${1:-$root/../.venv-executorch}"
doc="$root/docs/samples.md"
heading="## Check a model on the runtime in five minutes"
cd "$root" || exit 2
work="$root/target/samples-quickstart"
rm -rf "$work"; mkdir -p "$work" || exit 2

# The section's fenced blocks, one file each (NN.sh, NN.text), numbered in
# the order they appear.
awk -v heading="$heading" -v dir="$work" '
  $0 == heading { on = 1; next }
  on && /^## / { exit }
  !on { next }
  fence == "" && /^```[a-z]+$/ { n++; fence = substr($0, 4); f = sprintf("%s/%02d.%s", dir, n, fence); printf "" > f; next }
  fence != "" && /^```$/ { close(f); fence = ""; next }
  fence != "" { print > f }
' "$doc"
blocks=("$work"/*.sh)
if [ ! -f "${blocks[0]}" ]; then echo "FAIL  no \`\`\`sh block under \"$heading\" in docs/samples.md"; exit 1; fi

has_venv=0
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import executorch.runtime, torch" >/dev/null 2>&1; then
  has_venv=1
else
  echo "note  no ExecuTorch venv at $venv: the blocks that need Python are skipped (pip install executorch)"
fi

# The session: stand-ins first, then each block with its output captured and
# every command line followed by its status check.
session="$work/session.bash"
{
  cat <<EOF
__pass=0; __fail=0
__check() { # status want what
  if [ "\$1" = "\$2" ]; then __pass=\$((__pass+1)); echo "ok    exit \$1: \$3" >&3
  else __fail=\$((__fail+1)); echo "FAIL  exit \$1, the doc says \$2: \$3" >&3; fi
}
export MATURIN_PEP517_ARGS="--profile dev"
__base=\$("$venv/bin/python" -c 'import sys; print(sys._base_executable)' 2>/dev/null)
__site=\$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' 2>/dev/null)
python3() {
  if [ "\${1:-}" = -m ] && [ "\${2:-}" = venv ]; then
    "\$__base" "\$@" || return
    local dir="\${!#}"
    "\$dir/bin/python" -c 'import sysconfig, sys; open(sysconfig.get_paths()["purelib"] + "/executorch-venv.pth", "w").write("import site; site.addsitedir(%r)\n" % sys.argv[1])' "\$__site"
  else
    command python3 "\$@"
  fi
}
EOF
  for b in "${blocks[@]}"; do
    name=$(basename "$b" .sh)
    if [ "$has_venv" = 0 ] && grep -qwE 'python|python3|pip|VENV' "$b"; then
      echo "echo 'skip  block $name (needs the ExecuTorch venv): $(head -n 1 "$b" | tr -d "'")' >&3"
      continue
    fi
    echo "{"
    while IFS= read -r line || [ -n "$line" ]; do
      case "$line" in ''|'#'*) continue ;; esac
      case "$line" in *'\') echo "echo 'FAIL  a continued line in block $name' >&3; __fail=\$((__fail+1))"; continue ;; esac
      want=0
      if [[ "$line" =~ \#\ exit\ ([0-9]+)$ ]]; then want=${BASH_REMATCH[1]}; fi
      if [[ "$line" =~ ^VENV= ]]; then line="VENV=$work/venv"; fi
      printf '%s\n' "$line"
      printf '__check $? %s %q\n' "$want" "$(printf '%s' "$line" | cut -c1-110)"
    done <"$b"
    echo "} >$work/$name.out 2>&1"
  done
  echo 'echo "$__pass $__fail" >'"$work/counts"
} >"$session"

bash "$session" 3>&1
read -r pass fail <"$work/counts" 2>/dev/null || { pass=0; fail=1; echo "FAIL  the session did not finish"; }

# Every ```text block after a ```sh block: its lines, in order, in that block's output.
for t in "$work"/*.text; do
  n=$(basename "$t" .text)
  prev=$(printf '%02d' $((10#$n - 1)))
  out="$work/$prev.out"
  [ -f "$work/$prev.sh" ] || { fail=$((fail+1)); echo "FAIL  text block $n follows no sh block"; continue; }
  [ -f "$out" ] || continue # skipped
  missing=$(awk '
    NR == FNR { if ($0 != "...") want[++n] = $0; next }
    i < n {
      w = want[i + 1]
      if (w ~ / [.][.][.]$/) { p = substr(w, 1, length(w) - 3); hit = substr($0, 1, length(p)) == p } else hit = $0 == w
      if (hit) i++
    }
    END { if (i < n) print want[i + 1] }' "$t" "$out")
  if [ -z "$missing" ]; then pass=$((pass+1)); echo "ok    block $prev printed the $(wc -l <"$t") documented lines"
  else fail=$((fail+1)); echo "FAIL  block $prev did not print, in order: $missing (see $out)"; fi
done

if [ "$has_venv" = 1 ]; then
  for pkg in torch executorch; do
    if compgen -G "$work/venv/lib/python*/site-packages/$pkg" >/dev/null; then
      fail=$((fail+1)); echo "FAIL  $pkg was installed into the new venv: the doc's pin is not $venv's release"
    fi
  done
fi
echo "$pass passed, $fail failed (files in $work)"
[ "$fail" = 0 ]
