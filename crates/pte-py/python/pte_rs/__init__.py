"""Fast, lossless, zero-copy access to ExecuTorch files (.pte, .ptd, .ptn, .bpte).

The parsing, verifying and writing happen in Rust (``pte_rs._native``). This
layer maps the file a second time with Python's :mod:`mmap` and hands out numpy
arrays and memoryviews *over that map*: they share memory with the file, and
each keeps the map alive (``array.base`` chain) after the file object is gone.
"""

from __future__ import annotations

import builtins
import collections.abc as abc
import json
import mmap
import operator
import os
import warnings
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native, _protocol
from ._native import PteError
from ._protocol import BF16

#: The version of the package (the Rust crate's version).
__version__: str = _native.__version__

__all__ = [
    "__version__",
    "PteError",
    "Violation",
    "Report",
    "File",
    "Program",
    "DataFile",
    "Package",
    "Bundle",
    "Tensor",
    "Constant",
    "Blob",
    "Method",
    "SampleSet",
    "Sample",
    "Call",
    "SamplesWarning",
    "open",
    "internalize",
    "selected_operators",
    "read_samples",
    "write_samples",
    "BF16",
    "exir",
    "fuzz",
    "recording",
    "runner",
    "runners",
    "samples",
]

#: ExecuTorch ScalarType names and safetensors codes to numpy dtypes. BFLOAT16
#: has no numpy dtype: such tensors come back as raw ``uint16`` words.
_DTYPES: Dict[str, str] = {
    "BYTE": "u1", "CHAR": "i1", "SHORT": "<i2", "INT": "<i4", "LONG": "<i8",
    "HALF": "<f2", "FLOAT": "<f4", "DOUBLE": "<f8", "COMPLEXFLOAT": "<c8",
    "COMPLEXDOUBLE": "<c16", "BOOL": "?", "BFLOAT16": "<u2", "UINT16": "<u2",
    "UINT32": "<u4", "UINT64": "<u8",
    "U8": "u1", "I8": "i1", "I16": "<i2", "I32": "<i4", "I64": "<i8",
    "F16": "<f2", "F32": "<f4", "F64": "<f8", "C64": "<c8", "BOOL_": "?",
    "BF16": "<u2", "U16": "<u2", "U32": "<u4", "U64": "<u8",
}


class SamplesWarning(UserWarning):
    """A sample set was written with a tolerance loose enough to hide errors."""


@dataclass(frozen=True)
class Violation:
    """One broken (or warned-about) rule: rule id, field path, byte offset, message.

    ``runtime_error`` is what the stock runtime answers a file breaking the rule
    (``{"code", "hex", "name", "stage"}``), or None when it does not enforce it.
    """

    rule: str
    path: str
    offset: Optional[int]
    message: str
    runtime_error: Optional[Dict[str, Any]] = None


@dataclass(frozen=True)
class Report:
    """What :meth:`File.verify` found. ``valid`` is true when no rule is broken."""

    violations: List[Violation]
    warnings: List[Violation]

    @property
    def valid(self) -> bool:
        """True when there are no violations (warnings do not count)."""
        return not self.violations


def _path(p: Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]) -> str:
    """A path argument as text for the native layer: ``str``, ``bytes`` (a
    path, as :func:`builtins.open` takes it) or path-like; anything else
    raises :class:`TypeError`."""
    return os.fsdecode(p)


def _error(message: str, kind: str = "malformed") -> PteError:
    """A :class:`PteError` made here, with the attributes the native ones carry."""
    e = PteError(message)
    e.kind, e.path, e.offset, e.message = kind, "", None, message
    return e


def _numpy_max_dims() -> int:
    """The most dimensions this numpy can give an array (32 before numpy 2, 64 since)."""
    for n in (64, 32):
        try:
            np.empty((1,) * n, dtype=np.uint8)
            return n
        except ValueError:
            continue
    return 32


#: A stated rank above this cannot become a numpy array: refused as a PteError, never numpy's ValueError.
_MAX_DIMS = _numpy_max_dims()

#: numpy-style dtype names of BFLOAT16 (numpy has none: stored as uint16 words).
_BF16_CODES = ("BF16", "BFLOAT16")


def _layout(name: str, size: int, dtype: Optional[str], shape: Optional[Sequence[Any]],
            dim_order: Optional[Sequence[Any]]) -> Tuple[np.dtype, List[int], Optional[List[int]]]:
    """The verified layout of ``size`` stored bytes: numpy dtype, shape, dim order.

    No layout means opaque bytes (``uint8``, shape ``[size]``). A layout is
    taken only when every size is a non-negative integer and their product
    times the element size is exactly ``size`` (Python integers: no
    overflow), and ``dim_order`` is empty or a permutation of the dimensions;
    anything else raises :class:`PteError` rather than guessing.
    """
    if dtype is None or shape is None:
        return np.dtype(np.uint8), [size], None
    if dtype not in _DTYPES:
        raise _error(f"tensor {name!r}: dtype {dtype} has no numpy equivalent", "unsupported")
    dt = _protocol.BF16 if dtype in _BF16_CODES else np.dtype(_DTYPES[dtype])
    dims: List[int] = []
    for d in shape:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or int(d) < 0:
            raise _error(f"tensor {name!r}: sizes {list(shape)} are not all non-negative integers")
        dims.append(int(d))
    if len(dims) > _MAX_DIMS:
        raise _error(f"tensor {name!r}: {len(dims)} dimensions, more than numpy's limit of {_MAX_DIMS}", "unsupported")
    count = 1
    for d in dims:
        count *= d
    if count * dt.itemsize != size:
        raise _error(f"tensor {name!r}: sizes {dims} of {dtype} make {count * dt.itemsize} bytes, but {size} are stored")
    order = [int(d) for d in dim_order] if dim_order else None
    if order is not None and sorted(order) != list(range(len(dims))):
        raise _error(f"tensor {name!r}: dim_order {order} is not a permutation of {len(dims)} dimensions")
    return dt, dims, order


def _view(buf: Any, offset: int, dt: np.dtype, dims: List[int], order: Optional[List[int]]) -> np.ndarray:
    """A read-only numpy view of a verified layout (no copy)."""
    count = 1
    for d in dims:
        count *= d
    a = np.frombuffer(buf, dtype=dt, count=count, offset=offset)
    if order is None or order == list(range(len(dims))):
        return a.reshape(dims)
    # Stored in dim_order: view the storage shape, then permute back (still a view).
    return a.reshape([dims[d] for d in order]).transpose(np.argsort(order))


def _np_name(dt: np.dtype) -> str:
    if dt.metadata and dt.metadata.get("dtype") == "BF16":
        return "bfloat16"
    return dt.name


@dataclass(frozen=True)
class Tensor:
    """One tensor, the same shape for every kind of file.

    ``name``; ``dtype`` a numpy-style name (``"float32"``, ``"int64"``,
    ``"bfloat16"``; ``"uint8"`` for opaque bytes); ``shape`` a list of ints;
    ``nbytes`` the stored size; :meth:`array` a read-only numpy view of that
    dtype and shape; :attr:`data` the bytes as a memoryview. Views share the
    file's map. ``info`` keeps the layout as the file states it (``dtype`` in
    the format's own code, ``sizes``, ``dim_order``) and whatever else the
    entry has. ``dtype``, ``shape`` and :meth:`array` raise
    :class:`PteError` when the stated layout does not describe the stored
    bytes exactly.
    """

    name: str
    offset: int
    size: int
    info: Dict[str, Any]
    _buf: Any = field(repr=False, compare=False)

    def _stated(self) -> Tuple[Optional[str], Optional[Sequence[Any]], Optional[Sequence[Any]]]:
        return self.info.get("dtype"), self.info.get("sizes"), self.info.get("dim_order")

    def _checked(self) -> Tuple[np.dtype, List[int], Optional[List[int]]]:
        return _layout(self.name, self.size, *self._stated())

    @property
    def dtype(self) -> str:
        """The numpy-style dtype name (``"uint8"`` for opaque bytes)."""
        return _np_name(self._checked()[0])

    @property
    def shape(self) -> List[int]:
        """The sizes (``[nbytes]`` for opaque bytes)."""
        return self._checked()[1]

    @property
    def nbytes(self) -> int:
        """The number of bytes stored."""
        return self.size

    @property
    def data(self) -> memoryview:
        """The bytes, a memoryview sharing the file's map."""
        return memoryview(self._buf)[self.offset:self.offset + self.size]

    def tobytes(self) -> bytes:
        """A copy of the bytes."""
        return bytes(self.data)

    def array(self) -> np.ndarray:
        """A read-only numpy view of the tensor's dtype and shape, sharing the map.

        BFLOAT16 comes back as ``uint16`` words typed :data:`BF16`; an entry
        without a layout (an opaque blob) as ``uint8`` bytes.
        """
        dt, dims, order = self._checked()
        return _view(self._buf, self.offset, dt, dims, order)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        a = self.array()
        return a if dtype is None else a.astype(dtype)


@dataclass(frozen=True)
class Constant(Tensor):
    """A constant or mutable tensor buffer of a program: a :class:`Tensor`.

    ``index`` is the tensor's ``data_buffer_idx``; ``tensor`` describes the first
    tensor using it (dtype, sizes, dim_order, fqn), or is None when none does
    (then the bytes are opaque). ``name`` is the fqn, or the index as text.
    """

    index: int = 0
    tensor: Optional[Dict[str, Any]] = None

    def _stated(self) -> Tuple[Optional[str], Optional[Sequence[Any]], Optional[Sequence[Any]]]:
        t = self.tensor or {}
        return t.get("dtype"), t.get("sizes"), t.get("dim_order")

    @property
    def fqn(self) -> Optional[str]:
        """The tensor's fully qualified name, when the program stores one."""
        return (self.tensor or {}).get("fqn")


@dataclass(frozen=True)
class Blob(Tensor):
    """A named-data entry, delegate blob, segment or data-file entry: a :class:`Tensor`.

    Blobs of a program are opaque: ``dtype`` ``"uint8"``, ``shape`` ``[nbytes]``,
    :meth:`array` the raw bytes. A data-file entry has its stated layout.
    """


#: "Outside the source" in a packed row's offset word.
_NONE = 2**64 - 1


def _rows(raw: bytes, fields: Sequence[str]) -> np.ndarray:
    """Packed little-endian u64 rows as a structured array over ``raw`` (no copy),
    rows whose offset lies outside the source left out (their index list is
    made only when there is one)."""
    rows = np.frombuffer(raw, dtype=np.dtype([(f, "<u8") for f in fields]))
    outside = rows["offset"] == _NONE
    return rows[~outside] if outside.any() else rows


class _Parts(abc.Sequence):  # type: ignore[type-arg]
    """A read-only sequence of a program's parts, one packed row each, made
    into objects only when indexed or iterated: a table of a million entries
    costs its rows (16 to 32 bytes each), not a million Python objects."""

    def __init__(self, n: int, make: Any) -> None:
        self._n = n
        self._make = make

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._make(j) for j in range(*i.indices(self._n))]
        j = operator.index(i)
        if not -self._n <= j < self._n:
            raise IndexError(f"index {j} out of range for {self._n} parts")
        return self._make(j % self._n)

    def __iter__(self) -> Any:
        for j in range(self._n):
            yield self._make(j)

    def __add__(self, other: Any) -> List[Any]:
        return list(self) + list(other)

    def __radd__(self, other: Any) -> List[Any]:
        return list(other) + list(self)

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (_Parts, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<{len(self)} parts: {', '.join(repr(x) for x in self[:3])}{', ...' if len(self) > 3 else ''}>"


class _NamedData(abc.Mapping):  # type: ignore[type-arg]
    """Named blobs by key, each :class:`Blob` made when looked up. A key the
    table repeats names its last blob, as a dict built from the table would."""

    def __init__(self, keys: List[str], rows: np.ndarray, buf: Any) -> None:
        self._keys = keys
        self._rows = rows
        self._buf = buf
        self._index: Optional[Dict[str, int]] = None

    def _at(self) -> Dict[str, int]:
        if self._index is None:
            inside = (self._rows["offset"] != _NONE).tolist()
            self._index = {k: i for i, k in enumerate(self._keys) if inside[i]}
        return self._index

    def __getitem__(self, key: str) -> "Blob":
        r = self._rows[self._at()[key]]
        info = {"key": key, "segment": int(r["segment"]), "offset": int(r["offset"]), "size": int(r["size"])}
        return Blob(key, info["offset"], info["size"], info, self._buf)

    def __iter__(self) -> Any:
        return iter(self._at())

    def __len__(self) -> int:
        return len(self._at())

    def __repr__(self) -> str:
        return f"<{len(self)} named blobs>"


def _constant_from(row: Any, users: List[Optional[Dict[str, Any]]], buf: Any) -> Constant:
    index, user = int(row["index"]), int(row["user"])
    t = users[user] if user < len(users) else None
    name = (t or {}).get("fqn") or str(index)
    return Constant(name, int(row["offset"]), int(row["size"]), {} if t is None else dict(t), buf, index, t)


@dataclass(frozen=True)
class Method:
    """An execution plan: its name and its inputs and outputs as :meth:`Program.summary`
    lists them (``{"index", "kind", "tensor"}``, ``tensor`` with ``dtype``, ``sizes``,
    ``dim_order``, ``dynamism``, ``nbytes``, ``fqn``, ``external``)."""

    name: str
    inputs: List[Dict[str, Any]]
    outputs: List[Dict[str, Any]]


class File:
    """An open ExecuTorch file. Use :func:`open`; the subclass follows the content."""

    def __init__(self, handle: Any, buf: Any, path: Optional[str]) -> None:
        self._h = handle
        self._buf = buf
        #: The path it was opened from, or None for bytes.
        self.path = path
        self._summary: Optional[Dict[str, Any]] = None

    @property
    def kind(self) -> str:
        """``"pte"``, ``"ptd"``, ``"ptn"``, ``"bpte"`` or ``"unknown"``."""
        return self._h.kind

    @property
    def buffer(self) -> memoryview:
        """The whole file, zero-copy."""
        start, end = self._h.range
        return memoryview(self._buf)[start:end]

    def to_json(self) -> Dict[str, Any]:
        """The file as the JSON document ``pte dump`` prints (parsed)."""
        return json.loads(self._h.dump_json())

    def verify(self, ptd: Optional[Sequence[Union[str, "os.PathLike[str]"]]] = None) -> Report:
        """Checks every load rule of the format; returns the violations and warnings.

        The same verdict as ``pte verify`` (one library call behind both): a
        ``.ptn`` gets its samples checked, a program what it needs from outside
        as warnings, and ``ptd`` data files are linked to a program's EXTERNAL
        tensors as ``pte verify --ptd`` links them. Raises :class:`PteError` when
        a data file cannot be read or is given for anything but a program.
        """
        doc = self.verify_json(ptd)
        return Report([Violation(**x) for x in doc["violations"]], [Violation(**x) for x in doc["warnings"]])

    def verify_json(self, ptd: Optional[Sequence[Union[str, "os.PathLike[str]"]]] = None) -> Dict[str, Any]:
        """The document ``pte verify --json`` prints, as plain data."""
        return json.loads(self._h.verify_json([_path(p) for p in (ptd or [])]))

    def summary(self, tensors: bool = False) -> Dict[str, Any]:
        """The summary ``pte info --json`` prints for this file, as plain data; with
        ``tensors``, what ``pte info --tensors --json`` prints: the same document with
        its tensor table (``"tensors"``: each stored tensor's name, dtype, sizes, byte
        range and users), for every kind that has one.

        For a program ``{"format": "pte", "file_size", "version", "extended_header",
        "methods": [{"name", "inputs", "outputs", "values", "instructions", "kernel_calls",
        "operators", "planned_buffers", "buffer_devices"}], "delegates", "segments",
        "constants", "mutable_segments", "named_data", "inline_delegate_data",
        "legacy_constant_buffer", "external_data"}``; for a ``.ptd`` ``{"format": "ptd",
        "header", "segments", "keys", ...}``; for a ``.ptn`` ``{"format": "ptn", "methods",
        "constants", "aliases", "metadata", "other_members", ...}``; for a ``.bpte``
        ``{"format": "bpte", "program", "test_suites", ...}`` (docs/cli.md). Read in place:
        nothing is decoded whole. Offsets are the file's own (segment offsets from the
        segment base, constants' in their segment); the zero-copy views carry absolute
        ones. A bundle's :attr:`Bundle.program` gives the ``program`` object of its summary.
        Raises :class:`PteError` where ``pte info`` exits 2.

        The whole document is made as Python objects: for a file of millions of rows
        (segment entries, named blobs) that is hundreds of bytes a row. :meth:`write_summary`
        streams the same document as text instead, in bounded memory.
        """
        if tensors:
            return json.loads(self._h.summary_json(bool(tensors)))
        if self._summary is None:
            self._summary = json.loads(self._h.summary_json())
        return self._summary

    def write_summary(self, file: BinaryIO, tensors: bool = False) -> int:
        """Writes the text ``pte info --json`` prints for this file (pretty JSON and a
        newline; ``json.loads`` of it is :meth:`summary`) to ``file``, a binary file
        object (anything with ``write(bytes)``), in pieces of 64 KiB as its rows are read:
        memory stays bounded whatever the file's number of rows. Returns the bytes
        written. Raises :class:`PteError` where ``pte info`` exits 2, and whatever the
        file object's ``write`` raises. ``tensors`` adds the tensor table, as
        ``pte info --tensors --json``.
        """
        return self._h.write_summary(file, bool(tensors))

    def operators(self) -> Dict[str, Any]:
        """The operators and delegates each method calls, as ``pte ops --json`` gives
        them for this file: ``{"format", "methods": [{"name", "operators": [{"name",
        "overload", "calls", "kernel_keys"}], "delegates": [{"id", "calls"}]}]}``. A
        bundle answers for the program it holds (``format`` ``"bpte"``); a package for
        its native graph's calls by target (no kernel keys, no delegates). A ``.ptd``
        holds no operators: :class:`PteError`, as ``pte ops`` exits 2.
        """
        return json.loads(self._h.operators_json())

    def memory(self, method: Optional[str] = None) -> Dict[str, Any]:
        """The memory plan, as ``pte memory --json`` prints it: ``{"methods": [{"name",
        "arenas": [{"id", "size", "peak", ...}], "tensors": [{"value", "arena", "offset",
        "size", "first", "last", ...}], "overlaps", "allocator", ...}]}``. Arena 0, which
        the runtime reserves, is left out as the runtime leaves it out. A bundle answers
        for the program it holds; a ``.ptd`` and a ``.ptn`` (whose native program plans
        no memory) raise :class:`PteError`, as ``pte memory`` exits 2. ``method`` keeps
        one method and raises :class:`PteError` when the program has no such method.
        """
        return json.loads(self._h.memory_json(method))

    def size(self, by: Optional[str] = None, top: Optional[int] = None) -> Dict[str, Any]:
        """Where the bytes go: the object ``pte size --json`` prints, as plain data.

        ``{"format", "file_size", "by", "parts": [{"name", "kind", "bytes", ...}], "notes"}``,
        every byte in exactly one part. ``by`` groups the parts (``"kind"``, ``"tensor"``,
        ``"operator"``, ``"delegate"``); ``top`` keeps the largest and folds the rest into
        one ``"other"`` part. The sum of ``bytes`` is ``file_size`` either way.
        """
        return json.loads(self._h.size_json(by, top))

    def __repr__(self) -> str:
        return f"<pte_rs.{type(self).__name__} {self.path or '<bytes>'}>"


_OPTION_KEYS = ("segment_alignment", "tensor_alignment", "delegate_alignment", "constant_repack", "layout",
                "delegates", "constants")


def _options(kw: Dict[str, Any]) -> Dict[str, Any]:
    unknown = set(kw) - set(_OPTION_KEYS)
    if unknown:
        raise TypeError(f"unknown write options: {sorted(unknown)}")
    return {k: kw.get(k) for k in _OPTION_KEYS}


def _opaque(d: Dict[str, Any]) -> Dict[str, Any]:
    """An entry's facts without a layout: its bytes are opaque."""
    return {k: v for k, v in d.items() if k not in ("dtype", "sizes", "dim_order")}


class Program(File):
    """A ``.pte`` program."""

    def __init__(self, handle: Any, buf: Any, path: Optional[str]) -> None:
        super().__init__(handle, buf, path)
        # each part read from the file once, when first asked for, apart from the others
        self._parts: Dict[str, Any] = {}

    def _part(self, name: str, read: Any) -> Any:
        if name not in self._parts:
            self._parts[name] = read()
        return self._parts[name]

    def _buffers(self, mutable: bool) -> "Sequence[Constant]":
        def read() -> Tuple[np.ndarray, List[Any]]:
            raw, users = self._h.pte_buffers(mutable)
            return _rows(raw, ("index", "offset", "size", "user")), json.loads(users)
        rows, users = self._part("mutable" if mutable else "constants", read)
        return _Parts(len(rows), lambda j: _constant_from(rows[j], users, self._buf))

    def program_json(self) -> Dict[str, Any]:
        """The program as flatc-compatible JSON, equal to ``pte dump``'s output."""
        return self.to_json()

    @property
    def methods(self) -> List[Method]:
        """Every method with its inputs and outputs, as :meth:`summary` lists them."""
        return [Method(m["name"], m["inputs"], m["outputs"]) for m in self.summary()["methods"]]

    @property
    def constants(self) -> "Sequence[Constant]":
        """The constant buffers (index 0, the placeholder, left out): a read-only
        sequence whose :class:`Constant` s are made as they are indexed or iterated."""
        return self._buffers(False)

    @property
    def mutable_buffers(self) -> "Sequence[Constant]":
        """The initial values of mutable buffers, a sequence as :attr:`constants` is."""
        return self._buffers(True)

    @property
    def named_data(self) -> "Mapping[str, Blob]":
        """Named data blobs by key: a read-only mapping making each :class:`Blob` when looked up."""
        def read() -> Tuple[List[str], np.ndarray]:
            keys, raw = self._h.pte_named()
            return keys, np.frombuffer(raw, dtype=np.dtype([(f, "<u8") for f in ("segment", "offset", "size")]))
        keys, rows = self._part("named", read)
        return _NamedData(keys, rows, self._buf)

    @property
    def delegate_blobs(self) -> List[Blob]:
        """The processed blob of every delegate (inline or in a segment)."""
        rows = self._part("delegates", lambda: json.loads(self._h.pte_delegates()))
        return [Blob(d["id"], d["offset"], d["size"], _opaque(d), self._buf) for d in rows if d["offset"] is not None]

    @property
    def segments(self) -> "Sequence[Blob]":
        """The raw segments, in table order: a read-only sequence making each
        :class:`Blob` when indexed or iterated (16 bytes a segment until then)."""
        def read() -> Tuple[np.ndarray, Optional[np.ndarray]]:
            rows = np.frombuffer(self._h.pte_segments(), dtype=np.dtype([("offset", "<u8"), ("size", "<u8")]))
            outside = rows["offset"] == _NONE
            # table positions are kept only when some segment is left out
            return (rows, None) if not outside.any() else (rows, np.flatnonzero(~outside))
        rows, kept = self._part("segments", read)

        def make(j: int) -> Blob:
            i = j if kept is None else int(kept[j])
            info = {"index": i, "offset": int(rows[i]["offset"]), "size": int(rows[i]["size"])}
            return Blob(str(i), info["offset"], info["size"], info, self._buf)
        return _Parts(len(rows) if kept is None else len(kept), make)

    def to_bytes(self, **options: Any) -> bytes:
        """Serializes with layout options (see :meth:`save`)."""
        return self._h.pte_bytes(_options(options))

    def save(self, path: Union[str, os.PathLike], **options: Any) -> int:
        """Writes atomically (temp file, fsync, rename); returns the size.

        Options, each None to keep the file's own: ``segment_alignment``,
        ``tensor_alignment``, ``delegate_alignment``, ``constant_repack``
        (repack constants at that alignment), ``layout`` (``"keep"`` or
        ``"repack"``), ``delegates`` (``"keep"``, ``"inline"``, ``"segment"``),
        ``constants`` (``"keep"`` or ``"segment"``: legacy inline constants
        moved into a constant segment). They are ``pte rewrite``'s options
        (``constant_repack`` is ``--constant-alignment``), and the same
        request writes the same bytes.
        """
        return self._h.save_pte(_path(path), _options(options))

    def externalize(self, pte_path: Union[str, os.PathLike], ptd_path: Union[str, os.PathLike],
                    keys: Optional[Sequence[str]] = None, name_constants: Optional[str] = None,
                    ) -> Tuple[List[str], List[str]]:
        """Moves constants and named data (all, or those in ``keys``) to a ``.ptd``.

        ``name_constants`` first names every constant without a fully
        qualified name ``{name_constants}{index}`` (``pte externalize
        --name-constants``), so stock exports have something to move. Saves
        both files atomically; returns (moved tensor keys, moved named keys).
        Raises :class:`PteError` and writes nothing, as ``pte externalize``
        refuses: when nothing would move (saying why), or when the two paths
        name one file or the file this program was opened from.
        """
        return self._h.externalize(_path(pte_path), _path(ptd_path),
                                   None if keys is None else list(keys), name_constants)


class DataFile(File):
    """A ``.ptd`` tensor-data file."""

    @property
    def entries(self) -> Dict[str, Blob]:
        """Entries by key: :class:`Tensor` s with their layout (``info``: dtype, sizes, dim_order)."""
        out = {}
        for key, dtype, sizes, dim_order, off, size in self._h.ptd_entries():
            if off is not None:
                out[key] = Blob(key, off, size, {"dtype": dtype, "sizes": sizes, "dim_order": dim_order}, self._buf)
        return out


class Package(File):
    """A ``.ptn`` package (program graph, safetensors constants, sidecars)."""

    @property
    def tensors(self) -> Dict[str, Tensor]:
        """Every constant (aliases included) as a :class:`Tensor`; its :meth:`Tensor.array`
        is zero-copy when stored uncompressed."""
        out = {}
        for key, dtype, shape, off, copy, size in self._h.ptn_tensors():
            buf, at = (self._buf, off) if off is not None else (copy, 0)
            out[key] = Tensor(key, at, size, {"dtype": dtype, "sizes": list(shape)}, buf)
        return out

    def read_samples(self) -> List["SampleSet"]:
        """The sample sets of the samples sidecar."""
        return [_set_from(d, self._buf) for d in self._h.read_samples()]


class Bundle(File):
    """A ``.bpte`` bundled program: a program plus test suites."""

    @property
    def program(self) -> Program:
        """The embedded program, sharing this bundle's map."""
        return Program(self._h.bpte_program(), self._buf, self.path)


_CLASSES = {"pte": Program, "ptd": DataFile, "ptn": Package, "bpte": Bundle}


def open(source: Union[str, os.PathLike, bytes]) -> File:  # noqa: A001 - the natural name
    """Opens a file (memory-mapped) or wraps ``bytes``; the class follows the content.

    Raises :class:`PteError` (``kind == "io"``) when the file cannot be read,
    and (``kind == "invalid_use"``) when it is no ExecuTorch file, naming what
    it is as ``pte`` does ("a safetensors file, not an ExecuTorch file"). A
    program whose identifier is damaged still opens, as a plain :class:`File`
    of kind ``"unknown"``, so that :meth:`File.verify` names the damage.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        h = _native.Handle.from_bytes(data)
        return _CLASSES.get(h.kind, File)(h, data, None)
    path = _path(source)
    h = _native.Handle.open(path)
    size = h.range[1]
    if size == 0:
        buf: Any = b""
    else:
        with builtins.open(path, "rb") as fh:
            buf = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        if len(buf) != size:
            raise PteError(f"{path}: changed while being opened")
    return _CLASSES.get(h.kind, File)(h, buf, path)


def selected_operators(paths: Sequence[Union[str, os.PathLike]]) -> str:
    """The selected-operators YAML of ExecuTorch's selective build for the programs
    (``.pte`` or ``.bpte``) at ``paths``: what ``pte ops --yaml`` prints, for one
    file byte for byte what ``gen_oplist.py --model_file_path`` writes."""
    return _native.selected_operators([_path(p) for p in paths])


def internalize(pte: Union[str, os.PathLike], ptds: Sequence[Union[str, os.PathLike]],
                out: Union[str, os.PathLike]) -> int:
    """Brings the EXTERNAL tensors of ``pte`` back from ``ptds``; saves ``out`` atomically.

    As ``pte internalize``: ``out`` may be ``pte`` itself (an in-place edit,
    under the file's edit lock) but no data file, and each input must be of
    its kind; otherwise :class:`PteError` and nothing is written.
    """
    return _native.internalize(_path(pte), [_path(p) for p in ptds], _path(out))


# ---- samples sidecar -------------------------------------------------------

Value = Any


@dataclass
class Call:
    """One call of a method: input and expected output values (arrays, scalars, lists of arrays)."""

    inputs: List[Value]
    outputs: List[Value]
    tolerance: Optional[Tuple[float, float]] = None


@dataclass
class Sample:
    """A named sequence of calls (stateful methods take several)."""

    calls: List[Call]
    name: Optional[str] = None
    tolerance: Optional[Tuple[float, float]] = None


@dataclass
class SampleSet:
    """Sample inputs and expected outputs for one method. Tolerances are ``(atol, rtol)``."""

    method: str
    name: str
    samples: List[Sample]
    tolerance: Optional[Tuple[float, float]] = None


def _value_from(v: Any, buf: Any) -> Value:
    if isinstance(v, dict):
        if "offset" in v:
            t = Tensor("sample", v["offset"], v["size"], {"dtype": v["dtype"], "sizes": v["shape"]}, buf)
        else:
            data = v["data"]
            t = Tensor("sample", 0, len(data), {"dtype": v["dtype"], "sizes": v["shape"]}, data)
        return t.array()
    if isinstance(v, list):
        return [_value_from(x, buf) for x in v]
    return v


def _set_from(d: Dict[str, Any], buf: Any) -> SampleSet:
    samples = [
        Sample([Call([_value_from(x, buf) for x in c["inputs"]], [_value_from(x, buf) for x in c["outputs"]],
                     c["tolerance"]) for c in s["calls"]], s["name"], s["tolerance"])
        for s in d["samples"]
    ]
    return SampleSet(d["method"], d["name"], samples, d["tolerance"])


def _tensor_to(a: np.ndarray) -> Tuple[str, List[int], bytes]:
    # The shape before ascontiguousarray, which makes a 0-d array 1-d: a
    # scalar tensor is stored with shape [], as a method of rank 0 declares.
    shape = list(np.shape(a))
    a = np.ascontiguousarray(a)
    try:
        code = _protocol.dtype_code(a)
    except TypeError as e:
        raise PteError(f"unsupported sample dtype {a.dtype}") from e
    return code, shape, a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()


def _value_to(v: Value) -> Tuple[str, Any]:
    if isinstance(v, np.ndarray) or isinstance(v, np.generic) and not isinstance(v, (np.bool_, np.integer,
                                                                                   np.floating)):
        return ("tensor", _tensor_to(np.asarray(v)))
    if v is None:
        return ("none", None)
    if isinstance(v, (bool, np.bool_)):
        return ("bool", bool(v))
    if isinstance(v, (int, np.integer)):
        return ("int", int(v))
    if isinstance(v, (float, np.floating)):
        return ("float", float(v))
    if isinstance(v, str):
        return ("string", v)
    if isinstance(v, (list, tuple)) and all(isinstance(x, np.ndarray) for x in v):
        return ("tensor_list", [_tensor_to(x) for x in v])
    if hasattr(v, "__array__"):
        return ("tensor", _tensor_to(np.asarray(v)))
    raise TypeError(f"unsupported sample value {type(v).__name__}")


def _check_sets(sets: Any) -> None:
    """Refuses, as :class:`TypeError`, what is not sample sets of samples of calls."""
    for s in sets:
        if not isinstance(s, SampleSet):
            raise TypeError(f"a SampleSet is needed, not {type(s).__name__}")
        for smp in s.samples:
            if not isinstance(smp, Sample) or not all(isinstance(c, Call) for c in smp.calls):
                raise TypeError(f"set {s.name!r}: samples must be Sample objects holding Call objects")


def write_samples(path: Union[str, os.PathLike], sets: Sequence[SampleSet], replace: bool = True) -> List[str]:
    """Adds sample sets to the ``.ptn`` at ``path``, as ``pte samples add`` does.

    The checks are the command's (one library call behind both): a set for a
    method the program lacks, or whose calls contradict the method's
    signature (count, dtype, rank or size of an input or output), raises
    :class:`PteError` with the command's message, and nothing is written.
    With ``replace`` (the default, ``pte samples add --replace``), a set of
    the same method and name is replaced; without, it is refused. All sets
    land in one atomic save. Warnings about loose tolerances are returned as
    text and also issued as :class:`SamplesWarning`.
    """
    sets = list(sets)
    _check_sets(sets)
    raw = [
        (s.method, s.name, s.tolerance,
         [(smp.name, smp.tolerance,
           [([_value_to(x) for x in c.inputs], [_value_to(x) for x in c.outputs], c.tolerance)
            for c in smp.calls]) for smp in s.samples])
        for s in sets
    ]
    found = _native.write_samples(_path(path), raw, replace)
    for w in found:
        warnings.warn(w, SamplesWarning, stacklevel=2)
    return found


def read_samples(source: Union[str, os.PathLike, bytes, Package]) -> List[SampleSet]:
    """The sample sets of a ``.ptn`` (a path, bytes or an open :class:`Package`)."""
    f = source if isinstance(source, Package) else open(source)
    if not isinstance(f, Package):
        raise PteError(f"{getattr(f, 'path', None) or '<bytes>'}: not a .ptn package")
    return f.read_samples()


# Submodules that build on the classes above: pte_rs.samples (check recorded
# samples through a runtime, record new ones), pte_rs.recording,
# pte_rs.runner (the runner protocol's server), pte_rs.runners (the stock
# ExecuTorch runtime as a runner), pte_rs.exir and pte_rs.fuzz. None imports
# torch until it is used. They are imported on first access (PEP 562), not
# here: a package that imports pte_rs.runner while it initializes makes
# `python -m pte_rs.runner` find that module in sys.modules before running it
# as __main__, and runpy's RuntimeWarning about it then opened every runner's
# stderr (which `pte samples check` shows when a runner fails).
_SUBMODULES = frozenset(("recording", "runner", "runners", "samples", "exir", "fuzz"))


def __getattr__(name: str) -> Any:
    """``pte_rs.runner`` and the other submodules, imported when first asked for."""
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | _SUBMODULES)
