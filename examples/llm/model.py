"""A tiny stateful decoder: token and position embeddings, RMS norms, one attention layer
over a KV cache held in registered buffers (updated in place at ``input_pos``),
a feed-forward block and an output head.

``forward(tokens [1, T] int64, input_pos [T] int64) -> logits [1, T, VOCAB]``:
``T`` is dynamic (prefill: several tokens at positions 0..T-1; decode: one
token at the next position). Position ``i`` attends to every cached position
``<= input_pos[i]``, so each call depends on what earlier calls left in the cache.
"""

import math

import torch
from torch import nn

VOCAB = 32
DIM = 16
MAX_SEQ = 32


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + self.eps) * self.weight


class TinyDecoder(nn.Module):
    def __init__(self, vocab: int = VOCAB, dim: int = DIM, max_seq: int = MAX_SEQ, seed: int = 0) -> None:
        super().__init__()
        g = torch.Generator().manual_seed(seed)
        self.max_seq = max_seq
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_seq, dim)
        self.norm1 = RMSNorm(dim)
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, dim, bias=False)
        self.wv = nn.Linear(dim, dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.norm2 = RMSNorm(dim)
        self.ff1 = nn.Linear(dim, 2 * dim)
        self.ff2 = nn.Linear(2 * dim, dim)
        self.head = nn.Linear(dim, vocab)
        with torch.no_grad():
            for p in self.parameters():
                p.copy_(torch.randn(p.shape, generator=g) * (0.5 if p.dim() > 1 else 0.1))
        self.register_buffer("k_cache", torch.zeros(1, max_seq, dim))
        self.register_buffer("v_cache", torch.zeros(1, max_seq, dim))
        self.scale = 1.0 / math.sqrt(dim)

    def forward(self, tokens: torch.Tensor, input_pos: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens) + self.pos(input_pos)[None]  # [1, T, dim]
        h = self.norm1(x)
        q, k, v = self.wq(h), self.wk(h), self.wv(h)
        self.k_cache.index_copy_(1, input_pos, k)
        self.v_cache.index_copy_(1, input_pos, v)
        scores = (q @ self.k_cache.transpose(1, 2)) * self.scale  # [1, T, max_seq]
        visible = torch.arange(self.max_seq)[None, :] <= input_pos[:, None]  # [T, max_seq]
        # -1e9, not -inf: to_native's round trip through flatc's JSON cannot read an infinite constant.
        scores = scores.masked_fill(~visible[None], -1e9)
        x = x + self.wo(torch.softmax(scores, dim=-1) @ self.v_cache)
        x = x + self.ff2(torch.relu(self.ff1(self.norm2(x))))
        return self.head(x)


def example_inputs(n: int = 5):
    """A prefill of ``n`` tokens at positions 0..n-1."""
    return (torch.arange(1, n + 1, dtype=torch.int64)[None] % VOCAB, torch.arange(n, dtype=torch.int64))
