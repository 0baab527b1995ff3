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

from collections.abc import Callable, Sequence
from contextlib import ExitStack
from decimal import Context, localcontext
from typing import Any

from reference_bleu.analysis.screen import (
    macro_mean,
    numpy_module,
    segment_arrays,
    unit_score,
    vector_scores,
    vectorizable,
)
from reference_bleu.conventions.options import BleuOptions
from reference_bleu.conventions.space import Point
from reference_bleu.errors import BleuInputError
from reference_bleu.fast.counts import fast_system_statistics, ruled_segments
from reference_bleu.formulas.inputs import PAPER_RULES, Tokens
from reference_bleu.formulas.length import effective_reference_length
from reference_bleu.formulas.smoothing import LastSegment
from reference_bleu.formulas.statistics import Statistics, normal_length
from reference_bleu.scoring.files import Reading, Source, parallel_lines
from reference_bleu.scoring.score import BleuResult, score, scored_units
from reference_bleu.text.tokenizers import (
    KERNEL_TOKENIZERS,
    SPLIT_RULES,
    check_case_folding,
    check_case_order,
    check_split_rule,
    fold_case,
    kernel_folding,
    line_tokenizer,
    split_tokens,
    tokenizer,
)

#: Orders counted at least: N = 4 and the N + 1 that smoothing methods 5 and 7 read.
COUNTED_ORDERS = 5
#: Significant digits of the logarithms a screen's smoothing takes (methods 4 and 7; ATTR-COST).
SCREEN_DIGITS = 24

Text = tuple[tuple[str, str], ...]

#: The tokenizer whose rules each SGML tokenizer applies after its entity replacements (TOK-SGML).
_SGML_RULES = {"13a-sgml": "13a", "intl-sgml": "intl"}


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
        distinct: dict[str, int] = {}
        self._hyp_index = [[distinct.setdefault(line, len(distinct)) for line in s] for s in self.systems]
        self._ref_index = [[distinct.setdefault(line, len(distinct)) for line in r] for r in self.references]
        #: Each distinct line once: a text convention tokenizes each once.
        self._unique = list(distinct)
        self._lines: dict[Text, list[Tokens]] = {}
        #: Tokens known before a convention is asked for (the split rules that give the same).
        self._shared: dict[Text, list[Tokens]] = {}
        #: No line has trailing whitespace but its end: every split rule strips the same.
        self._plain_ends = all(line.rstrip() == line.rstrip("\r\n") for line in self._unique)
        self._tokens: dict[Text, tuple[list[list[Tokens]], list[list[Tokens]]]] = {}
        self._counts: dict[tuple[Text, int], list[list[Statistics]]] = {}
        self._segments: dict[tuple[Any, ...], list[list[Statistics]]] = {}
        self._alias: dict[Text, Text] = {}
        self._sums: dict[tuple[Any, ...], list[list[Statistics]]] = {}
        self._rules: dict[tuple[Any, ...], list[list[Statistics]]] = {}
        self._shapes: dict[Text, tuple[bool, bool]] = {}
        self._arrays: dict[tuple[int, str], dict[str, Any]] = {}
        self._units: dict[tuple[Any, ...], list[list[tuple[Statistics, LastSegment]]]] = {}
        #: Each tokenizer's output on each string it was given (TOK-PIPELINE, before the split).
        self._outputs: dict[str, dict[str, str]] = {}
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
            lines = self._shared.pop(text, None) or self._line_tokens(text)
            # Another text convention that gave the very same tokens: its counts serve this one.
            twin = next((t for t, seen in self._lines.items() if seen == lines), None)
            if twin is not None:
                self._tokens[text], self._alias[text] = self._tokens[twin], self._alias[twin]
            else:
                self._lines[text], self._alias[text] = lines, text
                self._tokens[text] = (
                    [[lines[i] for i in system] for system in self._hyp_index],
                    [[lines[i] for i in refs] for refs in self._ref_index],
                )
        return self._tokens[text]

    def _line_tokens(self, text: Text) -> list[Tokens]:
        """TOK-PIPELINE: the tokens of each distinct line under one text convention, the tokenizer's
        output remembered across conventions.

        The steps of :func:`reference_bleu.text.tokenizers.line_tokenizer` (strip, fold before,
        tokenize, fold after, split), with the tokenizer's output on each string it was given kept
        per tokenizer: the conventions that differ only in the split rule or in a folding after the
        tokenizer reuse it (tested equal to ``tokenize_line``). 13a split as Python splits, folded
        before or not at all, is the kernel's whole pipeline where it is loaded: used as it is, and
        its tokens joined are 13a's output on a line without trailing whitespace.

        Where no line has trailing whitespace but its end and every output is its tokens joined by
        single spaces, the three split rules give the same tokens (TOK-SPLIT-RULE): the tokens are
        kept for the other two rules too.
        """
        keywords = dict(text)
        if keywords["tokenize"] == "13a" and kernel_folding(**keywords) is not None:
            whole = line_tokenizer(**keywords)
            lines = [tuple(whole(line)) for line in self._unique]
            # 13a's output is its tokens joined by single spaces: the split rules agree where it is
            # not empty and the lines end plainly.
            self._share_split_rules(text, lines, all(lines))
            return lines
        rule, folding = check_split_rule(keywords["split"]), check_case_folding(keywords["lowercase"])
        after = check_case_order(keywords["case_order"]) == "after"
        tokenize_text = self._tokenizer(keywords["tokenize"])
        outputs = self._outputs.setdefault(keywords["tokenize"], {})
        stripped = [line.rstrip() if rule == "unicode" else line.rstrip("\r\n") for line in self._unique]
        given = stripped if after or folding == "none" else [fold_case(x, folding) for x in stripped]
        out = []
        for x in given:
            found = outputs.get(x)
            if found is None:
                found = outputs[x] = tokenize_text(x)
            out.append(found)
        if after and folding != "none":
            out = [fold_case(x, folding) for x in out]
        words = [x.split() for x in out]
        lines = (
            [tuple(w) for w in words] if rule == "unicode" else [tuple(split_tokens(x, rule)) for x in out]
        )
        self._share_split_rules(
            text, lines, all(w and " ".join(w) == x for w, x in zip(words, out, strict=True))
        )
        return lines

    def _share_split_rules(self, text: Text, lines: list[Tokens], joined: bool) -> None:
        """Keep ``lines`` for the other split rules of ``text`` when they give the same tokens: every
        tokenizer output is its tokens joined by single spaces (``joined``) and no line has trailing
        whitespace but its end (so every rule strips the same) (TOK-SPLIT-RULE)."""
        if self._plain_ends and joined:
            rule = dict(text)["split"]
            for other in SPLIT_RULES:
                if other != rule:
                    self._shared[tuple((k, other if k == "split" else v) for k, v in text)] = lines

    def _tokenizer(self, name: str) -> Callable[[str], str]:
        """The tokenizer ``name``; 13a's output as the kernel's tokens joined, where it is loaded and the
        string has no trailing whitespace (the kernel strips it); a SGML tokenizer's as its rules'
        (13a's, TOK-INTL's), remembered with theirs, on a string with no entity for it to replace
        and no ``<skipped>`` for 13a to drop (TOK-SGML: the replacements, then the rules)."""
        python = tokenizer(name)
        if name in _SGML_RULES:
            rules, outputs = (
                self._tokenizer(_SGML_RULES[name]),
                self._outputs.setdefault(_SGML_RULES[name], {}),
            )

            def sgml(x: str) -> str:
                if "&" in x or "<skipped>" in x:
                    return python(x)
                found = outputs.get(x)
                if found is None:
                    found = outputs[x] = rules(x)
                return found

            return sgml
        if name != "13a" or name not in KERNEL_TOKENIZERS:
            return python
        kernel = line_tokenizer(name)  # the kernel's 13a, split as Python splits
        return lambda x: " ".join(kernel(x)) if x == x.rstrip() else python(x)

    def counted_texts(self) -> set[Text]:
        """The text conventions tokenized so far."""
        return set(self._tokens)

    def counts(self, text: Text, orders: int) -> list[list[Statistics]]:
        """Each system's segment statistics under the paper's segment rules (NUM-FAST), counted once
        per distinct tokenization of the files."""
        self.tokens(text)
        key = (self._alias[text], max(orders, COUNTED_ORDERS))
        if key not in self._counts:
            hyps, refs = self.tokens(text)
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
        key = self._segment_key(text, options)
        if key not in self._segments:
            orders = options.statistics_orders
            ruled = self._ruled(text, key)
            self._segments[key] = [[s.truncated(orders) for s in system] for system in ruled]
        return self._segments[key]

    def _ruled(self, text: Text, key: tuple[Any, ...]) -> list[list[Statistics]]:
        """:meth:`segments` at the orders counted (``key``: :meth:`_segment_key`'s); the counts themselves
        where the rules and the r rule are those they were counted under."""
        _, rules, ref_length, orders = key
        counted = self.counts(text, orders)
        if rules == PAPER_RULES and ref_length == "closest":
            return counted
        if key not in self._rules:
            hyps, refs = self.tokens(text)
            out: list[list[Statistics]] = [[] for _ in self.systems]
            for i, _, k, _, r in ruled_segments(hyps, refs, ref_length, rules):
                s = counted[k][i]
                out[k].append(Statistics(s.matches, s.totals, s.hyp_len, normal_length(r)))
            self._rules[key] = out
        return self._rules[key]

    def _segment_key(self, text: Text, options: BleuOptions) -> tuple[Any, ...]:
        """What decides :meth:`segments` here: the tokens, the segment rules where some line is empty
        (else they drop and refuse nothing), the r rule where a segment has several references (else r
        is its one reference's length), the orders counted."""
        hyps, refs = self.tokens(text)
        alias = self._alias[text]
        if alias not in self._shapes:
            empty = any(not t for system in hyps for t in system) or any(not t for rs in refs for t in rs)
            self._shapes[alias] = (empty, any(len(rs) != 1 for rs in refs))
        empty, several = self._shapes[alias]
        return (
            alias,
            options.segment_rules if empty else PAPER_RULES,
            options.ref_length if several else "closest",
            max(options.statistics_orders, COUNTED_ORDERS),
        )

    def scored(self, text: Text, options: BleuOptions) -> list[list[Statistics]]:
        """What :func:`score` needs of each system: each segment (macro), else a sum and the last."""
        if options.aggregation == "macro":
            return self.segments(text, options)
        key = self._segment_key(text, options)
        sums = (*key, options.statistics_orders, options.denominator == "max1-segment")
        if sums not in self._sums:
            orders = options.statistics_orders
            self._sums[sums] = [
                [s.truncated(orders) for s in _sum_and_last(system, options)]
                for system in self._ruled(text, key)
            ]
        return self._sums[sums]

    def results(self, point: Point) -> list[BleuResult]:
        """Each system's result at ``point`` (a BleuError where the point refuses these files)."""
        return [score(point, s) for s in self.scored(point.text, point.options)]

    def screen(self, point: Point) -> list[float]:
        """ATTR-COST. Each system's score at ``point`` on [0, 1], estimated in binary64
        (:mod:`reference_bleu.analysis.screen`): each scored unit settled as the scoring pass settles
        it and combined by CONV-ARITH's procedure; a sentence-level point's units all at once where
        numpy is present and the conventions allow, their mean summed exactly.

        Within 10^-13 relative of the exact score, and of the point's own arithmetic in binary64
        (10^-6 in binary32): a screen, which tells the points that cannot print a number from those
        that :meth:`results` must score. It raises where the point's settling refuses these files.
        """
        options = point.options
        np = numpy_module()
        vector = np is not None and options.aggregation == "macro" and vectorizable(options)
        out = []
        with localcontext(Context(prec=SCREEN_DIGITS)):  # the logarithms of methods 4 and 7
            for k, segments in enumerate(self.scored(point.text, options)):
                if not segments:
                    out.append(score(point, []).score)
                    continue
                scores = (
                    vector_scores(self._arrays_of(segments, options, np), options, np) if vector else None
                )
                if scores is None:
                    units = self._scored_units(point.text, options)[k]
                    scores = [unit_score(stats, tail, options) for stats, tail in units]
                out.append(scores[0] if len(scores) == 1 else macro_mean(scores))
        return out

    def _arrays_of(self, segments: list[Statistics], options: BleuOptions, np: Any) -> dict[str, Any]:
        """:func:`segment_arrays` of a list of segments under the point's denominator, kept."""
        key = (id(segments), options.denominator)
        if key not in self._arrays:
            self._arrays[key] = segment_arrays(segments, options.denominator, np)
        return self._arrays[key]

    def _scored_units(self, text: Text, options: BleuOptions) -> list[list[tuple[Statistics, LastSegment]]]:
        """:func:`scored_units` of each system's :meth:`scored` statistics, kept per list and denominator."""
        scored = self.scored(text, options)
        key = (id(scored), options.aggregation, options.denominator, options.max_order)
        if key not in self._units:
            self._units[key] = [scored_units(s, options) if s else [] for s in scored]
        return self._units[key]


def _sum_and_last(segments: list[Statistics], options: BleuOptions) -> list[Statistics]:
    """Every segment but the last summed (max(1, l_n) per segment under nltk's denominator), and the last.

    The same total and the same last segment as ``segments`` under ``options`` (BLEU-CORPUS,
    EC-015), so the same score.
    """
    if len(segments) <= 1:
        return segments
    head = segments[:-1]
    max1 = options.denominator == "max1-segment"
    totals = (tuple(max(1, t) for t in s.totals) for s in head) if max1 else (s.totals for s in head)
    summed = Statistics(
        tuple(map(sum, zip(*(s.matches for s in head), strict=True))),
        tuple(map(sum, zip(*totals, strict=True))),
        sum(s.hyp_len for s in head),
        normal_length(effective_reference_length(s.ref_len for s in head)),
    )
    return [summed, segments[-1]]
