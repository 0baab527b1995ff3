"""The compiled counting kernel (spec NUM-KERNEL): present only where it was built."""

from collections.abc import Hashable, Sequence
from typing import Any

#: The tokenizers of ``tokens``, ``counts_rows`` and ``counts_lines``: a tokenizer's number is its index.
TOKENIZERS: tuple[str, ...]

def clipped_matches(
    candidate: Sequence[Hashable], references: Sequence[Sequence[Hashable]], orders: int
) -> list[int]:
    """Σ_g min(Count(g), max_R Count_R(g)) for n = 1..orders (BLEU-CLIP): fast.clipped_matches's integers."""

def summed_clipped_matches(
    candidates: Sequence[Sequence[Hashable]], references: Sequence[Sequence[Sequence[Hashable]]], orders: int
) -> list[int]:
    """The sum over segments of clipped_matches(candidates[i], references[i], orders), in one call."""

def tokens(line: str, tokenizer: int) -> list[str]:
    """TOK-PIPELINE's tokens of a line, no case folding: tokenizer(name)(line.rstrip()).split()."""

def counts_rows(
    rows: Sequence[Sequence[str]], systems: int, orders: int, tokenizer: int
) -> tuple[list[list[int]], bytes, list[list[int]], list[int]]:
    """Tokenizing and counting of rows of text (systems' lines, then references): each system's summed
    clipped matches, each line's number of tokens as native long long bytes (cast "q"), each system's
    summed totals max(0, c - n + 1), each column's number of tokens."""

def counts_lines(
    buffers: Sequence[bytes | str], systems: int, orders: int, tokenizer: int, segments: bool = False
) -> tuple[Any, ...]:
    """counts_rows of the lines of blocks (each ended by "\\n", as many in each; bytes are UTF-8): the rows
    counted, the file whose next line is not valid UTF-8 (-1: none), then counts_rows's answer, then with
    ``segments`` each row's own clipped matches of each system as native long long bytes."""

def skip_lines(buffer: bytes | str, start: int, count: int) -> int:
    """The position just after ``count`` line ends from ``start``."""

def long_line(buffer: bytes, limit: int) -> int:
    """The index of the first line longer than ``limit`` bytes without its "\\n", or -1."""
