"""Predicate server for scripts/fuzz/shrink-regressions.sh: imports the stock
runtime and exir once (tens of seconds), then answers each candidate in a
forked child, so a crash kills only the child and a run costs milliseconds.

    python shrink_oracle.py serve SOCKET [TIMEOUT_S]   # venv python
    python shrink_oracle.py ask SOCKET MODE EXPECTED PATH
    python shrink_oracle.py what SOCKET MODE PATH
    python shrink_oracle.py judge SOCKET MODE PATH


MODE is `et` (Runtime.load_program with InternalConsistency, then every
method's load_method, as scripts/conformance/et_load_worker.py does) or
`exir` (exir's deserialize_pte_binary). The answer is `ok`, `signal N`,
`exception TYPE at FILE:LINE` (where it was raised, as
scripts/fuzz/harness/exir_deserialize.py tells findings apart) or
`timeout`; `ask` exits 0 when it equals EXPECTED (the same parser failing
the same way), 1 otherwise. `judge` answers as the parser would for `pte
conformance run` (scripts/conformance/external-parsers.sh): exit 0 when it
accepts, 1 when it raises, killed by the same signal when it crashed, and
still running (for the run's timeout to call a hang) when it hung.
"""

import os
import signal
import socket
import sys
import traceback


def _load(mode: str, path: str) -> None:
    data = open(path, "rb").read()
    if mode == "et":
        from executorch.runtime import Runtime, Verification

        prog = Runtime.get().load_program(data, verification=Verification.InternalConsistency)
        for name in sorted(prog.method_names):
            prog.load_method(name)
    else:
        from executorch.exir._serialize._program import deserialize_pte_binary

        deserialize_pte_binary(data)


def _answer(mode: str, path: str, timeout: float) -> str:
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        try:
            _load(mode, path)
            out = "ok"
        except BaseException as e:  # noqa: BLE001 - the type and place are the answer
            tb = traceback.extract_tb(e.__traceback__)
            where = f" at {os.path.basename(tb[-1].filename)}:{tb[-1].lineno}" if tb else ""
            out = f"exception {type(e).__name__}{where}"
        os.write(w, out.encode())
        os._exit(0)
    os.close(w)
    signal.signal(signal.SIGALRM, lambda *_: os.kill(pid, signal.SIGKILL))
    signal.setitimer(signal.ITIMER_REAL, timeout)
    _, status = os.waitpid(pid, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)
    text = os.read(r, 4096).decode(errors="replace")
    os.close(r)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return "timeout" if sig == signal.SIGKILL else f"signal {sig}"
    return text or f"exit {os.WEXITSTATUS(status)}"


def serve(sock_path: str, timeout: float) -> None:
    from executorch.runtime import Runtime  # noqa: F401 - imported once, before any fork
    from executorch.exir._serialize._program import deserialize_pte_binary  # noqa: F401

    Runtime.get()
    if os.path.exists(sock_path):
        os.unlink(sock_path)
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(sock_path)
    srv.listen(8)
    print("READY", flush=True)
    while True:
        conn, _ = srv.accept()
        # reap finished handlers (not SIG_IGN on SIGCHLD: handlers inherit
        # it, and their own waitpid would fail)
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
        line = conn.makefile().readline().strip()
        if line == "quit":
            return
        # one handler per request, so several shrinks can ask at once
        if os.fork() == 0:
            srv.close()
            mode, path = line.split(" ", 1)
            conn.sendall((_answer(mode, path, timeout) + "\n").encode())
            conn.close()
            os._exit(0)
        conn.close()


def ask(sock_path: str, mode: str, path: str) -> str:
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    c.connect(sock_path)
    c.sendall(f"{mode} {os.path.abspath(path)}\n".encode())
    return c.makefile().readline().strip()


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "serve":
        serve(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 20.0)
    elif cmd == "what":
        print(ask(sys.argv[2], sys.argv[3], sys.argv[4]))
    elif cmd == "judge":
        answer = ask(sys.argv[2], sys.argv[3], sys.argv[4])
        if answer.startswith("signal "):
            sig = int(answer.split()[1])
            signal.signal(sig, signal.SIG_DFL)
            os.kill(os.getpid(), sig)
        elif answer == "timeout":
            signal.pause()
        print(answer, file=sys.stderr)
        sys.exit(0 if answer == "ok" else 1)
    elif cmd == "quit":
        c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        c.connect(sys.argv[2])
        c.sendall(b"quit\n")
    else:
        _, _, sock_path, mode, expected, path = sys.argv
        sys.exit(0 if ask(sock_path, mode, path) == expected else 1)
