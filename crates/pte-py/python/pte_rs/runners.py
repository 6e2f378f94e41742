"""Engines for :mod:`pte_rs.runner`: runtimes that run a program's methods.

:class:`ExecuTorch` runs a ``.pte`` in ExecuTorch's stock Python runtime
(``executorch.runtime``). It needs the ``executorch`` package (and torch);
without it, constructing one raises :class:`ExecuTorchNotInstalled`.
:class:`InProcess` hands a runtime living in this process to
:func:`pte_rs.samples.verify` with nothing serialized in between.
"""

from __future__ import annotations

import inspect
import os
from typing import Any, Callable, List, Optional, Sequence, Union

import numpy as np

from . import _error, _path
from . import open as _open
from ._protocol import as_value, to_torch

__all__ = ["ExecuTorch", "ExecuTorchNotInstalled", "InProcess"]

PathLike = Union[str, bytes, "os.PathLike[str]"]


class ExecuTorchNotInstalled(RuntimeError, ImportError):
    """The ``executorch`` package (or torch) cannot be imported: ``pip install executorch``.

    A :class:`RuntimeError` and an :class:`ImportError`.
    """


def _takes(f: Any, keyword: str) -> bool:
    """Whether the callable ``f`` accepts the keyword argument ``keyword``."""
    try:
        params = inspect.signature(f).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature
        return False
    return any(p.name == keyword or p.kind is p.VAR_KEYWORD for p in params)


class _Unsupported(RuntimeError):
    """What the installed release cannot do, said in one line."""


class _ModuleMethod:
    """A method of a bindings module, as ``Program.load_method`` returns one."""

    def __init__(self, module: Any, name: str) -> None:
        self._module, self._name = module, name

    def execute(self, inputs: Sequence[Any]) -> List[Any]:
        return list(self._module.run_method(self._name, tuple(inputs)))


class _ModuleProgram:
    """A program with a ``.ptd`` in a release whose ``Runtime.load_program``
    takes no data file (1.0 to 1.4): the bindings' ``_load_for_executorch``
    does. The module holds its loaded methods, so a fresh state is a new one."""

    def __init__(self, path: str, ptd: str, verification: Any, release: str) -> None:
        try:
            from executorch.extension.pybindings import portable_lib
        except ImportError as e:
            raise _Unsupported(f"{release} cannot load a .ptd: no pybindings ({e})") from e
        load = getattr(portable_lib, "_load_for_executorch", None)
        try:
            # a pybind11 function shows no signature: a keyword it lacks is a TypeError
            self._module = None if load is None else load(path, data_path=ptd, program_verification=verification)
        except TypeError as e:
            if "data_path" not in str(e) and "incompatible function arguments" not in str(e):
                raise
            load = None
        if load is None:
            raise _Unsupported(f"{release} cannot load a .ptd with a program: neither Runtime.load_program nor "
                               "_load_for_executorch takes data_path; bring the data into the program with "
                               "`pte internalize PROGRAM.pte DATA.ptd OUT.pte`")
        self.method_names = set(self._module.method_names())

    def load_method(self, name: str) -> _ModuleMethod:
        return _ModuleMethod(self._module, name)


def _to_runtime(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return to_torch(v)
    if isinstance(v, list):
        return [_to_runtime(x) for x in v]
    return v


def in_process_of(engine: Any) -> Optional["InProcess"]:
    """The :class:`InProcess` form an engine offers (its ``in_process()``), or None.

    Only where that form stands for the engine's own ``call`` and ``fresh``: a subclass
    that overrides either (say, to reload the program before every call) changes what a
    call does, so it is driven through its methods, not around them. The one rule the
    runner (``python -m pte_rs.runner``) and :func:`pte_rs.samples.verify` follow.
    """
    if isinstance(engine, InProcess):
        return engine
    maker = getattr(engine, "in_process", None)
    if not callable(maker):
        return None
    mro = type(engine).__mro__

    def depth(name: str) -> int:
        # how far up the class chain `name` is defined (the MRO's length when nowhere)
        return next((i for i, k in enumerate(mro) if name in vars(k)), len(mro))

    offered = depth("in_process")
    if depth("call") < offered or depth("fresh") < offered:
        return None
    fast = maker()
    return fast if isinstance(fast, InProcess) else None


class InProcess:
    """A runtime in this process, for :func:`pte_rs.samples.verify`: its ``execute`` is called
    with tensors made straight from the recorded bytes and its outputs are read as returned,
    with no protocol, JSON or safetensors in between.

    ``execute(method, inputs) -> outputs``: one call on the current state; ``inputs`` in the
    method's order, tensors as torch tensors (``tensors="torch"``, the default: what the stock
    runtime's ``Method.execute`` takes) or numpy arrays (``tensors="numpy"``), each a fresh
    writable copy of the recorded bytes; scalars as Python values. Outputs: torch tensors,
    numpy arrays, lists of them, scalars. ``fresh()``: drop all state (the next call runs on
    freshly loaded methods); None when ``execute`` keeps none. ``methods``: the method names,
    when known; ``name``: the runtime's description for the report.

    >>> from pte_rs.runners import InProcess
    >>> double = InProcess(lambda method, inputs: [inputs[0] * 2], tensors="numpy", name="doubler")
    >>> double.name, double.methods
    ('doubler', None)
    """

    def __init__(self, execute: Callable[[str, List[Any]], Any], fresh: Optional[Callable[[], Any]] = None, *,
                 methods: Optional[Sequence[str]] = None, name: Optional[str] = None,
                 tensors: str = "torch") -> None:
        if not callable(execute):
            raise TypeError(f"execute must be callable, not {type(execute).__name__}")
        if fresh is not None and not callable(fresh):
            raise TypeError(f"fresh must be callable or None, not {type(fresh).__name__}")
        if tensors not in ("torch", "numpy"):
            raise ValueError(f"tensors must be 'torch' or 'numpy', not {tensors!r}")
        self.execute = execute
        self.fresh: Callable[[], Any] = fresh if fresh is not None else (lambda: None)
        self.methods = None if methods is None else [str(m) for m in methods]
        self.name = None if name is None else str(name)
        self.tensors = tensors


class ExecuTorch:
    """A ``.pte`` program in ExecuTorch's Python runtime, as a runner engine.

    ``ptd``: the ``.pte``'s external data file (one: bring several into the
    program first with ``pte internalize``). ``verification``: ``"internal"``
    (the runtime's default, ``Verification.InternalConsistency``) or ``"minimal"``.

    Releases: works with executorch 1.0.0 through 1.5.x, choosing by feature
    what the installed release offers. A program alone loads through
    ``Runtime.load_program(path)`` in every release; with a ``.ptd``, through
    ``load_program(..., data_path=...)`` where it takes one (1.5 on), else
    through the bindings' ``_load_for_executorch(path, data_path=...)`` (1.0
    to 1.4). A release offering neither is refused in one line naming the
    release (:func:`pte_rs.PteError`, kind ``"runtime"``).

    State: a loaded method keeps its mutable buffers (KV caches, counters)
    from call to call. :meth:`fresh` gives the initial state by loading the
    program again: the runtime's ``Program`` caches every method it loads and
    shares planned memory among a program's methods, so asking the same
    ``Program`` for a method again would hand back the used one. The reload
    happens only when a call ran since the last load.

    Errors: :class:`pte_rs.PteError` for a program that cannot be read or is
    no ``.pte`` (as :func:`pte_rs.open` says), one the runtime refuses to load
    or a call it refuses (``kind`` ``"runtime"``, the runtime's exception in
    the message) and an unknown method (``"invalid_use"``); ``ValueError`` and
    ``TypeError`` for bad arguments. ``program`` and ``ptd`` are paths (``str``,
    ``bytes`` or path-like, as :func:`open` takes them), never the file's bytes.
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
        ptds = [] if ptd is None else [ptd] if isinstance(ptd, (str, bytes, os.PathLike)) else list(ptd)
        paths = [_path(p) for p in ptds]
        if len(paths) > 1:
            raise ValueError(f"executorch's Python runtime loads one .ptd with a program (data_path), got "
                             f"{len(paths)}: {', '.join(paths)}; bring them into the program "
                             "with `pte internalize PROGRAM.pte DATA.ptd... OUT.pte` first")
        if not isinstance(verification, str) or verification not in ("internal", "minimal"):
            raise ValueError(f"verification must be 'internal' or 'minimal', not {verification!r}")
        # A path even as bytes: the runtime would take bytes as the program itself.
        self.path = _path(program)
        self.ptd = paths[0] if paths else None
        # The file's kind as `pte` names it, before the runtime sees it: a
        # missing file, a .ptd or a safetensors file is refused in our words.
        for path, kind in ((self.path, "pte"), (self.ptd, "ptd")):
            found = None if path is None else _open(path).kind
            if found not in (None, kind, "unknown"):
                raise _error(f"{path}: a .{found} file, not a .{kind}", "invalid_use")
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
        try:
            if self.ptd is None:
                return self._runtime.load_program(self.path, verification=self._verification)
            if _takes(self._runtime.load_program, "data_path"):
                return self._runtime.load_program(self.path, verification=self._verification, data_path=self.ptd)
            return _ModuleProgram(self.path, self.ptd, self._verification, self.name)
        except _Unsupported as e:  # said in one line, with no runtime error to quote
            raise _error(f"{self.path}: {e}", "runtime") from None
        except Exception as e:  # the runtime's refusal, in its words
            raise _error(f"{self.path}: the runtime refused to load the program: {type(e).__name__}: {e}",
                         "runtime") from e

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

    def in_process(self) -> InProcess:
        """This program as an :class:`InProcess` runner: :func:`pte_rs.samples.verify` hands the
        runtime's ``Method.execute`` torch tensors made from the recorded bytes, and reads its
        outputs as returned (what ``verify`` uses when given this object)."""
        return InProcess(self._execute, self.fresh, methods=self._names, name=self.name)

    def _execute(self, method: str, inputs: List[Any]) -> Any:
        """``Method.execute`` on the current state, torch tensors in and out."""
        if method not in self._names:
            raise _error(f"the program has no method {method!r} (it has: {', '.join(self._names)})", "invalid_use")
        try:
            m = self._program.load_method(method)
            self._used = True
            return m.execute(inputs)
        except Exception as e:  # the runtime's refusal (a wrong dtype or shape), in its words
            raise _error(f"{method}: the runtime refused the call: {type(e).__name__}: {e}", "runtime") from e

    def call(self, method: str, inputs: Sequence[Any]) -> List[Any]:
        """Runs ``method`` once on the current state; numpy (and scalar) inputs, numpy outputs."""
        if not isinstance(method, str) or method not in self._names:
            raise _error(f"the program has no method {method!r} (it has: {', '.join(self._names)})", "invalid_use")
        return [as_value(o) for o in self._execute(method, [_to_runtime(as_value(x)) for x in inputs])]
