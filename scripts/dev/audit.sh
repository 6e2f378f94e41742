#!/usr/bin/env bash
# Checks both lock files (the workspace and fuzz/) against the RustSec
# advisory database with cargo-audit (`cargo install cargo-audit --locked`).
# Warnings (unmaintained, unsound, yanked) count as failures.
# Usage: scripts/dev/audit.sh [ADVISORY_DB_DIR]
# With a directory, that checkout of github.com/rustsec/advisory-db is used
# as is (for machines that cannot reach GitHub); without one, cargo-audit
# fetches the database itself.
set -euo pipefail
cd "$(dirname "$0")/../.."
args=(-D warnings)
[ $# -gt 0 ] && args+=(--db "$1" --no-fetch)
cargo audit "${args[@]}"
(cd fuzz && cargo audit "${args[@]}")
echo "no advisory for the workspace or fuzz/ dependency trees"
