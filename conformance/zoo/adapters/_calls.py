"""Calling conventions the adapters share (spec CONF-ZOO): the layouts tools take references in, and
a package imported without its ``__init__``. None of it is a part of BLEU."""

from __future__ import annotations

import importlib.util
import os
import sys
import types
from typing import Any


def capabilities(name: str, input_kind: str, levels: list[str], scale: str = "unit") -> dict[str, Any]:
    """An adapter's capabilities (CONF-PROTOCOL): scores only, no statistics."""
    return {"name": name, "input": input_kind, "levels": levels, "statistics": False, "scale": scale}


def single(references: list[list[Any]]) -> list[Any]:
    """The one reference of each segment, for a tool that takes one (run with ``--references one``)."""
    if any(len(r) != 1 for r in references):
        raise ValueError("this tool takes exactly one reference per segment")
    return [r[0] for r in references]


def streams(references: list[list[Any]]) -> list[list[Any]]:
    """sacrebleu's layout: one stream per reference index, ``None`` where a segment has fewer."""
    width = max((len(r) for r in references), default=0)
    return [[r[k] if k < len(r) else None for r in references] for k in range(width)]


def without_init(package: str, beside: str, subpackages: tuple[str, ...] = ()) -> None:
    """Register ``package`` (installed beside the module ``beside``) and its ``subpackages`` as empty
    package objects, so that one of their modules imports without running their ``__init__`` (which
    imports a stack the tool's BLEU does not need). No code of the tool is copied or changed."""
    spec = importlib.util.find_spec(beside)
    if spec is None or spec.origin is None:
        raise ImportError(f"{beside} is not installed")
    root = os.path.normpath(os.path.join(os.path.dirname(spec.origin), "..", package))
    for name in (package, *(f"{package}.{s}" for s in subpackages)):
        if name not in sys.modules:
            module = types.ModuleType(name)
            module.__path__ = [os.path.join(root, *name.split(".")[1:])]
            sys.modules[name] = module
