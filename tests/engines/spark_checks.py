"""The Spark checks, run on a classic session in the test process or on Spark Connect in a client process.

:func:`run` does every call a user of the integration makes (grouped results, the grouped
DataFrame, a sentence column, the evaluator with its Params saved and loaded alone and in a
CrossValidator over a Pipeline, a bad row's error) and returns what came back as JSON; the test
compares it with single-process runs (tests/test_spark.py). A Spark Connect client cannot share
its process with a classic session (pyspark picks one mode per process), so ``python -m
tests.engines.spark_checks sc://host:port OUT`` runs the checks on a Connect server.
"""

from __future__ import annotations

import importlib
import json
import sys
import tempfile
from typing import Any

from conformance.data import WMT17, read_lines
from reference_bleu.integrations import spark as integration

SYSTEMS, ROWS = 3, 120  # WMT17 systems and segments of each in the grouped checks
BAD = 19  # the row with no hypothesis, in the second of three partitions of ten rows


def records(systems: int = SYSTEMS, rows: int = ROWS) -> list[tuple[str, int, str, str]]:
    """(system, domain, hypothesis, reference) of the first WMT17 systems' first segments."""
    refs = read_lines(WMT17, "ref.de")[:rows]
    return [
        (name, k % 3, hyp, ref)
        for name in WMT17.systems[:systems]
        for k, (hyp, ref) in enumerate(zip(read_lines(WMT17, name)[:rows], refs, strict=True))
    ]


def _result(result: Any) -> dict[str, Any]:
    return {
        "statistics": [list(result.matches), list(result.totals), result.hyp_len, str(result.ref_len)],
        "score_decimal": str(result.score_decimal),
        "score": result.score,
    }


def run(spark: Any) -> dict[str, Any]:
    """Every check on this session; what came back, as JSON."""
    functions = importlib.import_module("pyspark.sql.functions")
    ml, feature = importlib.import_module("pyspark.ml"), importlib.import_module("pyspark.ml.feature")
    tuning = importlib.import_module("pyspark.ml.tuning")
    rows = records()
    frame = spark.createDataFrame(rows, ["system", "domain", "hyp", "ref"]).repartition(4)
    report: dict[str, Any] = {}
    grouped: Any = integration.corpus_bleu(frame, "hyp", "ref", by="system", profile="sacrebleu")
    report["grouped"] = {name: _result(result) for name, result in grouped.items()}
    by_two: Any = integration.corpus_bleu(frame, "hyp", ["ref"], by=["system", "domain"], profile="nltk")
    report["by_two"] = [[name, domain, _result(result)] for (name, domain), result in by_two.items()]
    table = integration.grouped_bleu(frame, "hyp", "ref", "system", profile="sacrebleu")
    report["table_columns"] = table.columns
    report["table"] = [
        [row["system"], row["segments"], row["matches"], row["totals"], row["score_decimal"], row["bleu"]]
        for row in table.orderBy("system").collect()
    ]
    ordered = spark.createDataFrame(rows[:60], ["system", "domain", "hyp", "ref"]).coalesce(1)
    column = integration.sentence_bleu("hyp", "ref", profile="sacrebleu-sentence", field="reported")
    report["sentences"] = [row["bleu"] for row in ordered.withColumn("bleu", column).collect()]
    report["evaluator"] = _evaluator_checks(frame, ml, feature, tuning)
    numbered = spark.range(0, 30, 1, 3).select(
        functions.when(functions.col("id") == BAD, None)
        .otherwise(functions.format_string("h %d", "id"))
        .alias("hyp"),
        functions.format_string("h %d", "id").alias("ref"),
    )
    try:
        integration.corpus_bleu(numbered, "hyp", "ref", tokenize="13a")
    except ValueError as error:
        report["bad_row"] = [type(error).__name__, str(error)]
    return report


def _evaluator_checks(frame: Any, ml: Any, feature: Any, tuning: Any) -> dict[str, Any]:
    """The evaluator: its value, its Params saved and loaded alone and in a CrossValidator of a Pipeline."""
    evaluator = integration.BleuEvaluator(
        predictionCol="hyp", labelCol="ref", profile="sacrebleu", options=json.dumps({"tokenize": "intl"})
    )
    checks: dict[str, Any] = {"bleu": evaluator.evaluate(frame), "larger": evaluator.isLargerBetter()}
    checks["reported"] = evaluator.copy({evaluator.metricName: "reported"}).evaluate(frame)
    folder = tempfile.mkdtemp()
    evaluator.save(f"{folder}/evaluator")
    loaded = integration.BleuEvaluator.load(f"{folder}/evaluator")
    checks["loaded"] = [
        type(loaded).__name__,
        loaded.getProfile(),
        loaded.getOptions(),
        loaded.getLabelCol(),
        loaded.getMetricName(),
        loaded.evaluate(frame),
    ]
    pipeline = ml.Pipeline(
        stages=[feature.SQLTransformer(statement="SELECT *, hyp AS prediction FROM __THIS__")]
    )
    scoring = integration.BleuEvaluator(labelCol="ref", profile="sacrebleu")
    validator = tuning.CrossValidator(
        estimator=pipeline,
        estimatorParamMaps=tuning.ParamGridBuilder().build(),
        evaluator=scoring,
        numFolds=2,
        seed=7,
    )
    validator.save(f"{folder}/validator")
    again = tuning.CrossValidator.load(f"{folder}/validator")
    model = again.fit(frame)
    model.save(f"{folder}/model")
    reloaded = tuning.CrossValidatorModel.load(f"{folder}/model")
    checks["validator"] = [
        type(again.getEvaluator()).__name__,
        again.getEvaluator().getProfile(),
        len(model.avgMetrics),
        reloaded.getEvaluator().evaluate(reloaded.transform(frame)),
    ]
    return checks


def main(argv: list[str]) -> int:
    """``python -m tests.engines.spark_checks sc://host:port OUT``: the checks on Spark Connect, as JSON."""
    sql = importlib.import_module("pyspark.sql")
    spark = sql.SparkSession.builder.remote(argv[0]).getOrCreate()
    try:
        report = run(spark)
        report["session"] = type(spark).__module__
    finally:
        spark.stop()
    with open(argv[1], "w", encoding="utf-8") as out:
        json.dump(report, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
