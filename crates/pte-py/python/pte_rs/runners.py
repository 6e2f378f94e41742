"""Engines for :mod:`pte_rs.runner`: runtimes that run a program's methods.

:class:`ExecuTorch` runs a ``.pte`` in ExecuTorch's stock Python runtime
(``executorch.runtime``). It needs the ``executorch`` package (and torch);
without it, constructing one raises :class:`ExecuTorchNotInstalled`.
"""

from __future__ import annotations

import os
from typing import Any, List, Optional, Sequence, Union

import numpy as np

from ._protocol import as_value, to_torch

__all__ = ["ExecuTorch", "ExecuTorchNotInstalled"]

PathLike = Union[str, "os.PathLike[str]"]


class ExecuTorchNotInstalled(RuntimeError, ImportError):
    """The ``executorch`` package (or torch) cannot be imported: ``pip install executorch``.

    A :class:`RuntimeError` and an :class:`ImportError`.
    """


def _to_runtime(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return to_torch(v)
    if isinstance(v, list):
        return [_to_runtime(x) for x in v]
    return v


class ExecuTorch:
    """A ``.pte`` program in ExecuTorch's Python runtime, as a runner engine.

    ``ptd``: the ``.pte``'s external data file (executorch 1.5.1's
    ``Runtime.load_program`` takes one, as ``data_path``; bring several into the
    program first with ``pte internalize``). ``verification``: ``"internal"``
    (the runtime's default, ``Verification.InternalConsistency``) or ``"minimal"``.

    State: a loaded method keeps its mutable buffers (KV caches, counters)
    from call to call. :meth:`fresh` gives the initial state by loading the
    program again: the runtime's ``Program`` caches every method it loads and
    shares planned memory among a program's methods, so asking the same
    ``Program`` for a method again would hand back the used one. The reload
    happens only when a call ran since the last load.
    """

    def __init__(self, program: PathLike, ptd: Union[None, PathLike, Sequence[PathLike]] = None, *,
                 verification: str = "internal") -> None:
        try:
            import torch  # noqa: F401
            from executorch.runtime import Runtime, Verification
        except ImportError as e:
            raise ExecuTorchNotInstalled(
                f"the ExecuTorch runner needs the executorch package: pip install executorch "
                f"({type(e).__name__}: {e})") from e
        try:
            from executorch.version import __version__ as version
        except ImportError:
            version = "unknown"
        ptds = [] if ptd is None else [ptd] if isinstance(ptd, (str, os.PathLike)) else list(ptd)
        if len(ptds) > 1:
            raise ValueError(f"executorch's Python runtime loads one .ptd with a program (data_path), got "
                             f"{len(ptds)}: {', '.join(map(os.fspath, ptds))}; bring them into the program "
                             "with `pte internalize PROGRAM.pte DATA.ptd... OUT.pte` first")
        if verification not in ("internal", "minimal"):
            raise ValueError(f"verification must be 'internal' or 'minimal', not {verification!r}")
        self.path = os.fspath(program)
        self.ptd = os.fspath(ptds[0]) if ptds else None
        self.name = f"executorch-python {version}"
        self._runtime = Runtime.get()
        self._verification = (Verification.InternalConsistency if verification == "internal"
                              else Verification.Minimal)
        self._program: Any = None
        self._used = True
        #: How many times the program was loaded (1 + one per fresh() after a call).
        self.loads = 0
        self.fresh()
        self._names = sorted(self._program.method_names)

    def _load(self) -> Any:
        return self._runtime.load_program(self.path, verification=self._verification, data_path=self.ptd)

    def methods(self) -> List[str]:
        """The program's method names."""
        return list(self._names)

    def fresh(self) -> None:
        """The initial state: the program is loaded again if any method ran since it was loaded."""
        if not self._used:
            return
        self._program = None  # release the used methods and their memory first
        self._program = self._load()
        self._used = False
        self.loads += 1

    def call(self, method: str, inputs: Sequence[Any]) -> List[Any]:
        """Runs ``method`` once on the current state; numpy (and scalar) inputs, numpy outputs."""
        if method not in self._names:
            raise KeyError(f"the program has no method {method!r} (it has: {', '.join(self._names)})")
        m = self._program.load_method(method)
        self._used = True
        outputs = m.execute([_to_runtime(as_value(x)) for x in inputs])
        return [as_value(o) for o in outputs]
