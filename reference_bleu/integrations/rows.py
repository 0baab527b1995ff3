"""Rows of a dataframe as (hypothesis, references): what the engines' workers read (spec API-TEXT)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence

from reference_bleu.errors import BleuInputError


def columns(names: str | Sequence[str], what: str) -> list[str]:
    """The column names given: one name or a list of them (BleuInputError otherwise)."""
    listed = [names] if isinstance(names, str) else list(names)
    if not listed or not all(isinstance(name, str) for name in listed):
        raise BleuInputError("BLEU-INPUT", f"{what} must name one column or a list of columns")
    return listed


def missing(value: object) -> bool:
    """A missing cell: None, NaN or pandas' NA."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return True
    return type(value).__name__ == "NAType"


def row_references(cells: Sequence[object]) -> object:
    """One row's references: one column holding a line or a list of lines, or one column per reference."""
    if len(cells) == 1:
        value = cells[0]
        if isinstance(value, str):
            return value
        if hasattr(value, "tolist"):  # a list cell read from Parquet or Arrow is an array
            value = value.tolist()
        return list(value) if isinstance(value, Iterable) else value
    return [cell for cell in cells if not missing(cell)]  # a missing cell: that row has fewer references


def group_key(cells: Sequence[object]) -> Hashable:
    """A row's group: ``None`` without ``by``, the value of one column, a tuple of several."""
    if not cells:
        return None
    return cells[0] if len(cells) == 1 else tuple(cells)
