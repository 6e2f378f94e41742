"""Changes one expected element of a recorded set by FACTOR times its tolerance
(a negative control: the check must then fail, naming that element).

    python examples/llm/perturb.py SET_DIR SAMPLE CALL OUTPUT INDEX [FACTOR]

INDEX is the flat (row-major) element index; FACTOR defaults to 10. The
tolerance is the call's resolved one (call, else sample, else set, else the
default atol 1e-8, rtol 1e-5). Prints what it changed.
"""

import sys

import numpy as np

from pte_rs.recording import read_set, write_set


def main(directory, sample, call, output, index, factor="10"):
    sample, call, output, index, factor = int(sample), int(call), int(output), int(index), float(factor)
    s = read_set(directory)
    smp = s.samples[sample]
    c = smp.calls[call]
    atol, rtol = c.tolerance or smp.tolerance or s.tolerance or (1e-8, 1e-5)
    a = np.array(c.outputs[output], copy=True)
    flat = a.reshape(-1)
    e = float(flat[index])
    flat[index] = e + factor * (atol + rtol * abs(e))
    c.outputs[output] = a
    write_set(s, directory)
    print(f"{directory}: samples[{sample}].calls[{call}].outputs[{output}] element {index}: "
          f"{e!r} -> {float(flat[index])!r} ({factor:g} x tolerance atol {atol:g} rtol {rtol:g})")


if __name__ == "__main__":
    main(*sys.argv[1:])
