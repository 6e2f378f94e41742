"""Type stubs of pte_rs: fast, lossless, zero-copy ExecuTorch file access."""

import os
from dataclasses import dataclass
from typing import Any, BinaryIO, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

_Path = Union[str, os.PathLike]

class PteError(Exception):
    """A read, verify or write error.

    ``kind`` is ``"malformed"``, ``"unsupported"``, ``"limit_exceeded"``,
    ``"invalid_use"``, ``"io"``, ``"busy"`` or a samples rule name; ``path`` is
    the field path inside the file; ``offset`` the byte offset, when known.
    """

    kind: str
    path: str
    offset: Optional[int]
    message: str

class SamplesWarning(UserWarning):
    """A sample set was written with a tolerance loose enough to hide errors."""

@dataclass(frozen=True)
class Violation:
    """One broken (or warned-about) rule."""

    rule: str
    path: str
    offset: Optional[int]
    message: str
    runtime_error: Optional[Dict[str, Any]] = ...

@dataclass(frozen=True)
class Report:
    """What verify found."""

    violations: List[Violation]
    warnings: List[Violation]
    @property
    def valid(self) -> bool:
        """True when no rule is broken."""

__version__: str

@dataclass(frozen=True)
class Tensor:
    """One tensor, the same shape for every kind of file.

    ``dtype``, ``shape`` and :meth:`array` raise :class:`PteError` when the
    stated layout does not describe the stored bytes exactly.
    """

    name: str
    offset: int
    size: int
    info: Dict[str, Any]
    @property
    def dtype(self) -> str:
        """The numpy-style dtype name (``"float32"``, ``"bfloat16"``; ``"uint8"`` for opaque bytes)."""
    @property
    def shape(self) -> List[int]:
        """The verified sizes (``[nbytes]`` for opaque bytes)."""
    @property
    def nbytes(self) -> int:
        """The number of bytes stored."""
    @property
    def data(self) -> memoryview:
        """The bytes, sharing the file's map."""
    def tobytes(self) -> bytes:
        """A copy of the bytes."""
    def array(self) -> np.ndarray:
        """A read-only numpy view of the right dtype and shape, sharing the map."""
    def __array__(self, dtype: Any = ..., copy: Any = ...) -> np.ndarray: ...

@dataclass(frozen=True)
class Constant(Tensor):
    """A constant or mutable tensor buffer (``index`` = ``data_buffer_idx``)."""

    index: int = ...
    tensor: Optional[Dict[str, Any]] = ...
    @property
    def fqn(self) -> Optional[str]:
        """The tensor's fully qualified name, if stored."""

@dataclass(frozen=True)
class Blob(Tensor):
    """A named-data entry, delegate blob or segment (opaque ``uint8``), or a .ptd entry (typed)."""

@dataclass(frozen=True)
class Method:
    """An execution plan with its inputs and outputs."""

    name: str
    inputs: List[Dict[str, Any]]
    outputs: List[Dict[str, Any]]

class File:
    """An open ExecuTorch file; :func:`open` returns the subclass of its kind."""

    path: Optional[str]
    @property
    def kind(self) -> str:
        """``"pte"``, ``"ptd"``, ``"ptn"``, ``"bpte"`` or ``"unknown"``."""
    @property
    def buffer(self) -> memoryview:
        """The whole file, zero-copy."""
    def to_json(self) -> Dict[str, Any]:
        """The JSON document ``pte dump`` prints."""
    def verify(self, ptd: Optional[Sequence[_Path]] = ...) -> Report:
        """Checks every load rule of the format (``pte verify``); ``ptd`` links a
        program's EXTERNAL tensors to those data files (``pte verify --ptd``)."""
    def verify_json(self, ptd: Optional[Sequence[_Path]] = ...) -> Dict[str, Any]:
        """The document ``pte verify --json`` prints, as plain data."""
    def summary(self, tensors: bool = ...) -> Dict[str, Any]:
        """The summary ``pte info --json`` prints for this file, any kind (read in place);
        with ``tensors``, ``pte info --tensors --json``'s, its tensor table included."""
    def write_summary(self, file: BinaryIO, tensors: bool = ...) -> int:
        """Streams ``pte info --json``'s text to a binary file object in bounded pieces; returns its length."""
    def operators(self) -> Dict[str, Any]:
        """``pte ops --json``'s entry for this file: each method's operators and delegates
        (a package: calls by target). Raises :class:`PteError` for a ``.ptd``."""
    def memory(self, method: Optional[str] = ...) -> Dict[str, Any]:
        """The memory plan as ``pte memory --json`` prints it (a bundle: its program's).
        Raises :class:`PteError` for a ``.ptd`` or ``.ptn``."""
    def size(self, by: Optional[str] = ..., top: Optional[int] = ...) -> Dict[str, Any]:
        """Where the bytes go (``pte size --json``): parts adding up to ``file_size``."""

class Program(File):
    """A ``.pte`` program."""

    def program_json(self) -> Dict[str, Any]:
        """The program as flatc-compatible JSON (``pte dump``)."""
    @property
    def methods(self) -> List[Method]:
        """Every method with inputs and outputs, as ``summary()`` lists them."""
    @property
    def constants(self) -> Sequence[Constant]:
        """Constant buffers (placeholder 0 left out), each made when indexed or iterated."""
    @property
    def mutable_buffers(self) -> Sequence[Constant]:
        """Initial values of mutable buffers."""
    @property
    def named_data(self) -> Mapping[str, Blob]:
        """Named data by key, each blob made when looked up."""
    @property
    def delegate_blobs(self) -> List[Blob]:
        """Processed delegate blobs."""
    @property
    def segments(self) -> Sequence[Blob]:
        """Raw segments in table order, each made when indexed or iterated (16 bytes a segment until then)."""
    def to_bytes(
        self,
        *,
        segment_alignment: Optional[int] = ...,
        tensor_alignment: Optional[int] = ...,
        delegate_alignment: Optional[int] = ...,
        constant_repack: Optional[int] = ...,
        layout: Optional[str] = ...,
        delegates: Optional[str] = ...,
        constants: Optional[str] = ...,
    ) -> bytes:
        """Serializes with layout options; None keeps the file's own."""
    def save(
        self,
        path: _Path,
        *,
        segment_alignment: Optional[int] = ...,
        tensor_alignment: Optional[int] = ...,
        delegate_alignment: Optional[int] = ...,
        constant_repack: Optional[int] = ...,
        layout: Optional[str] = ...,
        delegates: Optional[str] = ...,
        constants: Optional[str] = ...,
    ) -> int:
        """Writes atomically; returns the size written."""
    def externalize(
        self,
        pte_path: _Path,
        ptd_path: _Path,
        keys: Optional[Sequence[str]] = ...,
        name_constants: Optional[str] = ...,
    ) -> Tuple[List[str], List[str]]:
        """Moves constants and named data to a .ptd; returns the moved keys.
        ``keys`` are glob patterns, as ``--keys``; the program keeps its
        input's layout. The same request writes the bytes ``pte externalize``
        writes. Raises, writing nothing, where ``pte externalize`` refuses."""

class DataFile(File):
    """A ``.ptd`` tensor-data file."""

    @property
    def entries(self) -> Dict[str, Blob]:
        """Entries by key with dtype, sizes, dim_order."""

class Package(File):
    """A ``.ptn`` package."""

    @property
    def tensors(self) -> Dict[str, Tensor]:
        """Constants as :class:`Tensor` s (arrays zero-copy when stored uncompressed)."""
    def read_samples(self) -> List[SampleSet]:
        """The samples sidecar."""

class Bundle(File):
    """A ``.bpte`` bundled program."""

    @property
    def program(self) -> Program:
        """The embedded program, sharing the bundle's map."""

@dataclass
class Call:
    """One call: inputs and expected outputs."""

    inputs: List[Any]
    outputs: List[Any]
    tolerance: Optional[Tuple[float, float]] = ...

@dataclass
class Sample:
    """A sequence of calls."""

    calls: List[Call]
    name: Optional[str] = ...
    tolerance: Optional[Tuple[float, float]] = ...

@dataclass
class SampleSet:
    """Samples for one method; tolerances are (atol, rtol)."""

    method: str
    name: str
    samples: List[Sample]
    tolerance: Optional[Tuple[float, float]] = ...

def open(source: Union[_Path, bytes, bytearray, memoryview]) -> File:
    """Opens a file memory-mapped (or wraps bytes); the class follows the content.
    Raises :class:`PteError` naming what a file is when it is no ExecuTorch file."""

def selected_operators(paths: Sequence[_Path]) -> str:
    """The selected-operators YAML of the programs (``pte ops --yaml``)."""

def internalize(pte: _Path, ptds: Sequence[_Path], out: _Path) -> int:
    """Brings EXTERNAL tensors back from .ptd files; saves atomically."""

def write_samples(path: _Path, sets: Sequence[SampleSet], replace: bool = ...) -> List[str]:
    """Adds (or replaces) sample sets in a .ptn with ``pte samples add``'s checks;
    warnings returned and issued."""

def read_samples(source: Union[_Path, bytes, Package]) -> List[SampleSet]:
    """The sample sets of a .ptn."""

# imported when first used (``pte_rs.runner``, ``from pte_rs import runner``)
from . import exir as exir, fuzz as fuzz, recording as recording, runner as runner, runners as runners, samples as samples

BF16: np.dtype
