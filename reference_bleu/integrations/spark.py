"""Exact BLEU over Spark dataframes: partial statistics per partition, added as integers (spec NUM-PARTIAL).

:func:`corpus_bleu` counts each partition into one partial per group (any key) on the
executors, collects the partials (a few integers each) in partition order, adds them and
scores each group once: the statistics and score of one ``corpus_bleu`` or ``reference-bleu
score`` run per group. :func:`sentence_bleu` is a column of per-row BLEU; :func:`bleu_evaluator`
an evaluator in the style of Spark ML's (``evaluate(dataset)``, ``isLargerBetter()``). The
executors' Python must import reference_bleu (set ``PYSPARK_PYTHON`` to an interpreter that
has it). Needs the extra ``spark`` (``pip install 'reference-bleu[spark]'``) and Java.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

from reference_bleu.errors import BleuOptionError
from reference_bleu.integrations import rows as shared
from reference_bleu.partial import Conventions, Partial, make_conventions, partial_statistics, partials_by


def _module(name: str) -> Any:
    """A pyspark module, or a BleuOptionError naming the extra."""
    return shared.optional(name, "spark")


def _partition(
    rows: Iterator[Any], hypothesis: str, references: list[str], by: list[str], conventions: Conventions
) -> Iterator[dict[Hashable, Partial]]:
    """What an executor computes: its partition's partial of each group (one item)."""
    keyed = [
        (
            shared.group_key([row[k] for k in by]),
            row[hypothesis],
            shared.row_references([row[c] for c in references]),
        )
        for row in rows
    ]
    yield partials_by(keyed, conventions)


def _collect(
    frame: Any, hypothesis: str, references: list[str], by: list[str], conventions: Conventions
) -> list[dict[Hashable, Partial]]:
    chosen = frame.select(hypothesis, *references, *by)
    partitions = chosen.rdd.mapPartitions(
        lambda rows: _partition(rows, hypothesis, references, by, conventions)
    )
    return list(partitions.collect())  # in partition order


def corpus_bleu(frame: Any, hypothesis: str, references: shared.Columns, **named: Any) -> shared.Grouped:
    """Corpus BLEU of a Spark dataframe's rows, exact: one result, or one per group of ``by=``.

    Columns and keywords as :func:`reference_bleu.integrations.dask.corpus_bleu`: one reference
    column holding a line or an array of lines, or one column per reference (null: no reference).
    """
    _module("pyspark.sql")
    return shared.frame_bleu(_collect, frame, hypothesis, references, **named)


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

    udf = functions.udf(score, types.DoubleType())
    return udf(functions.col(hypothesis), *[functions.col(c) for c in refs])


def bleu_evaluator(
    predictionCol: str = "prediction",  # noqa: N803 -- Spark ML's parameter names
    labelCol: str = "label",  # noqa: N803
    profile: str | None = None,
    **options: Any,
) -> Any:
    """A Spark ML ``Evaluator``: ``evaluate(dataset)`` is the corpus BLEU (its ``score``), larger is better.

    ``labelCol`` holds a reference line, or an array of reference lines, per row.
    """
    evaluation = _module("pyspark.ml.evaluation")
    make_conventions(profile, text=True, **options)  # options checked now, not on evaluate

    class BleuEvaluator(evaluation.Evaluator):  # type: ignore[misc,name-defined]
        """Spark ML evaluator of exact corpus BLEU (spec NUM-PARTIAL)."""

        def _evaluate(self, dataset: Any) -> float:
            result = corpus_bleu(dataset, predictionCol, labelCol, profile=profile, **options)
            return float(result.score)  # type: ignore[union-attr]

        def isLargerBetter(self) -> bool:  # noqa: N802 -- Spark ML's method name
            return True

    return BleuEvaluator()
