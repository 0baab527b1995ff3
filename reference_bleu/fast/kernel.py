"""The optional compiled kernel, loaded where it was built (spec NUM-KERNEL).

``_kernel.c`` is one C file against the CPython API, compiled at install time where a compiler
is present (``hatch_build.py``); without it the pure-Python fast path counts the same integers.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Hashable, Sequence
from types import ModuleType

#: Set to "1", the pure-Python path counts even where the compiled kernel is installed (NUM-KERNEL).
PURE_PYTHON_VARIABLE = "REFERENCE_BLEU_PURE_PYTHON"


def kernel_module() -> ModuleType | None:
    """NUM-KERNEL. The compiled kernel's module; ``None``: not built here, or the variable says no."""
    if os.environ.get(PURE_PYTHON_VARIABLE) == "1":
        return None
    try:
        return importlib.import_module("reference_bleu.fast._kernel")  # optional: built at install time
    except ImportError:
        return None


def load_kernel() -> Callable[[Sequence[Hashable], Sequence[Sequence[Hashable]], int], list[int]] | None:
    """NUM-KERNEL. The compiled ``clipped_matches``; ``None``: not built here, or the variable says no."""
    module = kernel_module()
    return None if module is None else module.clipped_matches


def kernel_tokenizers() -> dict[str, int]:
    """NUM-KERNEL. The tokenizers the loaded kernel runs, by name, each with its number for the kernel's
    ``tokens``, ``counts_rows`` and ``counts_lines``; empty where the kernel is not loaded (or was
    built before it had them)."""
    module = kernel_module()
    names: tuple[str, ...] = getattr(module, "TOKENIZERS", ())
    return {name: number for number, name in enumerate(names)}
