"""The Rust extension behind pte_rs (use the pte_rs API instead)."""

from typing import Any, Dict, List, Optional, Tuple

class PteError(Exception):
    """A read, verify or write error with kind, path, offset and message."""

    kind: str
    path: str
    offset: Optional[int]
    message: str

__version__: str

class Handle:
    """An open file: its bytes (map or bytes object), byte range and kind."""

    @staticmethod
    def open(path: str) -> Handle:
        """Maps the file read-only; raises PteError for a file that is no ExecuTorch file."""
    @staticmethod
    def from_bytes(data: bytes) -> Handle:
        """Wraps a bytes object without copying; raises PteError as ``open`` does."""
    @property
    def kind(self) -> str:
        """The detected kind."""
    @property
    def range(self) -> Tuple[int, int]:
        """This file's byte range in its source."""
    @property
    def mapped(self) -> bool:
        """Whether the source is a memory map."""
    def dump_json(self) -> str:
        """JSON text equal to ``pte dump``."""
    def verify_json(self, ptd: List[str] = ...) -> str:
        """JSON text equal to ``pte verify --json``, ``ptd`` linked as ``--ptd`` links them."""
    def size_json(self, by: Optional[str] = ..., top: Optional[int] = ...) -> str:
        """JSON text equal to ``pte size --json``."""
    def summary_json(self, tensors: bool = ...) -> str:
        """JSON text equal to ``pte info --json`` of the file, any kind."""
    def write_summary(self, sink: Any, tensors: bool = ...) -> int:
        """``pte info --json``'s text written to ``sink.write`` in bounded pieces; its length."""
    def pte_buffers(self, mutable: bool = ...) -> Tuple[bytes, str]:
        """Constant (or mutable) buffers: packed u64 rows (index, offset, size, user) and the users' JSON."""
    def pte_named(self) -> Tuple[List[str], bytes]:
        """Named data: keys and packed u64 rows (segment, offset, size)."""
    def pte_delegates(self) -> str:
        """JSON text of the delegates' processed blobs (absolute offsets)."""
    def pte_segments(self) -> bytes:
        """The segment table as packed u64 rows (offset, size); offset 2**64-1 when outside the source."""
    def memory_json(self, method: Optional[str] = ...) -> str:
        """JSON text of the memory plan (``pte memory --json``), optionally one method."""
    def operators_json(self) -> str:
        """JSON text of each method's operators and delegates (``pte ops --json``, one file)."""
    def save_pte(self, path: str, options: Dict[str, Any]) -> int:
        """Atomic save with layout options."""
    def pte_bytes(self, options: Dict[str, Any]) -> bytes:
        """Serialized program."""
    def externalize(
        self, pte_path: str, ptd_path: str, keys: Optional[List[str]] = ..., name_constants: Optional[str] = ...
    ) -> Tuple[List[str], List[str]]:
        """Moves data to a .ptd."""
    def ptd_entries(self) -> List[Tuple[str, Optional[str], Optional[List[int]], Optional[List[int]], Optional[int], int]]:
        """Entries of a .ptd."""
    def bpte_program(self) -> Handle:
        """The embedded program of a .bpte."""
    def ptn_tensors(self) -> List[Tuple[str, str, List[int], Optional[int], Optional[bytes], int]]:
        """Tensors of a .ptn."""
    def read_samples(self) -> List[Dict[str, Any]]:
        """Sample sets as nested dicts."""

def write_samples(path: str, sets: List[Any], replace: bool = ...) -> List[str]:
    """Writes sample sets; returns warnings."""

def check_samples(
    source: str,
    fresh: Any,
    call: Any,
    methods: Optional[List[str]] = None,
    name: Optional[str] = None,
    method: Optional[str] = None,
    set: Optional[str] = None,
) -> str:
    """Checks the samples at ``source`` through ``fresh()`` / ``call(method, tagged_inputs)``;
    the report as JSON (used by pte_rs.samples.verify)."""

def check_samples_matrix(
    source: str,
    runners: List[Tuple[str, Any, Any, Optional[List[str]], Optional[str]]],
    method: Optional[str] = None,
    set: Optional[str] = None,
) -> str:
    """Checks the samples at ``source`` through every ``(label, fresh, call, methods, name)``
    runner in turn; the matrix as JSON (used by pte_rs.samples.verify)."""

def internalize(pte: str, ptds: List[str], out: str) -> int:
    """Internalizes EXTERNAL tensors."""

def selected_operators(paths: List[str]) -> str:
    """The selected-operators YAML of the programs (``pte ops --yaml``)."""

def exir_deserialize(
    data: bytes, schema: Any, compile_spec: Any, zero_copy: bool, lazy: Optional[Any] = None
) -> Tuple[Any, Optional[List[Any]], Optional[List[Tuple[str, bytes]]]]:
    """exir's Program, mutable Buffers and named (key, bytes) pairs (used by pte_rs.exir);
    ``lazy`` builds the Buffers over memoryview slices of ``data``."""

def exir_serialize(
    pte_file: Any,
    schema: Any,
    compile_spec: Any,
    extract_delegate_segments: bool,
    segment_alignment: int,
    constant_tensor_alignment: int,
    delegate_alignment: Optional[int],
) -> bytes:
    """A .pte from exir's PTEFile laid out as exir does (used by pte_rs.exir)."""

def mutate(data: bytes, max_size: int, seed: int) -> bytes:
    """The structure-aware mutator (``pte_rs.fuzz.mutate``)."""

def cross_over(data1: bytes, data2: bytes, max_out_size: int, seed: int) -> bytes:
    """The structure-aware cross-over (``pte_rs.fuzz.cross_over``)."""
