"""Exact BLEU over Dask dataframes: partial statistics per partition, added as integers (spec NUM-PARTIAL).

:func:`corpus_bleu` counts each partition into one partial per group (any key: system,
language pair, domain) on the workers, brings the partials (a few integers each) back, adds
them in partition order and scores each group once: the statistics and score of one
``corpus_bleu`` or ``reference-bleu score`` run on each group. :func:`sentence_bleu` is a column
of per-row BLEU. Text columns are tokenized on the workers by the profile's text conventions
(API-TEXT). Needs the extra ``dask`` (``pip install 'reference-bleu[dask]'``).
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable
from typing import Any

from reference_bleu.errors import BleuOptionError
from reference_bleu.integrations import rows as shared
from reference_bleu.partial import Conventions, Partial, make_conventions, partial_statistics, partials_by


def _dask() -> Any:
    """The dask module (with dask.dataframe), or a BleuOptionError naming the extra."""
    shared.optional("dask.dataframe", "dask")
    return shared.optional("dask", "dask")


def _keyed_rows(
    frame: Any, hypothesis: str, references: list[str], by: list[str]
) -> list[tuple[Hashable, object, object]]:
    hyps = frame[hypothesis].tolist()
    cells = list(zip(*(frame[column].tolist() for column in references), strict=True))
    keys = list(zip(*(frame[column].tolist() for column in by), strict=True)) if by else [()] * len(hyps)
    return [
        (shared.group_key(key), h, shared.row_references(c))
        for key, h, c in zip(keys, hyps, cells, strict=True)
    ]


def _partition_partials(
    frame: Any, hypothesis: str, references: list[str], by: list[str], conventions: Conventions
) -> dict[Hashable, Partial]:
    """What a worker computes: its partition's partial of each group."""
    return partials_by(_keyed_rows(frame, hypothesis, references, by), conventions)


def _collect(
    frame: Any, hypothesis: str, references: list[str], by: list[str], conventions: Conventions
) -> list[dict[Hashable, Partial]]:
    dask = _dask()
    delayed = dask.delayed(_partition_partials)
    tasks = [delayed(part, hypothesis, references, by, conventions) for part in frame.to_delayed()]
    return list(dask.compute(*tasks))  # in partition order


def corpus_bleu(frame: Any, hypothesis: str, references: shared.Columns, **named: Any) -> shared.Grouped:
    """Corpus BLEU of a Dask dataframe's rows, exact: one result, or one per group of ``by=``.

    ``hypothesis`` names the column of hypothesis lines; ``references`` one column (a line, or
    a list of lines, per row) or several (one reference each; a missing cell is no reference).
    Keywords: ``by`` (a column or several), ``profile`` and the options of
    :func:`reference_bleu.corpus_bleu` (text options included; the paper's text conventions
    split on whitespace). Runs on the current Dask scheduler (a ``distributed.Client`` if one
    is active). Groups come back as a dict keyed by the value of ``by`` (a tuple for several
    columns).
    """
    _dask()
    return shared.frame_bleu(_collect, frame, hypothesis, references, **named)


def _partition_sentences(
    frame: Any, hypothesis: str, references: list[str], conventions: Conventions, field: str
) -> Any:
    pandas = importlib.import_module("pandas")
    rows = _keyed_rows(frame, hypothesis, references, [])
    values = [
        getattr(partial_statistics([(h, r)], conventions, start=k).score(), field)
        for k, (_, h, r) in enumerate(rows)
    ]
    return pandas.Series(values, index=frame.index, dtype="float64")


def sentence_bleu(
    frame: Any,
    hypothesis: str,
    references: shared.Columns,
    *,
    profile: str | None = None,
    field: str = "score",
    **options: Any,
) -> Any:
    """A Dask series: each row's sentence BLEU (a corpus of one segment, spec EC-009), lazily.

    ``field``: ``"score"`` (the exact score's double, in [0, 1]) or ``"reported"`` (the number
    as the profile's tool prints it, e.g. x100 for sacrebleu).
    """
    _dask()
    if field not in ("score", "reported"):
        raise BleuOptionError("EC-013", f"field must be score or reported, not {field!r}")
    conventions = make_conventions(profile, text=True, **options)
    refs = shared.columns(references, "references")
    return frame.map_partitions(
        _partition_sentences, hypothesis, refs, conventions, field, meta=(f"bleu_{field}", "float64")
    )
