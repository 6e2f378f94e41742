"""Drop-in replacements for exir's ``serialize_pte_binary`` and
``deserialize_pte_binary`` (``executorch.exir._serialize._program``).

Needs ``executorch`` installed (it returns and takes exir's own ``PTEFile``
and ``Program`` dataclasses). Both directions run in Rust: reading decodes
the program and builds exir's dataclasses directly (no JSON), restoring
segments as exir does (constants split at their offsets with padding,
delegates moved inline, named data with alignment 1), so the result compares
equal to exir's. Writing reads exir's dataclasses into the Rust model and
lays the file out as exir does, with the Rust flatbuffer encoder.
"""

from __future__ import annotations

import gc
from functools import lru_cache
from typing import Any, Optional

from . import _native

__all__ = ["deserialize_pte_binary", "serialize_pte_binary"]


def _exir() -> Any:
    from executorch.exir._serialize import _program

    return _program


@lru_cache(maxsize=None)
def _lazy_buffer() -> Any:
    """exir's ``Buffer`` whose ``storage`` is copied out of the input on
    first read (and cached), so deserializing copies no constant."""
    import copy

    from executorch.exir.schema import Buffer

    class LazyBuffer(Buffer):  # type: ignore[misc]
        # Not re-decorated as a dataclass: exir's fields, ``__init__`` (which
        # assigns through the property below) and ``__match_args__`` are
        # inherited. A read value lives under ``storage`` in the instance
        # dict, as in exir's Buffer; an unread one as ``_pte_rs_lazy`` (with
        # its offset in the input as ``_pte_rs_at``).

        @property  # type: ignore[override]
        def storage(self) -> bytes:
            d = self.__dict__
            if "storage" not in d:
                if "_pte_rs_lazy" not in d:
                    raise AttributeError("storage")
                d.pop("_pte_rs_at", None)
                d["storage"] = d.pop("_pte_rs_lazy").tobytes()
            return d["storage"]  # type: ignore[no-any-return]

        @storage.setter
        def storage(self, value: Any) -> None:
            self.__dict__.pop("_pte_rs_lazy", None)
            self.__dict__.pop("_pte_rs_at", None)
            self.__dict__["storage"] = value

        # exir's generated ``__eq__`` requires the exact same class; this one
        # compares with any Buffer, as the result of exir's reader would.
        def __eq__(self, other: object) -> bool:
            if isinstance(other, Buffer):
                return bool(self.storage == other.storage)
            return NotImplemented

        __hash__ = None  # type: ignore[assignment]

        def __repr__(self) -> str:
            return f"Buffer(storage={self.storage!r})"

        # Copies and pickles are exir's plain Buffer holding ``bytes``.
        def __reduce__(self) -> Any:
            return (Buffer, (self.storage,))

        def __copy__(self) -> Any:
            return Buffer(self.storage)

        def __deepcopy__(self, memo: Any) -> Any:
            return Buffer(copy.deepcopy(self.storage, memo))

    LazyBuffer.__qualname__ = LazyBuffer.__name__ = "Buffer"

    def make(view: memoryview, at: int) -> Any:
        # ``at``: the slice's offset in ``view.obj``, for the Rust writer.
        b = LazyBuffer.__new__(LazyBuffer)
        b.__dict__["_pte_rs_lazy"] = view
        b.__dict__["_pte_rs_at"] = at
        return b

    return make


def deserialize_pte_binary(program_data: bytes, *, zero_copy: bool = False) -> Any:
    """Returns exir's ``PTEFile`` for the given ``.pte`` bytes (exir's signature).

    The ``storage`` of constant and mutable ``Buffer``s is not copied while
    deserializing: each such ``Buffer`` is an instance of a subclass of
    exir's ``Buffer`` that holds a read-only ``memoryview`` slice of
    ``program_data`` (keeping it alive) and turns it into ``bytes`` the first
    time ``storage`` is read, keeping that copy. Everything else behaves as
    exir's ``Buffer``: ``isinstance``, ``dataclasses.fields``/``asdict``,
    ``==``, ``repr``; ``copy``, ``deepcopy`` and pickling give exir's plain
    ``Buffer``. exir's own ``serialize_pte_binary`` takes the result, and
    this module's reads the slices without keeping a copy.

    With ``zero_copy=True`` ``storage`` is the ``memoryview`` slice itself
    (the previous opt-in: no copy ever, but a memoryview cannot be
    deep-copied and exir's own writer rejects it). Delegate and named data
    are always ``bytes`` (exir's ``NamedDataStore`` requires it).

    Raises :class:`pte_rs.PteError` for a malformed program where exir raises
    its own errors, and exir's ``ValueError`` messages for inconsistent
    segment tables.
    """
    from executorch.exir import schema
    from executorch.exir.backend.compile_spec_schema import CompileSpec

    p = _exir()
    # memoryview first: bytes(n) of an int would be n zero bytes, not a TypeError
    data = program_data if type(program_data) is bytes else bytes(memoryview(program_data))
    # Tens of thousands of small objects are made here at once; Python's
    # cyclic GC would otherwise rescan the growing heap many times over
    # (ten times the build itself on an exporter's program). They hold no
    # cycles, so pausing it loses nothing.
    enabled = gc.isenabled()
    gc.disable()
    try:
        program, mutable_data, named = _native.exir_deserialize(
            data, schema, CompileSpec, zero_copy, None if zero_copy else _lazy_buffer()
        )
    finally:
        if enabled:
            gc.enable()
    named_data = None
    if named is not None:
        from executorch.exir._serialize._named_data_store import NamedDataStore

        store = NamedDataStore()
        for key, blob in named:
            # Deserialization does not preserve alignment (exir gives 1 too).
            store.add_named_data(key=key, data=blob, alignment=1, tensor_layout=None)
        named_data = store.get_named_data_store_output()
    return p.PTEFile(program=program, mutable_data=mutable_data, named_data=named_data)


def _valid_alignment(alignment: Optional[int], name: str) -> None:
    # exir's own check and message (a positive power of two).
    if alignment is not None and (alignment <= 0 or alignment & (alignment - 1)):
        raise ValueError(f"Bad {name} {alignment}")


def serialize_pte_binary(
    pte_file: Any,
    *,
    extract_delegate_segments: bool = False,
    segment_alignment: int = 128,
    constant_tensor_alignment: Optional[int] = None,
    delegate_alignment: Optional[int] = None,
) -> Any:
    """Serializes exir's ``PTEFile`` with exir's keyword arguments; returns
    exir's ``Cord`` holding the file.

    Raises :class:`TypeError` for anything but a ``PTEFile`` and exir's
    ``ValueError`` for a bad alignment. exir's layout (segment order, padding, alignments, delegate extraction
    and deduplication, named data) is reproduced by the Rust writer; the
    program flatbuffer comes from the Rust encoder, so the bytes differ from
    exir's while describing the same program. ``pte_file`` is not modified.
    """
    from executorch.exir import schema
    from executorch.exir._serialize._cord import Cord
    from executorch.exir.backend.compile_spec_schema import CompileSpec

    if not isinstance(pte_file, _exir().PTEFile):
        raise TypeError(f"serialize_pte_binary takes exir's PTEFile, not {type(pte_file).__name__}")
    if constant_tensor_alignment is None:
        constant_tensor_alignment = 16  # exir's ALIGNMENT
    _valid_alignment(constant_tensor_alignment, "constant_tensor_alignment")
    _valid_alignment(delegate_alignment, "delegate_alignment")
    data = _native.exir_serialize(
        pte_file,
        schema,
        CompileSpec,
        extract_delegate_segments,
        segment_alignment,
        constant_tensor_alignment,
        delegate_alignment,
    )
    return Cord(data)
