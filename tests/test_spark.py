"""BLEU over Spark dataframes in local[2] (spec NUM-PARTIAL): every WMT17 system grouped gives one run.

The oracle is one single-process ``corpus_bleu`` per group (checked against sacrebleu in
tests/test_text_api.py) and ``sentence_bleu`` per row.
"""

from __future__ import annotations

import importlib
import os
import shutil
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.data import WMT17, read_lines
from reference_bleu import corpus_bleu, sentence_bleu

pytest.importorskip("pyspark", reason="the Spark integration needs the spark extra")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs Java (no java on PATH, no JAVA_HOME)", allow_module_level=True)
integration = importlib.import_module("reference_bleu.integrations.spark")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the executors import reference_bleu
    sql: Any = importlib.import_module("pyspark.sql")
    session = (
        sql.SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    yield session
    session.stop()


def records(systems: int, rows: int | None = None) -> list[tuple[str, int, str, str]]:
    refs = read_lines(WMT17, "ref.de")[:rows]
    return [
        (name, k % 3, hyp, ref)
        for name in WMT17.systems[:systems]
        for k, (hyp, ref) in enumerate(zip(read_lines(WMT17, name)[:rows], refs, strict=True))
    ]


def test_every_wmt17_system_grouped_gives_one_run(spark: Any) -> None:
    rows = records(16)
    frame = spark.createDataFrame(rows, ["system", "domain", "hyp", "ref"]).repartition(6)
    results = integration.corpus_bleu(frame, "hyp", "ref", by="system", profile="sacrebleu")
    assert len(results) == 16
    for name, result in results.items():
        hyps = [h for s, _, h, _ in rows if s == name]
        refs = [r for s, _, _, r in rows if s == name]
        whole = corpus_bleu(hyps, refs, profile="sacrebleu")
        assert result.statistics == whole.statistics
        assert result.score_decimal == whole.score_decimal


def test_two_keys_a_sentence_column_and_the_evaluator(spark: Any) -> None:
    rows = records(2, 150)
    frame = spark.createDataFrame(rows, ["system", "domain", "hyp", "ref"]).repartition(3)
    by_two = integration.corpus_bleu(frame, "hyp", ["ref"], by=["system", "domain"], tokenize="13a")
    assert len(by_two) == 6
    for (name, domain), result in by_two.items():
        chosen = [(h, r) for s, d, h, r in rows if (s, d) == (name, domain)]
        whole = corpus_bleu([h for h, _ in chosen], [r for _, r in chosen], tokenize="13a")
        assert result.statistics == whole.statistics
    column = integration.sentence_bleu("hyp", "ref", profile="sacrebleu-sentence", field="reported")
    ordered = spark.createDataFrame(rows, ["system", "domain", "hyp", "ref"]).coalesce(1)
    values = [row["bleu"] for row in ordered.withColumn("bleu", column).collect()]
    assert values == [sentence_bleu(h, r, profile="sacrebleu-sentence").reported for _, _, h, r in rows]
    evaluator = integration.bleu_evaluator(predictionCol="hyp", labelCol="ref", profile="sacrebleu")
    assert evaluator.isLargerBetter()
    expected = corpus_bleu([h for *_, h, _ in rows], [r for *_, r in rows], profile="sacrebleu")
    assert evaluator.evaluate(frame) == expected.score


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.integers(1, 7), st.sampled_from(["sacrebleu", "nltk", "coco"]))
def test_any_partitioning_gives_one_runs_statistics_per_group(
    spark: Any, partitions: int, profile: str
) -> None:
    rows = records(3, 80)
    frame = spark.createDataFrame(rows, ["system", "domain", "hyp", "ref"]).repartition(partitions)
    results = integration.corpus_bleu(frame, "hyp", "ref", by="system", profile=profile)
    for name, result in results.items():
        whole = corpus_bleu(
            [h for s, _, h, _ in rows if s == name], [r for s, *_, r in rows if s == name], profile=profile
        )
        assert result.statistics == whole.statistics
        assert result.score_decimal == whole.score_decimal
