#!/usr/bin/env bash
# Runs the tests that exercise the `unsafe` that meets file bytes (pte-schema's
# fenced module: the flatc-generated accessors, the unchecked root, the aligned
# byte-vector writer) under Miri:
# every corpus program is verified, decoded, re-encoded and decoded again,
# and every .pte/.bpte/.ptd regression file goes through the fuzz bodies.
# Needs a nightly toolchain with the miri component (rustup component add
# --toolchain nightly miri rust-src). Takes about 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}"
cargo +nightly miri test -p pte-schema --test it corpus_json::
cargo +nightly miri test -p pte-fuzz-bodies --test it regressions_flatbuffer::
