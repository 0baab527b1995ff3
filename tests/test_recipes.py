"""The guide's recipes run as written (spec NUM-PARTIAL): Hugging Face ``datasets.map`` over 2 processes.

docs/beyond-one-machine.md shows code for engines the default tier does not install; the block
after each ``<!-- recipe: NAME -->`` runs here on WMT17 rows, and its result must equal one
single-process ``corpus_bleu`` (checked against sacrebleu in tests/test_text_api.py). The
multiprocessing example of the same guide is a doctest.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from conformance.data import WMT17, read_lines
from reference_bleu import corpus_bleu

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "beyond-one-machine.md"


def recipe(name: str) -> str:
    """The code block after ``<!-- recipe: name -->`` in the guide."""
    found = re.search(
        rf"<!-- recipe: {name} -->\n```python\n(.*?)\n```", GUIDE.read_text(encoding="utf-8"), re.S
    )
    assert found is not None, f"no recipe {name} in {GUIDE.name}"
    return found.group(1)


def test_the_datasets_map_recipe_over_two_processes_is_one_run(monkeypatch: pytest.MonkeyPatch) -> None:
    datasets: Any = pytest.importorskip("datasets", reason="the recipe needs the datasets extra")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    refs = read_lines(WMT17, "ref.de")
    hyps = read_lines(WMT17, WMT17.systems[0])
    namespace: dict[str, Any] = {"dataset": datasets.Dataset.from_dict({"hyp": hyps, "ref": refs})}
    exec(recipe("datasets"), namespace)  # noqa: S102 -- the guide's own code
    result = namespace["result"]
    whole = corpus_bleu(hyps, refs, profile="sacrebleu")
    assert namespace["total"].segments == len(hyps) == 3004  # four batches of 1,000 rows or fewer
    assert result.statistics == whole.statistics
    assert result.score_decimal == whole.score_decimal
