"""The catalogue read (spec CONF-DIAGNOSIS): ``catalogue.json``'s entries, each with its computation.

An entry says what the bug is (``meaning``: the words a diagnosis is given in), how it changes the
paper's computation (``mutation``, a formula), which spec entries it breaks, where it is seen (public
issues and pull requests by repository and number, or code; none with a note where none was found),
which faults it is easily taken for and the question that tells them apart, and an example with the
paper's value and the fault's, each computed by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from conformance.faults.computations import COMPUTATIONS
from conformance.faults.mutations import Mutation

PATH = Path(__file__).with_name("catalogue.json")


@dataclass(frozen=True)
class Fault:
    """One bug class: its catalogue entry and its computation."""

    id: str
    meaning: str
    mutation: str
    breaks: tuple[str, ...]
    seen_in: tuple[dict[str, Any], ...]
    confused_with: tuple[str, ...]
    question: str
    example: dict[str, Any]
    compute: Mutation
    note: str = ""

    @property
    def reports(self) -> tuple[str, ...]:
        """Where it is seen, as references (``owner/repo#N``, or a file)."""
        return tuple(str(item["ref"]) for item in self.seen_in)


@cache
def catalogue() -> tuple[Fault, ...]:
    """CONF-DIAGNOSIS. Every fault, in the catalogue's order; a ValueError when an entry and the
    computations disagree."""
    entries = json.loads(PATH.read_text(encoding="utf-8"))["faults"]
    ids = [e["id"] for e in entries]
    if len(set(ids)) != len(ids) or set(ids) != set(COMPUTATIONS):
        raise ValueError(
            f"catalogue.json and computations.py disagree: {sorted(set(ids) ^ set(COMPUTATIONS))}"
        )
    return tuple(
        Fault(
            id=e["id"],
            meaning=e["meaning"],
            mutation=e["mutation"],
            breaks=tuple(e["breaks"]),
            seen_in=tuple(e["seen_in"]),
            confused_with=tuple(e["confused_with"]),
            question=e["question"],
            example=e["example"],
            compute=COMPUTATIONS[e["id"]],
            note=e.get("note", ""),
        )
        for e in entries
    )


def by_id() -> dict[str, Fault]:
    """The faults by ID."""
    return {fault.id: fault for fault in catalogue()}
