"""Drop-in replacements for exir's ``serialize_pte_binary`` and
``deserialize_pte_binary`` (``executorch.exir._serialize._program``).

Needs ``executorch`` installed (it returns exir's own ``PTEFile`` and
``Program`` dataclasses). Reading is done by the Rust reader: the program
table comes back as flatc-style JSON and is turned into exir's dataclasses
here; segments are restored exactly as exir restores them (constants split at
their offsets with padding, delegates moved inline, named data with alignment
1), so the result compares equal to exir's.

Writing: until the workspace has a JSON-to-program writer (``pack``), this
``serialize_pte_binary`` hands the work to exir's own implementation, so its
output is exir's byte for byte. The seam is :func:`_serialize_program`.
"""

from __future__ import annotations

import gc
from typing import Any, Optional

from . import _native

__all__ = ["deserialize_pte_binary", "serialize_pte_binary"]


def _exir() -> Any:
    from executorch.exir._serialize import _program

    return _program


try:
    # exir's own writer, bound before anyone swaps ours into its module.
    from executorch.exir._serialize._program import serialize_pte_binary as _exir_serialize
except ImportError:  # executorch is optional: only this module needs it
    _exir_serialize = None


def deserialize_pte_binary(program_data: bytes, *, zero_copy: bool = False) -> Any:
    """Returns exir's ``PTEFile`` for the given ``.pte`` bytes (exir's signature).

    With ``zero_copy`` (the default) the ``storage`` of constant and mutable
    ``Buffer``s is a read-only ``memoryview`` slice of ``program_data``
    instead of a ``bytes`` copy: it compares equal to exir's, and this
    module's ``serialize_pte_binary`` takes it, but exir's own
    ``serialize_pte_binary`` only takes ``bytes``: pass ``zero_copy=False``
    to hand the result to it. Delegate and named data are always ``bytes``
    (exir's ``NamedDataStore`` requires it).

    Raises :class:`pte_rs.PteError` for a malformed program where exir raises
    its own errors, and exir's ``ValueError`` messages for inconsistent
    segment tables.
    """
    from executorch.exir import schema
    from executorch.exir.backend.compile_spec_schema import CompileSpec

    p = _exir()
    data = program_data if type(program_data) is bytes else bytes(program_data)
    # Tens of thousands of small objects are made here at once; Python's
    # cyclic GC would otherwise rescan the growing heap many times over
    # (ten times the build itself on an exporter's program). They hold no
    # cycles, so pausing it loses nothing.
    enabled = gc.isenabled()
    gc.disable()
    try:
        program, mutable_data, named = _native.exir_deserialize(data, schema, CompileSpec, zero_copy)
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


def _serialize_program(pte_file: Any, **kwargs: Any) -> Any:
    """The seam for a Rust writer of exir's program JSON; exir's own for now."""
    if _exir_serialize is None:
        raise ImportError("serialize_pte_binary needs executorch installed")
    return _exir_serialize(pte_file, **kwargs)


def serialize_pte_binary(
    pte_file: Any,
    *,
    extract_delegate_segments: bool = False,
    segment_alignment: int = 128,
    constant_tensor_alignment: Optional[int] = None,
    delegate_alignment: Optional[int] = None,
) -> Any:
    """Serializes exir's ``PTEFile`` with exir's keyword arguments; returns a ``Cord``."""
    return _serialize_program(
        pte_file,
        extract_delegate_segments=extract_delegate_segments,
        segment_alignment=segment_alignment,
        constant_tensor_alignment=constant_tensor_alignment,
        delegate_alignment=delegate_alignment,
    )
