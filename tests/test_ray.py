"""BLEU over Ray Data datasets (spec NUM-PARTIAL): blocks counted on a local Ray cluster give one run.

The oracle is one single-process ``corpus_bleu`` per group (checked against sacrebleu in
tests/test_text_api.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest

from conformance.data import WMT17, read_lines
from reference_bleu import BleuInputError, corpus_bleu

ray: Any = pytest.importorskip("ray", reason="the Ray integration needs the ray extra")
pytest.importorskip("ray.data", reason="the Ray integration needs the ray extra (ray[data])")
integration = importlib.import_module("reference_bleu.integrations.ray")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield ray.data
    ray.shutdown()


def records(systems: int, rows: int) -> list[dict[str, Any]]:
    refs = read_lines(WMT17, "ref.de")[:rows]
    return [
        {"system": name, "domain": k % 3, "hyp": hyp, "ref": ref, "refs": [ref, hyp[::-1]]}
        for name in WMT17.systems[:systems]
        for k, (hyp, ref) in enumerate(zip(read_lines(WMT17, name)[:rows], refs, strict=True))
    ]


@pytest.mark.parametrize("profile", ["sacrebleu", "nltk", "nltk[method=7]"])
def test_blocks_on_a_local_cluster_give_one_run_per_group(cluster: Any, profile: str) -> None:
    rows = records(3, 300)
    dataset = cluster.from_items(rows, override_num_blocks=7)
    results = integration.corpus_bleu(dataset, "hyp", "refs", by=["system", "domain"], profile=profile)
    assert len(results) == 9
    for (name, domain), result in results.items():
        mine = [row for row in rows if (row["system"], row["domain"]) == (name, domain)]
        whole = corpus_bleu([row["hyp"] for row in mine], [row["refs"] for row in mine], profile=profile)
        assert result.statistics == whole.statistics
        assert result.score_decimal == whole.score_decimal  # method 7 reads the last row: order kept
    everything = integration.corpus_bleu(dataset, "hyp", "ref", tokenize="13a")
    assert (
        everything.statistics
        == corpus_bleu([r["hyp"] for r in rows], [r["ref"] for r in rows], tokenize="13a").statistics
    )


def test_a_bad_row_is_named_by_its_number_in_the_dataset(cluster: Any) -> None:
    rows = [{"hyp": f"h {k}" if k != 19 else None, "ref": f"h {k}"} for k in range(30)]
    dataset = cluster.from_items(rows, override_num_blocks=3)  # blocks of ten: row 19 is the second's tenth
    with pytest.raises(BleuInputError, match=r"^hypothesis 19 is a NoneType"):
        integration.corpus_bleu(dataset, "hyp", "ref", tokenize="13a")
