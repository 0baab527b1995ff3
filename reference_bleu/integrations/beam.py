"""Exact BLEU in Apache Beam: a ``CombineFn`` whose accumulator is a partial (spec NUM-PARTIAL).

``beam.CombineGlobally(BleuCombineFn("sacrebleu"))`` over a PCollection of ``(hypothesis,
references)`` rows, or ``beam.CombinePerKey(BleuCombineFn(...))`` over ``(key, (hypothesis,
references))``, gives the :class:`~reference_bleu.BleuResult` of one ``corpus_bleu`` run on the
rows (of each key): each accumulator holds a partial and at most one chunk of uncounted rows,
counted when the chunk fills and before the accumulator travels (``compact``), and accumulators
add exactly. A PCollection has no order, so conventions whose score reads the rows' order (nltk's
methods 5 to 7, a mean of sentence scores in a tool's arithmetic) are refused. Needs the extra
``beam`` (``pip install 'reference-bleu[beam]'``); the class is made when first asked for.
"""

from __future__ import annotations

from typing import Any

from reference_bleu.errors import BleuOptionError
from reference_bleu.integrations import rows as shared
from reference_bleu.partial import Conventions, Partial, make_conventions, partial_statistics
from reference_bleu.scoring.files import CHUNK_SIZE
from reference_bleu.scoring.score import BleuResult


class Accumulator:
    """NUM-PARTIAL. A Beam accumulator: the partial of the rows counted, and the rows not counted yet."""

    def __init__(self, conventions: Conventions) -> None:
        self.partial = Partial.zero(conventions)
        self.rows: list[tuple[object, object]] = []

    def add(self, hypothesis: object, references: object) -> None:
        """One row; a full chunk is counted."""
        self.rows.append((hypothesis, references))
        if len(self.rows) >= CHUNK_SIZE:
            self.count()

    def count(self) -> None:
        """Count the rows not counted yet into the partial."""
        if self.rows:
            self.partial = self.partial + partial_statistics(self.rows, self.partial.conventions)
            self.rows = []

    def merge(self, other: Accumulator) -> None:
        """Add another accumulator's partial and rows (the conventions must be the same)."""
        self.partial = self.partial + other.partial
        for row in other.rows:
            self.add(*row)


def _conventions(profile: str | None, options: dict[str, Any]) -> Conventions:
    conventions = make_conventions(profile, text=True, **options)
    if conventions.reads_order:
        raise BleuOptionError(
            "NUM-PARTIAL",
            "these conventions read the rows' order (nltk's methods 5-7, or a mean of sentence scores in a "
            "tool's arithmetic), and a Beam PCollection has none",
        )
    return conventions


def _combine_fn_class() -> Any:
    """The ``CombineFn``, made when first asked for (apache_beam is optional)."""
    beam = shared.optional("apache_beam", "beam")

    class BleuCombineFn(beam.CombineFn):  # type: ignore[misc,name-defined]
        """NUM-PARTIAL. Corpus BLEU of a PCollection's rows ``(hypothesis, references)``, exact.

        ``BleuCombineFn(profile, **options)`` with the profile and options of ``corpus_bleu``
        (text under the profile's or the given text conventions; the paper's split on
        whitespace). The output is the :class:`~reference_bleu.BleuResult`.
        """

        def __init__(self, profile: str | None = None, **options: Any) -> None:
            super().__init__()
            self.conventions = _conventions(profile, options)

        def create_accumulator(self) -> Accumulator:
            return Accumulator(self.conventions)

        def add_input(self, mutable_accumulator: Accumulator, element: Any) -> Accumulator:
            hypothesis, references = element
            mutable_accumulator.add(hypothesis, references)
            return mutable_accumulator

        def merge_accumulators(self, accumulators: Any) -> Accumulator:
            merged = Accumulator(self.conventions)
            for accumulator in accumulators:
                merged.merge(accumulator)
            return merged

        def compact(self, accumulator: Accumulator) -> Accumulator:
            accumulator.count()  # what travels is a partial: a few integers
            return accumulator

        def extract_output(self, accumulator: Accumulator) -> BleuResult:
            accumulator.count()
            return accumulator.partial.score()

    return BleuCombineFn


def __getattr__(name: str) -> Any:
    """``BleuCombineFn``: the class is made on first access (apache_beam is imported then), then kept."""
    if name == "BleuCombineFn":
        return shared.class_of_engine(globals(), name, _combine_fn_class)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
