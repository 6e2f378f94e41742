"""The package imports its submodules when they are first used, so that
``python -m pte_rs.runner`` starts without runpy's RuntimeWarning (which used
to open every runner's stderr, and so every failure ``pte samples check``
shows), and every documented name is still there."""

import subprocess
import sys
import textwrap

import pytest

import pte_rs

SUBMODULES = ["recording", "runner", "runners", "samples", "exir", "fuzz"]


def run(*args, code=None):
    argv = [sys.executable, "-X", "dev", *args] + (["-c", textwrap.dedent(code)] if code else [])
    return subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("warnings", [[], ["-W", "error"]], ids=["default", "W-error"])
def test_module_runner_starts_without_a_runtime_warning(warnings):
    p = run(*warnings, "-m", "pte_rs.runner", "--help")
    assert "RuntimeWarning" not in p.stderr and "found in sys.modules" not in p.stderr, p.stderr
    # the help goes to stderr: the runner keeps stdout for the protocol
    assert p.returncode == 0, p.stderr
    assert p.stderr.startswith("usage: python -m pte_rs.runner"), p.stderr
    assert p.stdout == ""


def test_importing_the_package_imports_no_submodule():
    p = run(code=f"""
        import sys
        import pte_rs
        print(sorted(m for m in sys.modules if m.startswith("pte_rs.") and m[7:] in {SUBMODULES!r}))
    """)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"


@pytest.mark.parametrize("name", SUBMODULES)
def test_every_submodule_is_there_when_asked_for(name):
    p = run(code=f"""
        import pte_rs
        from pte_rs import {name} as a
        import pte_rs.{name} as b
        assert a is b is pte_rs.{name} is getattr(pte_rs, "{name}")
        assert "{name}" in dir(pte_rs)
    """)
    assert p.returncode == 0, p.stderr


def test_every_public_name_imports():
    p = run(code="""
        import pte_rs
        from pte_rs import *  # noqa: F403
        for n in pte_rs.__all__:
            assert n in globals(), n
        assert pte_rs.runner.Client and pte_rs.samples.verify and pte_rs.runners.ExecuTorch
    """)
    assert p.returncode == 0, p.stderr


def test_an_unknown_attribute_is_still_an_attribute_error():
    with pytest.raises(AttributeError, match="module 'pte_rs' has no attribute 'nonesuch'"):
        pte_rs.nonesuch  # noqa: B018
