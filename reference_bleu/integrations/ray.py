"""Exact BLEU over Ray Data datasets: partial statistics per block, added as integers (spec NUM-PARTIAL).

:func:`corpus_bleu` counts each block of a ``ray.data.Dataset`` as a stream of keyed rows into one
partial per group (any key) on the Ray workers (``map_batches``, a whole block at a time, read
in Arrow slices of one chunk), brings the partials back in the dataset's order (Ray Data's
``preserve_order`` while it runs) and scores each group once: the statistics and score of one
``corpus_bleu`` or ``reference-bleu score`` run per group; a bad row's error names its number in
the dataset. The workers' Python must import reference_bleu. Needs the extra ``ray`` (``pip
install 'reference-bleu[ray]'``).
"""

from __future__ import annotations

import pickle
from collections.abc import Hashable, Iterator
from typing import Any

from reference_bleu.integrations import rows as shared
from reference_bleu.partial import Conventions, make_conventions
from reference_bleu.scoring.files import CHUNK_SIZE


def _data() -> Any:
    """The ray.data module, or a BleuOptionError naming the extra."""
    return shared.optional("ray.data", "ray")


def _block_count(
    block: Any, hypothesis: str, references: list[str], by: list[str], conventions: Conventions
) -> dict[str, list[bytes]]:
    """What a worker computes: a block (an Arrow table) counted as a stream, one partial per group."""
    names = [hypothesis, *references, *by]
    refs = slice(1, 1 + len(references))
    keys = slice(1 + len(references), None)

    def rows() -> Iterator[tuple[Hashable, object, object]]:
        for piece in block.select(names).to_batches(max_chunksize=CHUNK_SIZE):
            cells = [piece.column(k).to_pylist() for k in range(len(names))]
            for row in zip(*cells, strict=True):
                yield shared.group_key(row[keys]), row[0], shared.row_references(row[refs])

    # Pickled: a group's key may be any value the dataset holds.
    return {"count": [pickle.dumps(shared.count_partition(rows(), conventions))]}


def corpus_bleu(
    dataset: Any,
    hypothesis: str,
    references: shared.Columns,
    *,
    by: shared.Columns | None = None,
    profile: str | None = None,
    **options: Any,
) -> shared.Grouped:
    """Corpus BLEU of a Ray dataset's rows, exact: one result, or a dict of one per group of ``by=``.

    Columns and keywords as :func:`reference_bleu.integrations.dask.corpus_bleu`: one reference
    column holding a line or a list of lines, or one column per reference (null: no reference).
    Runs on the current Ray cluster (Ray Data starts a local one where none is).
    """
    data = _data()
    conventions = make_conventions(profile, text=True, **options)
    refs = shared.columns(references, "references")
    keys = [] if by is None else shared.columns(by, "by")
    context = data.DataContext.get_current()
    kept = context.execution_options.preserve_order
    context.execution_options.preserve_order = True  # the blocks' counts come back in the dataset's order
    try:
        counted = dataset.map_batches(
            _block_count,
            batch_format="pyarrow",
            batch_size=None,  # a whole block: one count per block
            fn_kwargs={"hypothesis": hypothesis, "references": refs, "by": keys, "conventions": conventions},
        )
        counts = [pickle.loads(row["count"]) for row in counted.take_all()]  # noqa: S301 -- our workers' own
    finally:
        context.execution_options.preserve_order = kept
    return shared.results(shared.totals(counts, conventions), conventions, by is not None)
