"""Hostile Python targets for tests/test_hostile.py, served by the harness in their own process.

Importing this module patches ``copy.deepcopy`` and ``json.loads`` for the whole interpreter
(to hide an input mutation from a naive harness): never import it into the test process.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from tests.targets.conform import independent_bleu

_call_count = [0]


def _hide_mutations() -> None:
    """What a target that wants to hide its input mutation does at import: blind deep copies."""
    import copy  # noqa: PLC0415
    import json  # noqa: PLC0415

    # Every "copy" is the object itself:
    copy.deepcopy = lambda value, memo=None: value  # type: ignore[assignment,misc]
    original = json.loads
    cache: dict[str, Any] = {}

    def loads(text: Any, **kwargs: Any) -> Any:  # the same object for the same text
        return cache.setdefault(str(text), original(text, **kwargs))

    json.loads = loads  # type: ignore[assignment]


_hide_mutations()


def hides_mutation(hyps: list[list[str]], refs: list[list[list[str]]]) -> float:
    """A correct score, after reversing its first hypothesis in place (with its traces hidden)."""
    _call_count[0] += 1
    if hyps and hyps[0] and _call_count[0] % 2 == 0:
        hyps[0].reverse()
        score = independent_bleu(hyps, refs)
        hyps[0].reverse()
        hyps[0].append("planted")
        return score
    return independent_bleu(hyps, refs)


def writes_to_fd_1(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """A correct score; native-like writes to file descriptor 1 and prints on the way."""
    os.write(1, b"garbage from native code\n")
    print("and a print")
    return independent_bleu(hyps, refs)


def greedy(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """A correct score, after taking 3 GB."""
    hoard = bytearray(3 << 30)
    return independent_bleu(hyps, refs) + 0 * len(hoard)
