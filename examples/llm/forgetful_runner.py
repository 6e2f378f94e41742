"""A deliberately wrong runner: it loads the program again before EVERY call, so
nothing a call leaves in the KV cache reaches the next call.

    pte samples check model.ptn -- python examples/llm/forgetful_runner.py model.pte

A prefill still matches (it starts from the initial state anyway); every decode
call sees empty caches and must fail the check. This is the negative control
that shows ``pte samples check`` really tests the state carried between calls.
"""

import sys

from pte_rs.runner import claim_stdio, serve

# The protocol's stdout is claimed before executorch or torch is imported.
instream, outstream = claim_stdio()

from pte_rs.runners import ExecuTorch  # noqa: E402


class Forgetful(ExecuTorch):
    """ExecuTorch with the state dropped before each call."""

    def call(self, method, inputs):
        self.fresh()  # reloads the program when a call ran since the last load
        return super().call(method, inputs)


if __name__ == "__main__":
    engine = Forgetful(sys.argv[1])
    engine.name = "forgetful " + engine.name
    sys.exit(serve(engine, instream, outstream))
