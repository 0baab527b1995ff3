"""Exact BLEU over Spark dataframes: partial statistics per partition, added as integers (spec NUM-PARTIAL).

DataFrame operations only (no RDD), so the same calls run on a classic session and on Spark
Connect: ``mapInArrow`` counts each partition as a stream of Arrow batches into one partial per
group (any key) on the executors; the partials (a few integers each, as NUM-PARTIAL's JSON) are
collected in partition order, added and scored once per group: the statistics and score of one
``corpus_bleu`` or ``reference-bleu score`` run per group. :func:`corpus_bleu` returns them as
results, :func:`grouped_bleu` as a DataFrame; :func:`sentence_bleu` is a column of per-row BLEU;
:class:`BleuEvaluator` a Spark ML ``Evaluator`` with Params (save and load, in a
``CrossValidator`` over a ``Pipeline`` too). A bad row's error names its number in the frame
(partition by partition, in order). The executors' Python must import reference_bleu (set
``PYSPARK_PYTHON`` to an interpreter that has it). Needs the extra ``spark`` (``pip install
'reference-bleu[spark]'``) and Java.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Hashable, Iterator
from typing import Any, cast

from reference_bleu.errors import BleuOptionError
from reference_bleu.integrations import rows as shared
from reference_bleu.partial import Conventions, Partial, make_conventions, partial_statistics
from reference_bleu.scoring.score import BleuResult

#: The columns of the partials' frame beside the keys (names no user column is likely to have).
PARTITION, ROWS, PARTIAL, FAILED = "__bleu_partition", "__bleu_rows", "__bleu_partial", "__bleu_failed"


def _module(name: str) -> Any:
    """A pyspark module, or a BleuOptionError naming the extra."""
    return shared.optional(name, "spark")


def _count_batches(
    batches: Iterator[Any], positions: tuple[int, int, int], conventions: Conventions, arrow_schema: Any
) -> Iterator[Any]:
    """What an executor computes: its partition's Arrow batches counted as one stream of keyed rows."""
    pyarrow = importlib.import_module("pyarrow")
    partition = importlib.import_module("pyspark").TaskContext.get().partitionId()
    references, keys = positions[1], positions[2]

    def rows() -> Iterator[tuple[Hashable, object, object]]:
        for batch in batches:
            cells = [batch.column(k).to_pylist() for k in range(batch.num_columns)]
            for row in zip(*cells, strict=True):
                yield (
                    shared.group_key(row[references : references + keys]),
                    row[0],
                    shared.row_references(row[1:references]),
                )

    count = shared.count_partition(rows(), conventions)
    blank = [None] * keys
    if count.failed is not None:
        records = [[partition, count.rows, *blank, None, json.dumps(list(count.failed))]]
    else:
        records = [
            [partition, count.rows, *_key_cells(key, keys), json.dumps(part.to_json()), None]
            for key, part in count.partials.items()
        ] or [[partition, 0, *blank, None, None]]
    columns = list(zip(*records, strict=True))
    yield pyarrow.RecordBatch.from_arrays(
        [pyarrow.array(list(column), type=f.type) for column, f in zip(columns, arrow_schema, strict=True)],
        schema=arrow_schema,
    )


def _key_cells(key: Hashable, keys: int) -> list[object]:
    """A group's key as its cells: none, one, or the tuple's."""
    if keys == 0:
        return []
    return [key] if keys == 1 else list(cast(tuple[object, ...], key))


def _counts(
    frame: Any, hypothesis: str, references: list[str], by: list[str], conventions: Conventions
) -> list[shared.PartitionCount]:
    """Every partition's count, in partition order: one ``mapInArrow`` and one ``collect``."""
    types = _module("pyspark.sql.types")
    arrow_types = _module("pyspark.sql.pandas.types")
    chosen = frame.select(hypothesis, *references, *by)
    keys = [chosen.schema.fields[1 + len(references) + k] for k in range(len(by))]
    schema = types.StructType(
        [
            types.StructField(PARTITION, types.IntegerType(), False),
            types.StructField(ROWS, types.LongType(), False),
            *[types.StructField(f"__bleu_key{k}", f.dataType, True) for k, f in enumerate(keys)],
            types.StructField(PARTIAL, types.StringType(), True),
            types.StructField(FAILED, types.StringType(), True),
        ]
    )
    arrow_schema = arrow_types.to_arrow_schema(schema)
    positions = (0, 1 + len(references), len(by))

    def count(batches: Iterator[Any]) -> Iterator[Any]:
        return _count_batches(batches, positions, conventions, arrow_schema)

    by_partition: dict[int, shared.PartitionCount] = {}
    for row in chosen.mapInArrow(count, schema).collect():
        partition, rows = int(row[PARTITION]), int(row[ROWS])
        seen = by_partition.setdefault(partition, shared.PartitionCount(rows))
        if row[FAILED] is not None:
            position, hyp, refs = json.loads(row[FAILED])
            by_partition[partition] = shared.PartitionCount(rows, failed=(position, hyp, refs))
        elif row[PARTIAL] is not None:
            key = shared.group_key([row[f"__bleu_key{k}"] for k in range(len(by))])
            seen.partials[key] = Partial.from_json(json.loads(row[PARTIAL]))
    return [by_partition[p] for p in sorted(by_partition)]


def _summed(
    frame: Any,
    hypothesis: str,
    references: shared.Columns,
    by: shared.Columns | None,
    conventions: Conventions,
) -> dict[Hashable, Partial]:
    refs, keys = shared.columns(references, "references"), [] if by is None else shared.columns(by, "by")
    return shared.totals(_counts(frame, hypothesis, refs, keys, conventions), conventions)


def corpus_bleu(
    frame: Any,
    hypothesis: str,
    references: shared.Columns,
    *,
    by: shared.Columns | None = None,
    profile: str | None = None,
    **options: Any,
) -> shared.Grouped:
    """Corpus BLEU of a Spark dataframe's rows, exact: one result, or a dict of one per group of ``by=``.

    Columns and keywords as :func:`reference_bleu.integrations.dask.corpus_bleu`: one reference
    column holding a line or an array of lines, or one column per reference (null: no reference).
    """
    _module("pyspark.sql")
    conventions = make_conventions(profile, text=True, **options)
    return shared.results(
        _summed(frame, hypothesis, references, by, conventions), conventions, by is not None
    )


def grouped_bleu(
    frame: Any,
    hypothesis: str,
    references: shared.Columns,
    by: shared.Columns,
    *,
    profile: str | None = None,
    **options: Any,
) -> Any:
    """A DataFrame of one row per group of ``by``: the key columns, then each group's exact BLEU.

    Columns: ``bleu`` (the score's double in [0, 1]), ``reported`` and ``reported_text`` (as the
    profile's tool prints it), ``score_decimal`` (40 digits), ``segments``, ``matches`` and
    ``totals`` (arrays of longs), ``hyp_len``, ``ref_len`` (a string: r may be a fraction under
    ``ref_length="average"``), ``signature``. Counted as :func:`corpus_bleu` counts.
    """
    types = _module("pyspark.sql.types")
    conventions = make_conventions(profile, text=True, **options)
    keys = shared.columns(by, "by")
    summed = _summed(frame, hypothesis, references, keys, conventions)
    long, text = types.LongType(), types.StringType()
    schema = types.StructType(
        [
            *[frame.select(key).schema.fields[0] for key in keys],
            types.StructField("bleu", types.DoubleType(), False),
            types.StructField("reported", types.DoubleType(), False),
            types.StructField("reported_text", text, False),
            types.StructField("score_decimal", text, False),
            types.StructField("segments", long, False),
            types.StructField("matches", types.ArrayType(long, False), False),
            types.StructField("totals", types.ArrayType(long, False), False),
            types.StructField("hyp_len", long, False),
            types.StructField("ref_len", text, False),
            types.StructField("signature", text, False),
        ]
    )
    rows = [
        (*_key_cells(key, len(keys)), *_result_cells(part.segments, part.score()))
        for key, part in summed.items()
    ]
    return frame.sparkSession.createDataFrame(rows, schema)


def _result_cells(segments: int, result: BleuResult) -> tuple[object, ...]:
    return (
        result.score,
        float(result.reported),
        result.reported_text,
        str(result.score_decimal),
        segments,
        list(result.matches),
        list(result.totals),
        result.hyp_len,
        str(result.ref_len),
        result.signature,
    )


def sentence_bleu(
    hypothesis: str,
    references: shared.Columns,
    *,
    profile: str | None = None,
    field: str = "score",
    **options: Any,
) -> Any:
    """A Spark column: each row's sentence BLEU (a corpus of one segment, spec EC-009).

    ``frame.withColumn("bleu", sentence_bleu("hyp", "ref", profile="sacrebleu-sentence"))``;
    ``field``: ``"score"`` (in [0, 1]) or ``"reported"`` (as the profile's tool prints it).
    """
    functions = _module("pyspark.sql.functions")
    types = _module("pyspark.sql.types")
    if field not in ("score", "reported"):
        raise BleuOptionError("EC-013", f"field must be score or reported, not {field!r}")
    conventions = make_conventions(profile, text=True, **options)
    refs = shared.columns(references, "references")

    def score(hyp: object, *cells: object) -> float:
        result = partial_statistics([(hyp, shared.row_references(list(cells)))], conventions).score()
        return float(getattr(result, field))

    # A lambda: pyspark reads a function's type hints as a request for a pandas UDF, and warns.
    udf = functions.udf(lambda hyp, *cells: score(hyp, *cells), types.DoubleType())  # noqa: PLW0108
    return udf(functions.col(hypothesis), *[functions.col(c) for c in refs])


#: What an evaluator's ``metricName`` chooses: the score in [0, 1], or the number as the tool prints it.
METRICS = ("bleu", "reported")


def _evaluator_class() -> Any:
    """Spark ML's evaluator of exact corpus BLEU, made when first asked for (pyspark is optional)."""
    evaluation, util = _module("pyspark.ml.evaluation"), _module("pyspark.ml.util")
    param, shared_params = _module("pyspark.ml.param"), _module("pyspark.ml.param.shared")
    keyword_only = _module("pyspark").keyword_only
    Param, Params, TypeConverters = param.Param, param.Params, param.TypeConverters  # noqa: N806

    class BleuEvaluator(
        evaluation.Evaluator,  # type: ignore[misc,name-defined]
        shared_params.HasPredictionCol,  # type: ignore[misc,name-defined]
        shared_params.HasLabelCol,  # type: ignore[misc,name-defined]
        util.DefaultParamsReadable,  # type: ignore[misc,name-defined]
        util.DefaultParamsWritable,  # type: ignore[misc,name-defined]
    ):
        """Spark ML evaluator of exact corpus BLEU (spec NUM-PARTIAL); larger is better.

        Params: ``predictionCol`` (hypothesis lines), ``labelCol`` (a reference line, or an
        array of lines, per row), ``metricName`` (``bleu``: the score in [0, 1]; ``reported``:
        as the profile's tool prints it), ``profile`` (a profile name; empty: the paper's
        BLEU) and ``options`` (the options of ``corpus_bleu`` as a JSON object). A bad profile
        or option is a BleuOptionError when set, not when evaluated.
        """

        metricName = Param(  # noqa: N815 -- Spark ML's parameter name
            Params._dummy(), "metricName", "bleu (the score in [0, 1]) or reported", TypeConverters.toString
        )
        profile = Param(
            Params._dummy(), "profile", "a profile name; empty: the paper", TypeConverters.toString
        )
        options = Param(Params._dummy(), "options", "corpus_bleu's options as JSON", TypeConverters.toString)

        @keyword_only  # type: ignore[untyped-decorator]
        def __init__(
            self,
            *,
            predictionCol: str = "prediction",  # noqa: N803 -- Spark ML's parameter names
            labelCol: str = "label",  # noqa: N803
            metricName: str = "bleu",  # noqa: N803
            profile: str = "",
            options: str = "{}",
        ) -> None:
            super().__init__()
            self._setDefault(
                predictionCol="prediction", labelCol="label", metricName="bleu", profile="", options="{}"
            )
            self.setParams(**self._input_kwargs)

        @keyword_only  # type: ignore[untyped-decorator]
        def setParams(  # noqa: N802 -- Spark ML's method names
            self,
            *,
            predictionCol: str = "prediction",  # noqa: N803
            labelCol: str = "label",  # noqa: N803
            metricName: str = "bleu",  # noqa: N803
            profile: str = "",
            options: str = "{}",
        ) -> Any:
            """Set the Params given; the profile, options and metric are checked now."""
            self._set(**self._input_kwargs)
            self.conventions()
            return self

        def setMetricName(self, value: str) -> Any:  # noqa: N802
            """``bleu`` or ``reported``."""
            self._set(metricName=value)
            self.conventions()
            return self

        def getMetricName(self) -> str:  # noqa: N802
            return str(self.getOrDefault(self.metricName))

        def setProfile(self, value: str) -> Any:  # noqa: N802
            self._set(profile=value)
            self.conventions()
            return self

        def getProfile(self) -> str:  # noqa: N802
            return str(self.getOrDefault(self.profile))

        def setOptions(self, value: str) -> Any:  # noqa: N802
            self._set(options=value)
            self.conventions()
            return self

        def getOptions(self) -> str:  # noqa: N802
            return str(self.getOrDefault(self.options))

        def setPredictionCol(self, value: str) -> Any:  # noqa: N802
            return self._set(predictionCol=value)

        def setLabelCol(self, value: str) -> Any:  # noqa: N802
            return self._set(labelCol=value)

        def conventions(self) -> Conventions:
            """The conventions the Params name (BleuOptionError for a bad metric, profile or option)."""
            metric = self.getMetricName()
            if metric not in METRICS:
                raise BleuOptionError("EC-013", f"metricName must be bleu or reported, not {metric!r}")
            try:
                options = json.loads(self.getOptions())
            except ValueError:
                options = None
            if not isinstance(options, dict):
                raise BleuOptionError("API-OPTIONS", "options must be a JSON object of corpus_bleu's options")
            return make_conventions(self.getProfile() or None, text=True, **options)

        def _evaluate(self, dataset: Any) -> float:
            conventions = self.conventions()
            column, label = self.getPredictionCol(), self.getLabelCol()
            result = shared.whole(_summed(dataset, column, label, None, conventions), conventions)
            return float(result.score if self.getMetricName() == "bleu" else result.reported)

        def isLargerBetter(self) -> bool:  # noqa: N802 -- Spark ML's method name
            return True

    return BleuEvaluator


def __getattr__(name: str) -> Any:
    """``BleuEvaluator``: the class is made on first access (pyspark is imported then), then kept."""
    if name == "BleuEvaluator":
        return shared.class_of_engine(globals(), name, _evaluator_class)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def bleu_evaluator(
    predictionCol: str = "prediction",  # noqa: N803 -- Spark ML's parameter names
    labelCol: str = "label",  # noqa: N803
    profile: str | None = None,
    metricName: str = "bleu",  # noqa: N803
    **options: Any,
) -> Any:
    """A :class:`BleuEvaluator` with these Params (``options`` as keywords, as ``corpus_bleu`` takes them)."""
    evaluator: Any = __getattr__("BleuEvaluator")(
        predictionCol=predictionCol,
        labelCol=labelCol,
        metricName=metricName,
        profile=profile or "",
        options=json.dumps(options),
    )
    return evaluator
