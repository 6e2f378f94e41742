#!/usr/bin/env bash
# `pte report` pages in a real browser: headless Chromium (Debian's package)
# driven by Playwright (PyPI, no browser download) opens each page from
# file:// and checks it against the page contract (tests/browser/README.md):
# sections and counts against `pte info/verify --json`, no network request,
# no console or page error, the search box, first paint; screenshots go to
# target/report-screenshots/.
#
#   scripts/ci/report-browser.sh                 corpus reports + the fixture
#   scripts/ci/report-browser.sh --fixture       only tests/browser/fixture.html
#   scripts/ci/report-browser.sh --update-docs   also copy two screenshots to docs/images/
#
# Without root or apt-get (and no Chromium already there) it skips with a
# message; where it can install, it runs. It needs no ExecuTorch venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
fixture_only=0
update_docs=0
for arg in "$@"; do
  case "$arg" in
    --fixture) fixture_only=1 ;;
    --update-docs) update_docs=1 ;;
    *) echo "usage: $0 [--fixture] [--update-docs]" >&2; exit 2 ;;
  esac
done
skip() {
  echo "!!! report browser tests SKIPPED: $* !!!" >&2
  exit 0
}
started=$SECONDS
# no __pycache__ folders in tests/browser
export PYTHONDONTWRITEBYTECODE=1

if ! command -v python3 >/dev/null 2>&1; then
  skip "python3 not available"
fi
chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    skip "$chromium is absent and cannot be installed here (needs root and apt-get)"
  fi
  # fonts-liberation is only a recommendation of chromium, and without a font
  # the screenshots have no text
  echo "installing Debian's chromium"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium fonts-liberation >/dev/null
  if [ ! -x "$chromium" ]; then
    echo "apt-get installed chromium but $chromium is not there" >&2
    exit 1
  fi
fi
echo "$("$chromium" --version 2>/dev/null)"

# Playwright drives the system Chromium (executable_path); its own browser
# download is never run.
venv=target/browser-venv
if ! "$venv/bin/python" -c "import playwright, pytest" >/dev/null 2>&1; then
  python3 -m venv --clear "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet "playwright==1.65.*" pytest
fi
installed=$SECONDS
echo "browser tools ready in $((installed - started)) s"

cargo build --quiet -p pte-cli
# PTE_BIN: another build of pte to report with (the default is this one)
pte="${PTE_BIN:-$PWD/target/debug/pte}"
pages=target/report-pages
manifest=""
if [ "$fixture_only" -eq 1 ]; then
  echo "fixture mode: checking tests/browser/fixture.html only"
elif ! "$pte" report --help >/dev/null 2>&1; then
  echo "!!! \`pte report\` is not in this build: checking tests/browser/fixture.html only !!!" >&2
  fixture_only=1
else
  "$venv/bin/python" tests/browser/make_reports.py "$pte" "$pages"
  manifest="$PWD/$pages/manifest.json"
fi

shots="$PWD/target/report-screenshots"
rm -rf "$shots"
# The suite has tests on purpose: pytest's "no tests collected" (5) is a failure.
set +e
REPORT_MANIFEST="$manifest" REPORT_SHOTS="$shots" CHROMIUM="$chromium" \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/browser
rc=$?
set -e
echo "report browser tests: $((SECONDS - installed)) s of run, $((SECONDS - started)) s in all"
if [ "$rc" -ne 0 ]; then
  echo "browser pytest failed with exit code $rc (5 means no tests were collected)" >&2
  exit "$rc"
fi

if [ "$update_docs" -eq 1 ]; then
  if [ "$fixture_only" -eq 1 ]; then
    echo "--update-docs needs real reports (pte report), not the fixture" >&2
    exit 2
  fi
  mkdir -p docs/images
  cp "$shots/plain-graph.png" docs/images/report-graph.png
  cp "$shots/deep_program.png" docs/images/report-overview.png
  echo "updated docs/images/report-graph.png and docs/images/report-overview.png"
fi
