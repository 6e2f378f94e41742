"""A runner for ``pte samples check SOURCE -- CMD``: the ``pte-runner`` protocol, version 1.

``python -m pte_rs.runner PROGRAM.pte [--ptd DATA.ptd]`` serves ExecuTorch's
stock Python runtime (:class:`pte_rs.runners.ExecuTorch`). :func:`serve` serves
any *engine*: an object with

* ``methods() -> list[str] | None`` (None: not known),
* ``fresh()``: drop all state; the next call runs on freshly loaded methods,
* ``call(method, inputs) -> outputs``: one call on the current state; tensors
  are numpy arrays (BF16 as :data:`pte_rs._protocol.BF16` words), tensor lists
  Python lists of arrays, scalars ``int``/``float``/``bool``/``str``/``None``.
  Outputs may also be torch tensors; they are converted exactly.
* optionally ``name``: the runner's description in the ``hello`` reply.

The protocol: requests on the runner's stdin, replies on its stdout, stderr
free for logs. Each message is one JSON object on one line; with ``"data": N``
exactly N bytes follow the newline: a safetensors file holding the tensors the
message's values refer to by key (inputs ``in.<i>`` / ``in.<i>.<j>``, outputs
``out.<i>`` / ``out.<i>.<j>``).

=====================================================  =================================================
request                                                reply
=====================================================  =================================================
``{"op":"hello","protocol":"pte-runner","version":1}``  ``{"ok":true,"protocol","version","runner","methods"}``
``{"op":"fresh"}``                                     ``{"ok":true}`` (no state from earlier calls is left)
``{"op":"call","method":M,"inputs":[...],"data":N}``   ``{"ok":true,"outputs":[...],"data":N}``
``{"op":"bye"}``                                       ``{"ok":true}``, then exit 0 (also at end of input)
=====================================================  =================================================

Any failure is ``{"ok":false,"error":"..."}``; the runner goes on with the next
request, except after a truncated message (exit 1). ``methods`` is left out of
the ``hello`` reply when the engine does not know its methods.

:class:`Client` is the other side, for driving a runner from Python.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import traceback
from typing import Any, BinaryIO, Dict, List, Optional, Sequence, Tuple

from . import PteError
from ._protocol import (PROTOCOL, VERSION, ProtocolError, StreamError, decode_safetensors, decode_values,
                        encode_safetensors, encode_values, read_message, to_torch, write_message)

__all__ = ["serve", "main", "claim_stdio", "Client", "RunnerError"]


def _describe(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


def _engine_methods(engine: Any) -> Optional[List[str]]:
    f = getattr(engine, "methods", None)
    if f is None:
        return None
    names = f() if callable(f) else f
    return None if names is None else [str(n) for n in names]


def _in_process(engine: Any) -> Any:
    """The engine's :class:`pte_rs.runners.InProcess` form (its ``in_process()``, made once), or None."""
    try:
        return engine.__dict__["_pte_rs_in_process"]
    except (AttributeError, KeyError):
        pass
    from .runners import in_process_of  # numpy only: safe after claim_stdio

    fast = in_process_of(engine)
    try:
        engine.__dict__["_pte_rs_in_process"] = fast
    except AttributeError:  # no instance dict: asked again next time
        pass
    return fast


def _runtime_value(v: Any, tensors: str) -> Any:
    """A decoded input as an in-process runtime takes it: torch tensors over the same memory."""
    if tensors != "torch":
        return v
    if isinstance(v, list):
        return [to_torch(a, copy=False) for a in v]
    return to_torch(v, copy=False) if hasattr(v, "dtype") and hasattr(v, "shape") else v


def _handle(engine: Any, header: Dict[str, Any], payload: bytes) -> Tuple[Dict[str, Any], bytes]:
    op = header.get("op")
    if op == "hello":
        protocol, version = header.get("protocol"), header.get("version")
        if protocol != PROTOCOL or version != VERSION or isinstance(version, bool):
            return {"ok": False, "protocol": PROTOCOL, "version": VERSION,
                    "error": f"unsupported protocol {protocol!r} version {version!r}: this runner speaks "
                             f"{PROTOCOL} version {VERSION}"}, b""
        reply: Dict[str, Any] = {"ok": True, "protocol": PROTOCOL, "version": VERSION,
                                 "runner": str(getattr(engine, "name", None) or f"python {type(engine).__name__}")}
        names = _engine_methods(engine)
        if names is not None:
            reply["methods"] = names
        return reply, b""
    if op == "fresh":
        engine.fresh()
        return {"ok": True}, b""
    if op == "call":
        method = header.get("method")
        if not isinstance(method, str):
            raise ProtocolError("a call needs a string 'method'")
        tensors = decode_safetensors(payload) if payload else {}
        inputs = decode_values(header.get("inputs"), tensors, "inputs")
        fast = _in_process(engine)
        if fast is not None:
            # the payload's arrays are this call's own: the runtime gets them as they are
            outputs = fast.execute(method, [_runtime_value(x, fast.tensors) for x in inputs])
        else:
            outputs = engine.call(method, inputs)
        if outputs is None or isinstance(outputs, (str, bytes)) or not hasattr(outputs, "__iter__"):
            raise TypeError(f"the engine's call returned {type(outputs).__name__}, not a list of outputs")
        out_tensors: Dict[str, Any] = {}
        values = encode_values(list(outputs), "out", out_tensors)
        return {"ok": True, "outputs": values}, (encode_safetensors(out_tensors) if out_tensors else b"")
    if op == "bye":
        return {"ok": True}, b""
    raise ProtocolError(f"unknown op {op!r} (hello, fresh, call, bye)")


def serve(engine: Any, instream: BinaryIO, outstream: BinaryIO) -> int:
    """Answers requests from ``instream`` on ``outstream`` until ``bye`` or the end of input.

    Returns the exit status: 0 after ``bye`` or a clean end of input, 1 when the
    input broke off inside a message or the output was closed. Exceptions of the
    engine become ``{"ok": false, "error": "Type: text"}`` replies (traceback on stderr).
    Streams without ``read`` and ``write`` raise :class:`TypeError`.
    """
    for stream, needed in ((instream, "read"), (outstream, "write")):
        if not callable(getattr(stream, needed, None)):
            raise TypeError(f"serve needs binary streams; {type(stream).__name__} has no {needed}()")
    while True:
        fatal = False
        header: Dict[str, Any] = {}
        try:
            msg = read_message(instream)
            if msg is None:
                return 0
            header, payload = msg
            reply, data = _handle(engine, header, payload)
        except StreamError as e:
            reply, data, fatal = {"ok": False, "error": f"malformed request: {e}"}, b"", True
        except ProtocolError as e:
            reply, data = {"ok": False, "error": f"malformed request: {e}"}, b""
        except Exception as e:  # the engine's failure, reported to the caller
            if isinstance(e, PteError):  # said in our words already: one line, no traceback
                print(f"pte_rs.runner: {e}", file=sys.stderr)
            else:
                traceback.print_exc(file=sys.stderr)
            reply, data = {"ok": False, "error": _describe(e)}, b""
        try:
            write_message(outstream, reply, data)
        except (BrokenPipeError, ValueError, OSError):
            return 1
        if fatal:
            return 1
        if header.get("op") == "bye":
            return 0


def claim_stdio() -> Tuple[BinaryIO, BinaryIO]:
    """Takes stdin and stdout for the protocol; returns them as binary streams.

    Afterwards file descriptor 1 and ``sys.stdout`` write to stderr, and fd 0 and
    ``sys.stdin`` read from the null device, so a library that prints (or reads)
    cannot corrupt the protocol. Call it before importing torch or executorch.
    """
    sys.stdout.flush()
    in_fd, out_fd = os.dup(0), os.dup(1)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
    return os.fdopen(in_fd, "rb"), os.fdopen(out_fd, "wb")


def _refuse(instream: BinaryIO, outstream: BinaryIO, error: str) -> None:
    """Answers the first request (if one comes) with the error, so the caller sees why."""
    try:
        if instream.isatty():
            return
        msg = read_message(instream)
        if msg is not None:
            write_message(outstream, {"ok": False, "error": error})
    except Exception:
        pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m pte_rs.runner PROGRAM.pte [--ptd DATA.ptd]``: serves the stock ExecuTorch runtime."""
    instream, outstream = claim_stdio()
    p = argparse.ArgumentParser(
        prog="python -m pte_rs.runner",
        description="Serves an ExecuTorch program over the pte-runner protocol (for `pte samples check "
                    "SOURCE -- python -m pte_rs.runner PROGRAM.pte`). Requests on stdin, replies on stdout.")
    p.add_argument("program", help="the .pte program")
    p.add_argument("--ptd", action="append", default=[], help="external tensor data (.ptd) the program needs")
    p.add_argument("--verification", choices=["minimal", "internal"], default="internal",
                   help="the runtime's program verification (default: internal consistency)")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    try:
        from .runners import ExecuTorch

        engine = ExecuTorch(args.program, ptd=args.ptd or None, verification=args.verification)
    except Exception as e:
        error = f"cannot start the ExecuTorch runner: {_describe(e)}"
        print(f"pte_rs.runner: {error}", file=sys.stderr)
        _refuse(instream, outstream, error)
        return 2
    print(f"pte_rs.runner: {engine.name} serving {args.program} (methods: {', '.join(engine.methods())})",
          file=sys.stderr)
    return serve(engine, instream, outstream)


# ---- the other side --------------------------------------------------------

class RunnerError(RuntimeError):
    """A runner answered ``ok: false`` (``reply`` holds the whole reply), or broke the protocol."""

    def __init__(self, message: str, reply: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(message)
        self.reply = reply


class Client:
    """Starts a runner (``argv``) and talks to it: :meth:`hello`, :meth:`fresh`, :meth:`call`, :meth:`bye`.

    Usable as a context manager (says ``bye`` and waits for the process). ``stderr``
    is passed to :class:`subprocess.Popen` (default: inherited).
    """

    def __init__(self, argv: Sequence[str], *, stderr: Any = None, env: Optional[Dict[str, str]] = None,
                 cwd: Optional[str] = None) -> None:
        args = list(argv)
        if not args:
            raise ValueError("Client needs a command to run, got an empty argv")
        try:
            self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                            env=env, cwd=cwd)
        except OverflowError as e:  # a file descriptor past C's int
            raise ValueError(f"Client: {e}") from None
        except AttributeError as e:  # stderr neither a descriptor nor a file
            raise TypeError(f"Client: stderr must be None, a file descriptor or a file object: {e}") from None
        self.info: Optional[Dict[str, Any]] = None

    def request(self, header: Dict[str, Any], payload: bytes = b"") -> Tuple[Dict[str, Any], bytes]:
        """Sends one message; returns the reply (header, payload) whatever its ``ok``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            write_message(self.process.stdin, header, payload)
        except (BrokenPipeError, OSError) as e:
            raise RunnerError(f"the runner is gone ({_describe(e)}; exit status {self.process.poll()})") from None
        try:
            msg = read_message(self.process.stdout)
        except ProtocolError as e:
            raise RunnerError(f"the runner broke the protocol: {e}") from None
        if msg is None:
            raise RunnerError(f"the runner closed its output (exit status {self.process.wait()})")
        return msg

    def _ok(self, header: Dict[str, Any], payload: bytes = b"") -> Tuple[Dict[str, Any], bytes]:
        reply, data = self.request(header, payload)
        if reply.get("ok") is not True:
            raise RunnerError(str(reply.get("error", reply)), reply)
        return reply, data

    def hello(self) -> Dict[str, Any]:
        """The runner's ``hello`` reply (``runner``, ``methods``)."""
        self.info, _ = self._ok({"op": "hello", "protocol": PROTOCOL, "version": VERSION})
        return self.info

    def fresh(self) -> None:
        """Asks for the initial state."""
        self._ok({"op": "fresh"})

    def call(self, method: str, inputs: Sequence[Any]) -> List[Any]:
        """Runs ``method`` once; returns its outputs (numpy arrays, lists of them, scalars)."""
        tensors: Dict[str, Any] = {}
        values = encode_values(list(inputs), "in", tensors)
        reply, data = self._ok({"op": "call", "method": method, "inputs": values},
                               encode_safetensors(tensors) if tensors else b"")
        try:
            return decode_values(reply.get("outputs"), decode_safetensors(data) if data else {}, "outputs")
        except ProtocolError as e:
            raise RunnerError(f"the runner's reply is malformed: {e}", reply) from None

    def bye(self) -> int:
        """Says ``bye`` and returns the runner's exit status."""
        if self.process.poll() is None:
            try:
                self._ok({"op": "bye"})
            except RunnerError:
                pass
        if self.process.stdin:
            self.process.stdin.close()
        status = self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()
        return status

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        try:
            self.bye()
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


if __name__ == "__main__":
    sys.exit(main())
