"""pte_rs.fuzz: the structure-aware mutator for atheris (custom_mutator and
custom_crossover signatures), deterministic and bounded."""

import hashlib
import inspect
import os

from pte_rs import fuzz

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")


def corpus(name: str) -> bytes:
    with open(os.path.join(ROOT, "tests", "corpus", name), "rb") as f:
        return f.read()


def test_mutate_is_deterministic_bounded_and_changes_inputs():
    inputs = [corpus("add/model.pte"), corpus("multi_method/model.pte"), corpus("native_ptn/model.ptn"), b"text"]
    digest = []
    changed = 0
    for data in inputs:
        for seed in range(300):
            limit = len(data) + 64 if seed % 2 else len(data)
            out = fuzz.mutate(data, limit, seed)
            assert isinstance(out, bytes)
            assert len(out) <= limit
            assert out == fuzz.mutate(data, limit, seed)
            changed += out != data
            digest.append(hashlib.sha256(out).hexdigest())
    assert changed > 0.99 * len(digest)
    assert len(set(digest)) > len(digest) // 2


def test_cross_over_is_deterministic_and_bounded():
    a, b = corpus("add/model.pte"), corpus("linear/model.pte")
    for seed in range(200):
        for limit in (0, 10, max(len(a), len(b)) + 100):
            child = fuzz.cross_over(a, b, limit, seed)
            assert len(child) <= limit
            assert child == fuzz.cross_over(a, b, limit, seed)


def test_signatures_match_atheris():
    # atheris calls custom_mutator(data, max_size, seed) and
    # custom_crossover(data1, data2, max_out_size, seed) positionally.
    out = fuzz.mutate(b"\0\0\0\0ET12", 64, 2**32 - 1)
    assert len(out) <= 64
    assert len(fuzz.cross_over(b"abc", b"defg", 5, 0)) <= 5
    assert fuzz.__all__ == ["mutate", "cross_over"]
    assert callable(fuzz.mutate) and inspect.isbuiltin(fuzz.mutate)


def test_empty_inputs_and_limits():
    assert fuzz.mutate(b"", 0, 1) == b""
    assert len(fuzz.mutate(b"", 8, 1)) <= 8
    assert fuzz.cross_over(b"", b"", 0, 1) == b""
