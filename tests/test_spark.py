"""BLEU over Spark dataframes (spec NUM-PARTIAL), on a classic session in local[2] and on Spark Connect.

The oracle is one single-process ``corpus_bleu`` per group (checked against sacrebleu in
tests/test_text_api.py) and ``sentence_bleu`` per row. The checks themselves
(tests/engines/spark_checks.py) run in this process on a classic session, and in a client
process against a local Spark Connect server this test starts (pyspark's ``spark-submit`` of
``SparkConnectServer`` on a free loopback port).
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.data import WMT17, read_lines
from reference_bleu import BleuOptionError, corpus_bleu, sentence_bleu
from tests.engines import spark_checks

pytest.importorskip("pyspark", reason="the Spark integration needs the spark extra")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs Java (no java on PATH, no JAVA_HOME)", allow_module_level=True)
integration = importlib.import_module("reference_bleu.integrations.spark")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas"),
]
ROOT = Path(__file__).resolve().parent.parent


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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def connect_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Spark Connect server in local[2] on a free loopback port: its ``sc://`` address."""
    home = importlib.import_module("pyspark.find_spark_home")._find_spark_home()
    port = _free_port()
    log = tmp_path_factory.mktemp("connect") / "server.log"
    command = [
        str(Path(home, "bin", "spark-submit")),
        "--master", "local[2]",
        "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
        "--conf", f"spark.connect.grpc.binding.port={port}",
        "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.sql.shuffle.partitions=4",
    ]  # fmt: skip
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_HOME": home}
    with log.open("wb") as out:
        server = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 300
        while b"Spark Connect server started" not in log.read_bytes():
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(
                    f"the Spark Connect server did not start:\n{log.read_text(errors='replace')[-3000:]}"
                )
            time.sleep(1)
        yield f"sc://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=60)


def check(report: dict[str, Any]) -> None:
    """What the checks brought back equals single-process runs (the oracle), group by group, row by row."""
    rows = spark_checks.records()

    def one(profile: str, chosen: list[tuple[str, int, str, str]]) -> Any:
        return corpus_bleu([h for *_, h, _ in chosen], [r for *_, r in chosen], profile=profile)

    def summary(result: Any) -> dict[str, Any]:
        statistics = [list(result.matches), list(result.totals), result.hyp_len, str(result.ref_len)]
        return {"statistics": statistics, "score_decimal": str(result.score_decimal), "score": result.score}

    systems = WMT17.systems[: spark_checks.SYSTEMS]
    expected = {name: one("sacrebleu", [row for row in rows if row[0] == name]) for name in systems}
    assert report["grouped"] == {name: summary(result) for name, result in expected.items()}
    assert len(report["by_two"]) == 3 * len(systems)
    for name, domain, got in report["by_two"]:  # nltk keeps each segment (EC-015)
        assert got == summary(one("nltk", [row for row in rows if row[:2] == (name, domain)]))
    assert report["table_columns"][:2] == ["system", "bleu"]
    assert report["table"] == [
        [name, spark_checks.ROWS, list(e.matches), list(e.totals), str(e.score_decimal), e.score]
        for name, e in sorted(expected.items())
    ]
    assert report["sentences"] == [
        sentence_bleu(h, r, profile="sacrebleu-sentence").reported for *_, h, r in rows[:60]
    ]
    whole_intl = corpus_bleu(
        [h for *_, h, _ in rows], [r for *_, r in rows], profile="sacrebleu", tokenize="intl"
    )
    whole = one("sacrebleu", rows)
    evaluator = report["evaluator"]
    assert (evaluator["bleu"], evaluator["larger"]) == (whole_intl.score, True)
    assert evaluator["reported"] == whole_intl.reported  # x100, as sacrebleu prints it
    assert evaluator["loaded"] == [
        "BleuEvaluator",
        "sacrebleu",
        '{"tokenize": "intl"}',
        "ref",
        "bleu",
        whole_intl.score,
    ]
    assert evaluator["validator"] == ["BleuEvaluator", "sacrebleu", 1, whole.score]
    # Row 19 is the tenth row of the second partition (ids 10-19): named by its number in the frame.
    name, message = report["bad_row"]
    assert name == "BleuInputError"
    assert message.startswith(f"hypothesis {spark_checks.BAD} is a NoneType")


def test_the_checks_on_a_classic_session(spark: Any) -> None:
    check(json.loads(json.dumps(spark_checks.run(spark))))


def test_the_checks_on_spark_connect(connect_server: str, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "tests.engines.spark_checks", connect_server, str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["session"] == "pyspark.sql.connect.session"  # a Connect client: no RDD there
    check(report)


def records(systems: int, rows: int | None = None) -> list[tuple[str, int, str, str]]:
    return spark_checks.records(systems, rows if rows is not None else len(read_lines(WMT17, "ref.de")))


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


def test_bad_params_are_errors_when_set(spark: Any) -> None:
    with pytest.raises(BleuOptionError, match="metricName must be bleu or reported"):
        integration.BleuEvaluator(metricName="chrf")
    with pytest.raises(BleuOptionError, match="unknown profile 'sacrebleuu'"):
        integration.BleuEvaluator(profile="sacrebleuu")
    with pytest.raises(BleuOptionError, match="max_order"):
        integration.BleuEvaluator().setOptions('{"max_order": 0}')
    with pytest.raises(BleuOptionError, match="JSON object"):
        integration.BleuEvaluator(options="[1, 2]")


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
