"""Exact BLEU over Dask dataframes: partial statistics per partition, added as integers (spec NUM-PARTIAL).

:func:`corpus_bleu` counts each partition as a stream into one partial per group (any key:
system, language pair, domain) on the workers, brings the partials (a few integers each)
back, adds them in partition order and scores each group once: the statistics and score of
one ``corpus_bleu`` or ``reference-bleu score`` run on each group. With ``compute=False`` it is
a lazy Dask ``Scalar``, computed with other results by one ``dask.compute``. :func:`sentence_bleu` is
a column of per-row BLEU. Text columns are tokenized on the workers by the profile's text
conventions (API-TEXT). Needs the extra ``dask`` (``pip install 'reference-bleu[dask]'``).
"""

from __future__ import annotations

import importlib
import os
import warnings
from collections.abc import Hashable, Iterator
from itertools import repeat
from typing import Any

from reference_bleu.errors import BleuOptionError
from reference_bleu.integrations import rows as shared
from reference_bleu.partial import Conventions, make_conventions, partial_statistics


def _dask() -> Any:
    """The dask module (with dask.dataframe), or a BleuOptionError naming the extra."""
    shared.optional("dask.dataframe", "dask")
    return shared.optional("dask", "dask")


def _keyed_rows(
    frame: Any, hypothesis: str, references: list[str], by: list[str]
) -> Iterator[tuple[Hashable, object, object]]:
    """A pandas partition's rows as ``(key, hypothesis, references)``, one at a time."""
    hyps = frame[hypothesis]
    cells = zip(*(frame[column] for column in references), strict=True)
    keys = zip(*(frame[column] for column in by), strict=True) if by else repeat((), len(frame))
    for key, h, c in zip(keys, hyps, cells, strict=True):
        yield shared.group_key(key), h, shared.row_references(c)


def _partition_count(
    frame: Any, hypothesis: str, references: list[str], by: list[str], conventions: Conventions
) -> Any:
    """What a worker computes: its partition counted as a stream, one partial per group (a one-cell frame)."""
    pandas = importlib.import_module("pandas")
    count = shared.count_partition(_keyed_rows(frame, hypothesis, references, by), conventions)
    return pandas.DataFrame({"count": [count]})


def _workers() -> int:
    """The threads the current scheduler runs tasks on (a distributed client's, else the local pool's)."""
    try:
        client = importlib.import_module("distributed").get_client()
    except (ImportError, ValueError):
        scheduler = _dask().config.get("scheduler", None)
        if scheduler in ("sync", "synchronous", "single-threaded"):
            return 1
        return int(_dask().config.get("num_workers", None) or os.cpu_count() or 1)
    return sum(int(w.get("nthreads", 1)) for w in client.scheduler_info()["workers"].values())


def _warn_one_partition(frame: Any) -> None:
    """A warning where one partition holds every row: one task counts them all, the other workers idle."""
    if frame.npartitions == 1 and _workers() > 1:
        warnings.warn(
            "reference_bleu: the frame has one partition, so one worker counts every row (spec "
            "NUM-PARTIAL); split it first: frame.repartition(npartitions=...), or read Parquet with "
            "split_row_groups=True or a smaller blocksize",
            RuntimeWarning,
            stacklevel=3,
        )


def corpus_bleu(
    frame: Any,
    hypothesis: str,
    references: shared.Columns,
    *,
    by: shared.Columns | None = None,
    profile: str | None = None,
    compute: bool = True,
    retries: int | None = None,
    **options: Any,
) -> Any:
    """Corpus BLEU of a Dask dataframe's rows, exact: one result, or one per group of ``by=``.

    ``hypothesis`` names the column of hypothesis lines; ``references`` one column (a line, or
    a list of lines, per row) or several (one reference each; a missing cell is no reference).
    Keywords: ``by`` (a column or several), ``profile`` and the options of
    :func:`reference_bleu.corpus_bleu` (text options included; the paper's text conventions
    split on whitespace). Groups come back as a dict keyed by the value of ``by`` (a tuple for
    several columns). Runs on the current Dask scheduler (a ``distributed.Client`` if one is
    active) with ``retries`` (each task's retries, as ``dask.compute`` takes them); with
    ``compute=False``, returns the result as a lazy Dask ``Scalar`` (a reduction of the frame) to
    compute with others (``dask.compute(bleu, frame.hyp.count(), retries=2)``). A bad row's
    error names its number in the frame. A frame of one partition gives a RuntimeWarning: one
    worker would count every row.
    """
    _dask()
    conventions = make_conventions(profile, text=True, **options)
    refs = shared.columns(references, "references")
    keys = [] if by is None else shared.columns(by, "by")
    _warn_one_partition(frame)
    lazy = frame.reduction(
        _partition_count,
        aggregate=_scored,
        chunk_kwargs={"hypothesis": hypothesis, "references": refs, "by": keys, "conventions": conventions},
        aggregate_kwargs={"conventions": conventions, "grouped": by is not None},
        meta=object,
        split_every=False,  # one aggregation, of every partition's count in partition order
    )
    if not compute:
        return lazy
    return lazy.compute(**({} if retries is None else {"retries": retries}))


def _scored(counts: Any, conventions: Conventions, grouped: bool) -> shared.Grouped:
    """The last task: the partitions' counts (a frame, in partition order) added and scored once per group."""
    return shared.results(shared.totals(counts["count"], conventions), conventions, grouped)


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
