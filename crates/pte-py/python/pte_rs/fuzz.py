"""The structure-aware mutator for fuzzing parsers of ExecuTorch files.

``mutate`` and ``cross_over`` read the input as a .pte, .ptd, .bpte or .ptn
file when they can and change it the way a producer bug or an attacker would
(a corruption class, a field at an edge value, a segment table entry, a
fresh generated program, a package member), else edit bytes. Both are
deterministic for a seed and never return more than the size limit.

With atheris::

    import atheris
    from pte_rs import fuzz
    atheris.Setup(sys.argv, test_one_input,
                  custom_mutator=fuzz.mutate, custom_crossover=fuzz.cross_over)

See docs/fuzzing-other-parsers.md.
"""

from __future__ import annotations

from ._native import cross_over, mutate

__all__ = ["mutate", "cross_over"]
