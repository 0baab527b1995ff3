"""The compiled counting kernel (spec NUM-KERNEL): present only where it was built."""

from collections.abc import Hashable, Sequence

def clipped_matches(
    candidate: Sequence[Hashable], references: Sequence[Sequence[Hashable]], orders: int
) -> list[int]:
    """Σ_g min(Count(g), max_R Count_R(g)) for n = 1..orders (BLEU-CLIP): fast.clipped_matches's integers."""
