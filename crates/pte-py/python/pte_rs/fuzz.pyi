def mutate(data: bytes, max_size: int, seed: int) -> bytes:
    """A mutant of ``data`` of at most ``max_size`` bytes; the same for the same data and seed."""

def cross_over(data1: bytes, data2: bytes, max_out_size: int, seed: int) -> bytes:
    """A child of the two inputs of at most ``max_out_size`` bytes; the same for the same inputs and seed."""

__all__ = ["mutate", "cross_over"]
