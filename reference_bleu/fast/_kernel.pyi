"""The compiled counting kernel (spec NUM-KERNEL): present only where it was built."""

from collections.abc import Hashable, Sequence

def clipped_matches(
    candidate: Sequence[Hashable], references: Sequence[Sequence[Hashable]], orders: int
) -> list[int]:
    """Σ_g min(Count(g), max_R Count_R(g)) for n = 1..orders (BLEU-CLIP): fast.clipped_matches's integers."""

def summed_clipped_matches(
    candidates: Sequence[Sequence[Hashable]], references: Sequence[Sequence[Sequence[Hashable]]], orders: int
) -> list[int]:
    """The sum over segments of clipped_matches(candidates[i], references[i], orders), in one call."""

def tokens_13a(line: str) -> list[str]:
    """TOK-13A's tokens of a line, no case folding: tokenizers.fast_13a(line.rstrip()).split()."""

def counts_13a(rows: Sequence[Sequence[str]], systems: int, orders: int) -> tuple[list[list[int]], bytes]:
    """TOK-13A and counting of a chunk of rows (systems' lines, then references): each system's summed
    clipped matches, and each line's number of tokens as native long long bytes (cast "q")."""
