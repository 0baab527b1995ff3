"""A test set counted once per text convention and scored at any point from the counts (spec ATTR-COST).

The statistics of BLEU-STATS depend on the text conventions (tokenizer, case folding, split
rule) and, among the score conventions, only on the segment rules (EC-004 to EC-006) and the
reference length rule (EC-001); every other axis acts on them. So each system's clipped
matches are counted once per text convention, on the fast path (NUM-FAST, the paper's
segment rules, every segment kept), and the rules and the reference length of a point are
applied to those counts: an empty reference holds no n-gram, so dropping it changes no
clipped count, only the lengths; a dropped segment is left out. What a point scores is then
handed to :func:`reference_bleu.scoring.score.score` as the sum of every segment but the last
(with nltk's max(1, l_n) already taken per segment where the point's denominator asks for it)
and the last segment (which nltk's methods 5 to 7 read), or, under macro aggregation, every
segment: the same total and the same last segment, so the same score.

Lines are held in memory (a comparison or an identification reads a test set, not a stream).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import replace
from decimal import Context, Decimal, localcontext
from typing import Any

from reference_bleu.conventions.options import BleuOptions
from reference_bleu.conventions.space import Point
from reference_bleu.errors import BleuInputError
from reference_bleu.fast.counts import fast_system_statistics, ruled_segments
from reference_bleu.formulas.inputs import PAPER_RULES, Tokens
from reference_bleu.formulas.statistics import Statistics, corpus_statistics, normal_length
from reference_bleu.scoring.evaluation import evaluate, macro_average
from reference_bleu.scoring.files import Reading, Source, parallel_lines
from reference_bleu.scoring.score import BleuResult, score, scored_units
from reference_bleu.text.tokenizers import tokenize_line

#: Orders counted at least: N = 4 and the N + 1 that smoothing methods 5 and 7 read.
COUNTED_ORDERS = 5
#: Significant digits of a screening evaluation (ATTR-COST): enough to tell any printed digit.
SCREEN_DIGITS = 24

Text = tuple[tuple[str, str], ...]


class CountedCorpus:
    """ATTR-COST. Systems' lines and their references, counted once per text convention.

    ``systems``: each system's hypothesis lines; ``references``: each segment's reference
    lines (one per reference file). ``names`` name the systems. The caller's lists are copied.
    """

    def __init__(
        self, systems: Sequence[Sequence[str]], references: Sequence[Sequence[str]], names: Sequence[str]
    ) -> None:
        if not systems or len(names) != len(systems):
            raise BleuInputError("ATTR-COST", "give one name per system, and at least one system")
        if any(len(s) != len(references) for s in systems):
            raise BleuInputError("CLI-FILES", "every system needs one line per reference segment")
        self.systems = [list(s) for s in systems]
        self.references = [list(r) for r in references]
        self.names = list(names)
        self._tokens: dict[Text, tuple[list[list[Tokens]], list[list[Tokens]]]] = {}
        self._counts: dict[tuple[Text, int], list[list[Statistics]]] = {}
        self._segments: dict[tuple[Any, ...], list[list[Statistics]]] = {}
        self._alias: dict[Text, Text] = {}
        self._sums: dict[tuple[int, bool], list[list[Statistics]]] = {}
        #: Distinct tokenizations counted so far (each text convention costs one tokenization).
        self.countings = 0

    @classmethod
    def from_files(
        cls, hyp_paths: Sequence[str], ref_paths: Sequence[str], reading: Reading | None = None
    ) -> CountedCorpus:
        """The lines of hypothesis files and their reference files, read in step (CLI-FILES, CLI-INPUT)."""
        with ExitStack() as stack:
            sources = [Source(path, stack, reading or Reading()) for path in [*hyp_paths, *ref_paths]]
            rows = list(parallel_lines(sources))
        k = len(hyp_paths)
        return cls([[row[i] for row in rows] for i in range(k)], [list(row[k:]) for row in rows], hyp_paths)

    def tokens(self, text: Text) -> tuple[list[list[Tokens]], list[list[Tokens]]]:
        """Each system's tokens and each segment's reference tokens under the text conventions."""
        if text not in self._tokens and dict(text)["lowercase"] == "none":
            # Folding nothing is the same before or after the tokenizer (TOK-CASE-ORDER).
            same = tuple((k, "before" if k == "case_order" else v) for k, v in text)
            if same != text:
                self._tokens[text], self._alias[text] = self.tokens(same), self._alias[same]
        if text not in self._tokens:
            keywords = dict(text)
            memo: dict[str, Tokens] = {}

            def tok(line: str) -> Tokens:
                found = memo.get(line)
                if found is None:
                    found = memo[line] = tuple(tokenize_line(line, **keywords))
                return found

            tokens = (
                [[tok(line) for line in system] for system in self.systems],
                [[tok(line) for line in refs] for refs in self.references],
            )
            # Another text convention that gave the very same tokens: its counts serve this one.
            twin = next((t for t, seen in self._tokens.items() if seen == tokens), None)
            self._tokens[text] = tokens if twin is None else self._tokens[twin]
            self._alias[text] = text if twin is None else self._alias[twin]
        return self._tokens[text]

    def counted_texts(self) -> set[Text]:
        """The text conventions tokenized so far."""
        return set(self._tokens)

    def counts(self, text: Text, orders: int) -> list[list[Statistics]]:
        """Each system's segment statistics under the paper's segment rules (NUM-FAST), counted once
        per distinct tokenization of the files."""
        hyps, refs = self.tokens(text)
        key = (self._alias[text], max(orders, COUNTED_ORDERS))
        if key not in self._counts:
            self.countings += 1
            self._counts[key] = fast_system_statistics(
                hyps, refs, key[1], "closest", rules=PAPER_RULES, keep_segments=True
            )
        return self._counts[key]

    def segments(self, text: Text, options: BleuOptions) -> list[list[Statistics]]:
        """ATTR-COST. Each system's segment statistics under the point's segment rules and r rule.

        The counts of :meth:`counts`, with EC-005 and EC-006 applied to each segment's
        references, EC-004 to its candidate and EC-001 to the lengths left, by
        :func:`reference_bleu.fast.counts.ruled_segments`, which
        :func:`reference_bleu.fast.counts.fast_system_statistics` counts under: the same statistics.
        """
        rules, orders = options.segment_rules, options.statistics_orders
        key = (text, rules, options.ref_length, orders)
        if key not in self._segments:
            counted = self.counts(text, orders)
            hyps, refs = self.tokens(text)
            out: list[list[Statistics]] = [[] for _ in self.systems]
            for i, _, k, _, r in ruled_segments(hyps, refs, options.ref_length, rules):
                s = counted[k][i]
                out[k].append(Statistics(s.matches[:orders], s.totals[:orders], s.hyp_len, normal_length(r)))
            # The rules changed nothing here (no empty line, one reference): share the first list.
            same = next(
                (v for k, v in self._segments.items() if k[0] == text and k[-1] == orders and v == out), None
            )
            self._segments[key] = out if same is None else same
        return self._segments[key]

    def scored(self, text: Text, options: BleuOptions) -> list[list[Statistics]]:
        """What :func:`score` needs of each system: each segment (macro), else a sum and the last."""
        segments = self.segments(text, options)
        if options.aggregation == "macro":
            return segments
        key = (id(segments), options.denominator == "max1-segment")
        if key not in self._sums:
            self._sums[key] = [_sum_and_last(s, options) for s in segments]
        return self._sums[key]

    def results(self, point: Point) -> list[BleuResult]:
        """Each system's result at ``point`` (a BleuError where the point refuses these files)."""
        return [score(point, s) for s in self.scored(point.text, point.options)]

    def screen(self, point: Point) -> list[Decimal]:
        """ATTR-COST. Each system's exact score at ``point`` to SCREEN_DIGITS digits, once, unrounded.

        Cheaper than :meth:`results` (one evaluation, no second precision, no floating-point
        replay), and within 10^-20 of it relative in exact arithmetic; the arithmetic axis
        moves a score by less than 10^-5 relative (CONV-ARITH).
        """
        out = []
        for segments in self.scored(point.text, point.options):
            if not segments:
                out.append(score(point, segments).score_decimal)
                continue
            units = scored_units(segments, point.options)
            with localcontext(Context(prec=SCREEN_DIGITS)):
                if point.options.aggregation == "macro":
                    out.append(macro_average(units, point.options))
                else:
                    out.append(evaluate(*units[0], options=point.options).score)
        return out


def _sum_and_last(segments: list[Statistics], options: BleuOptions) -> list[Statistics]:
    """Every segment but the last summed (max(1, l_n) per segment under nltk's denominator), and the last.

    The same total and the same last segment as ``segments`` under ``options`` (BLEU-CORPUS,
    EC-015), so the same score.
    """
    if len(segments) <= 1:
        return segments
    head = segments[:-1]
    if options.denominator == "max1-segment":
        head = [replace(s, totals=tuple(max(1, t) for t in s.totals)) for s in head]
    return [corpus_statistics(head, options.statistics_orders), segments[-1]]
