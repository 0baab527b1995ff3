"""BLEU over Dask dataframes (spec NUM-PARTIAL): any partitioning and a 2-process cluster give one run.

The oracle is one single-process ``corpus_bleu`` per group (checked against sacrebleu in
tests/test_text_api.py) and ``sentence_bleu`` per row.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.data import WMT17, read_lines
from reference_bleu import BleuInputError, corpus_bleu, sentence_bleu

dd: Any = pytest.importorskip("dask.dataframe", reason="the Dask integration needs the dask extra")
dask: Any = importlib.import_module("dask")
pd: Any = importlib.import_module("pandas")
integration = importlib.import_module("reference_bleu.integrations.dask")


@cache
def long_frame(systems: int = 16, rows: int | None = None) -> Any:
    """WMT17 en-de, one row per (system, segment): the systems' outputs against the one reference."""
    refs = read_lines(WMT17, "ref.de")[:rows]
    records = [
        {"system": name, "domain": k % 3, "hyp": hyp, "ref": ref}
        for name in WMT17.systems[:systems]
        for k, (hyp, ref) in enumerate(zip(read_lines(WMT17, name)[:rows], refs, strict=True))
    ]
    return pd.DataFrame.from_records(records)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    distributed = pytest.importorskip("distributed", reason="the LocalCluster needs the dask extra")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as local,
        distributed.Client(local) as client,
    ):
        yield client


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(1, 199), max_size=5, unique=True), st.sampled_from(["sacrebleu", "nltk", "coco"]))
def test_any_partitioning_gives_one_runs_statistics_per_group(cuts: list[int], profile: str) -> None:
    frame = long_frame(3, 100)  # 300 rows: 3 systems of 100 segments
    divisions = [0, *sorted(cuts), len(frame) - 1]
    parted = dd.from_pandas(frame, npartitions=1).repartition(divisions=divisions)
    with importlib.import_module("dask").config.set(scheduler="synchronous"):
        results = integration.corpus_bleu(parted, "hyp", "ref", by="system", profile=profile)
    assert set(results) == set(WMT17.systems[:3])
    for name, result in results.items():
        rows = frame[frame.system == name]
        whole = corpus_bleu(rows.hyp.tolist(), rows.ref.tolist(), profile=profile)
        assert result.statistics == whole.statistics
        assert result.score_decimal == whole.score_decimal
        assert result.reported_text == whole.reported_text


def test_two_keys_and_no_key() -> None:
    frame = long_frame(2, 60)
    parted = dd.from_pandas(frame, npartitions=3)
    with importlib.import_module("dask").config.set(scheduler="synchronous"):
        by_two = integration.corpus_bleu(parted, "hyp", ["ref"], by=["system", "domain"], tokenize="13a")
        everything = integration.corpus_bleu(parted, "hyp", "ref", tokenize="13a")
    assert len(by_two) == 6
    for (name, domain), result in by_two.items():
        rows = frame[(frame.system == name) & (frame.domain == domain)]
        assert (
            result.statistics == corpus_bleu(rows.hyp.tolist(), rows.ref.tolist(), tokenize="13a").statistics
        )
    assert (
        everything.statistics
        == corpus_bleu(frame.hyp.tolist(), frame.ref.tolist(), tokenize="13a").statistics
    )


def test_several_reference_columns_and_a_missing_cell() -> None:
    # By hand: row 0 has two references ("a b c" and "a b d"), row 1 one (its second cell is
    # missing). Unigrams: "a b c" all match through the second reference (3), of "x y" only "x"
    # matches "x z" (1): m_1 = 4, l_1 = 5; r = 3 + 2 = 5.
    frame = pd.DataFrame({"hyp": ["a b c", "x y"], "r1": ["a b d", "x z"], "r2": ["a b c", None]})
    parted = dd.from_pandas(frame, npartitions=2)
    with importlib.import_module("dask").config.set(scheduler="synchronous"):
        result = integration.corpus_bleu(parted, "hyp", ["r1", "r2"], tokenize="none", max_order=1)
    assert (result.matches, result.totals, result.ref_len) == ((4,), (5,), 5)


def per_group(results: dict[Any, Any], frame: Any, profile: str) -> None:
    """Each group's result equals one single-process run on its rows."""
    assert set(results) == set(frame.system)
    for name, result in results.items():
        rows = frame[frame.system == name]
        whole = corpus_bleu(rows.hyp.tolist(), rows.ref.tolist(), profile=profile)
        assert result.statistics == whole.statistics
        assert result.score_decimal == whole.score_decimal


def test_a_lazy_result_is_computed_with_other_results() -> None:
    frame = long_frame(2, 50)
    parted = dd.from_pandas(frame, npartitions=4)
    lazy = integration.corpus_bleu(parted, "hyp", "ref", by="system", profile="sacrebleu", compute=False)
    assert dask.is_dask_collection(lazy)
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings():
        warnings.simplefilter("error")  # no "mixed collections" warning: one graph with the frame's
        results, rows = dask.compute(lazy, parted.hyp.count())
    assert rows == 100
    per_group(results, frame, "sacrebleu")


def test_a_bad_row_is_named_by_its_number_in_the_frame() -> None:
    # Three partitions of ten rows; row 19 (the last of the second) has no hypothesis. Its
    # position in its partition is 9: the error names 19.
    hyps = [f"h {k}" if k != 19 else None for k in range(30)]
    frame = dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref": [f"h {k}" for k in range(30)]}), npartitions=3)
    assert frame.map_partitions(len).compute().tolist() == [10, 10, 10]
    with (
        dask.config.set(scheduler="synchronous"),
        pytest.raises(BleuInputError, match=r"^hypothesis 19 is a \w+; with text hypotheses"),
    ):
        integration.corpus_bleu(frame, "hyp", "ref", tokenize="13a")


def test_one_partition_on_several_workers_gives_a_warning() -> None:
    frame = dd.from_pandas(long_frame(1, 20), npartitions=1)
    with (
        dask.config.set(scheduler="threads", num_workers=2),
        pytest.warns(RuntimeWarning, match="one partition"),
    ):
        integration.corpus_bleu(frame, "hyp", "ref", tokenize="13a")
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings():
        warnings.simplefilter("error")  # one worker: nothing to split for
        integration.corpus_bleu(frame, "hyp", "ref", tokenize="13a")


def flaky_part(where: tuple[str, int]) -> Any:
    """Rows 20k..20k+19 of two systems' frame; the first attempt at each part fails (a marker file says)."""
    folder, k = where
    marker = Path(folder, f"tried-{k}")
    if not marker.exists():
        marker.touch()
        raise ConnectionError(f"part {k}: the first attempt fails")
    return long_frame(2, 40).iloc[k * 20 : (k + 1) * 20]


@pytest.mark.slow
def test_retries_are_passed_to_the_cluster(cluster: Any, tmp_path: Path) -> None:
    meta = long_frame(2, 40).iloc[:0]
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    failing = dd.from_map(flaky_part, [(str(first), k) for k in range(4)], meta=meta)
    with pytest.raises(ConnectionError, match="the first attempt fails"):
        integration.corpus_bleu(failing, "hyp", "ref", by="system", profile="sacrebleu")
    retried = dd.from_map(flaky_part, [(str(second), k) for k in range(4)], meta=meta)
    results = integration.corpus_bleu(retried, "hyp", "ref", by="system", profile="sacrebleu", retries=1)
    per_group(results, long_frame(2, 40), "sacrebleu")


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Sending large graph")
def test_a_two_process_cluster_gives_every_wmt17_systems_one_run(cluster: Any) -> None:
    frame = long_frame()
    parted = dd.from_pandas(frame, npartitions=8)
    results = integration.corpus_bleu(parted, "hyp", "ref", by="system", profile="sacrebleu")
    assert len(results) == 16
    for name, result in results.items():
        rows = frame[frame.system == name]
        whole = corpus_bleu(rows.hyp.tolist(), rows.ref.tolist(), profile="sacrebleu")
        assert result.statistics == whole.statistics
        assert result.score_decimal == whole.score_decimal


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Sending large graph")
def test_a_sentence_column_on_the_cluster_equals_sentence_bleu(cluster: Any) -> None:
    frame = long_frame(2, 400)
    parted = dd.from_pandas(frame, npartitions=4)
    column = integration.sentence_bleu(parted, "hyp", "ref", profile="sacrebleu-sentence", field="reported")
    values = column.compute().tolist()
    expected = [
        sentence_bleu(h, r, profile="sacrebleu-sentence").reported
        for h, r in zip(frame.hyp, frame.ref, strict=True)
    ]
    assert values == expected
