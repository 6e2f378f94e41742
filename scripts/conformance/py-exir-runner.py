"""Runs exir's own serializer tests with exir's serialize_pte_binary and
deserialize_pte_binary replaced by pte_rs.exir's (used by py-exir-tests.sh)."""
import sys
import unittest

import pte_rs.exir as ours
import executorch.exir._serialize._program as exir_program

exir_program.serialize_pte_binary = ours.serialize_pte_binary
exir_program.deserialize_pte_binary = ours.deserialize_pte_binary
# The test module imports the names at import time: import it after the swap.
from executorch.exir._serialize.test import test_program  # noqa: E402

assert test_program.deserialize_pte_binary is ours.deserialize_pte_binary
assert test_program.serialize_pte_binary is ours.serialize_pte_binary
result = unittest.main(module=test_program, argv=[sys.argv[0]] + sys.argv[1:], exit=False).result
sys.exit(0 if result.wasSuccessful() else 1)
