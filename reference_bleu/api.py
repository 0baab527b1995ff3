"""The Python API: ``corpus_bleu``, ``sentence_bleu`` and ``score_statistics`` (spec API, API-TEXT).

Each call resolves its point of the convention space once (a profile, the options given beside
it, the text conventions), reads its input (token lists, or lines of text tokenized by the
point's text conventions), counts it on the fast path (NUM-FAST) and scores the statistics in
the one scoring pass (:mod:`reference_bleu.scoring.score`).

The API's native input is tokens (BLEU-INPUT). Lines of text are accepted when the caller
names how to tokenize them: a tokenizer (``tokenize="13a"``, or ``"none"`` to split on
whitespace), a case folding, or a profile, whose text conventions (``Profile.text``) then
apply as the command line applies them (TOK-PIPELINE). A line of text where a token list is
expected is an error, never a sequence of one-character tokens.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from reference_bleu.conventions.options import BleuOptions, make_options
from reference_bleu.conventions.registry import PAPER_TEXT
from reference_bleu.conventions.space import Point, resolve_point
from reference_bleu.errors import BleuInputError, BleuOptionError
from reference_bleu.fast.counts import collector_paused, fast_statistics
from reference_bleu.formulas.inputs import validate_corpus
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.score import BleuResult, estimated_score, needs_segments, score
from reference_bleu.scoring.sentences import SentenceCounter, row_scores
from reference_bleu.text.tokenizers import line_tokenizer


def corpus_bleu(
    hypotheses: Any,
    references: Any,
    profile: str | None = None,
    *,
    references_layout: str | None = None,
    **options: Any,
) -> BleuResult:
    """Corpus BLEU (Papineni et al. 2002, sec. 2.3; spec API): micro-averaged statistics, one BP.

    ``hypotheses``: a sequence of token sequences. ``references``: one entry per
    hypothesis, each a sequence of token sequences (nltk's layout); with
    ``references_layout="streams"``, one list per reference stream, each with one reference per
    hypothesis (sacrebleu's). Lines of text whose references could be read either way are refused
    unless the layout is named (:func:`reference_sets`, API-TEXT). Options (spec API-OPTIONS):
    ``max_order`` (N), ``weights``, ``ref_length``, ``smoothing``, ``smoothing_value``,
    ``effective_order``, ``zero_precision``, ``undefined_precision``, ``aggregation``,
    ``unnormalized_weights``, and the conventions of real tools (spec chapter 13).

    ``profile`` names a tool's point of the convention space (``"nltk"``, ``"sacrebleu"``,
    ``"nltk[method=4]"``, ...; spec CONV-PROFILES): its options, which options given beside
    it override (the result's ``overridden`` and signature say so). Lines of text are read
    under the profile's text conventions, or those given (``tokenize=``, ``lowercase=``; API-TEXT).

    The path, once down the layers: the point is resolved (:func:`resolve_point`), the input read
    as tokens, counted on the fast path (NUM-FAST) and scored in the one scoring pass
    (:func:`reference_bleu.scoring.score.score`).

    >>> result = corpus_bleu([["the", "cat"]], [[["the", "cat"]]], max_order=2)
    >>> result.score, result.matches, result.totals
    (1.0, (2, 1), (2, 1))
    >>> corpus_bleu([["a", "b", "c"]], [[["a", "b", "d"]]], profile="nltk").score  # (2/3 · 1/2 · 2^-1022 ...)
    1.133422688662942e-154
    >>> corpus_bleu(["The cat sat."], ["the cat sat ."], tokenize="13a", lowercase=True).score
    1.0
    """
    given_text, rest = split_text_options(options)
    point = resolve_point(profile, rest, given_text)
    if isinstance(hypotheses, Iterator):  # a generator of lines or token lists: read it once
        hypotheses = list(hypotheses)
    references = reference_sets(hypotheses, references, references_layout)
    hyps, refs = corpus_tokens(point, hypotheses, references, given_text, named=profile is not None)
    return bleu_at(point, hyps, refs)


def corpus_tokens(
    point: Point, hypotheses: Any, references: Any, given_text: Mapping[str, str], *, named: bool
) -> tuple[Any, Any]:
    """API-TEXT. The corpus as tokens: lines of text tokenized under the point's text conventions,
    when a profile is ``named`` or text options are given; token lists as they are."""
    if isinstance(hypotheses, Iterator):  # a generator of lines or token lists: read it once
        hypotheses = list(hypotheses)
    if (
        isinstance(hypotheses, Sequence)
        and not isinstance(hypotheses, str | bytes)
        and text_mode(hypotheses, bool(given_text) or named)
    ):
        if not isinstance(references, Sequence) or isinstance(references, str):
            raise BleuInputError("BLEU-INPUT", "references must be a sequence, one entry per hypothesis")
        return tokenized_corpus(hypotheses, references, point.text_conventions)
    if given_text and not isinstance(hypotheses, str | bytes):
        raise BleuInputError(
            "API-TEXT", f"{', '.join(given_text)} applies to lines of text; the hypotheses are not text"
        )
    return hypotheses, references


def bleu_at(point: Point, hypotheses: Any, references: Any) -> BleuResult:
    """BLEU of token lists at a point: validated, counted on the fast path (NUM-FAST, the literal
    functions' integers) and scored in the one scoring pass."""
    return score(point, corpus_segments(point.options, hypotheses, references))


def estimated_bleu(options: BleuOptions, hypotheses: Any, references: Any) -> float:
    """:func:`bleu_at`'s score, estimated as :func:`estimated_score` does (the same statistics, the
    same errors): the conformance runner's predictions."""
    return estimated_score(corpus_segments(options, hypotheses, references), options)


def corpus_segments(options: BleuOptions, hypotheses: Any, references: Any) -> list[Statistics]:
    """The statistics :func:`bleu_at` scores: the validated corpus counted on the fast path,
    each segment kept where scoring reads them, or where none may remain (EC-004, EC-006, EC-012)."""
    with collector_paused():  # the corpus's copies: many objects, no cycle, freed before it resumes
        return _counted_segments(options, hypotheses, references)


def _counted_segments(options: BleuOptions, hypotheses: Any, references: Any) -> list[Statistics]:
    hyps, refs = validate_corpus(
        hypotheses, references, no_reference=options.no_reference, empty_corpus=options.empty_corpus
    )
    rules = options.segment_rules
    return fast_statistics(
        hyps,
        refs,
        options.statistics_orders,
        options.ref_length,
        rules=rules,
        keep_segments=needs_segments(options) or not hyps or rules.drops_segments,
    )


def sentence_bleu(hypothesis: Any, references: Any, profile: str | None = None, **options: Any) -> BleuResult:
    """Sentence BLEU: the corpus BLEU of a one-segment corpus (spec API, EC-009).

    A line of text with one reference line or a list of them, under a tokenizer or a
    profile, as :func:`corpus_bleu` (spec API-TEXT).

    >>> sentence_bleu("it is ship".split(), ["it is ship".split()], max_order=3).score
    1.0
    >>> sentence_bleu("It is a ship.", ["it is a ship ."], profile="sacrebleu[lc=true]").reported_text
    '100.0'
    """
    return corpus_bleu([hypothesis], [references], profile, **options)


def sentence_scores(
    hypotheses: Any,
    references: Any,
    profile: str | None = None,
    *,
    counter: SentenceCounter | None = None,
    references_layout: str | None = None,
    **options: Any,
) -> list[float]:
    """NUM-SENTENCE. ``[sentence_bleu(h, refs, profile, **options).score for h, refs in ...]``, fast.

    Each row's score is the correctly rounded double of its exact sentence BLEU (NUM-EXACT),
    identical to :func:`sentence_bleu`'s ``score``; the exact path runs only for the rows that
    cannot be decided from integers (``counter`` counts them). Rows are checked as
    :func:`corpus_bleu` checks a corpus (BLEU-INPUT), so an error names the row. Lines of text
    and ``references_layout`` as :func:`corpus_bleu` takes them (spec API, API-TEXT).

    >>> sentence_scores(["the cat sat".split(), "a dog".split()],
    ...                 [["the cat sat".split()], ["the dog barked".split()]], max_order=1)
    [1.0, 0.3032653298563167]
    >>> sentence_scores(["The cat sat down.", "A dog ran."], [["the cat sat down ."], ["a dog sat ."]],
    ...                 tokenize="13a", lowercase=True)  # the second: p_3 = 0/2, so 0
    [1.0, 0.0]
    """
    given_text, rest = split_text_options(options)
    point = resolve_point(profile, rest, given_text)
    if isinstance(hypotheses, Iterator):
        hypotheses = list(hypotheses)
    references = reference_sets(hypotheses, references, references_layout)
    hyps, refs = corpus_tokens(point, hypotheses, references, given_text, named=profile is not None)
    return row_scores(point.options, hyps, refs, counter)


def score_statistics(segments: Sequence[Statistics], **options: Any) -> BleuResult:
    """BLEU from already computed segment statistics (for merged or streamed scoring; spec API).

    The statistics must have ``statistics_orders`` orders for the options given.
    """
    return score(Point.of(make_options(**options)), list(segments))


# --- Text in the API (spec API-TEXT) -------------------------------------------------------------


#: The API's text options (TOK-PIPELINE keywords): what a profile's ``text`` holds.
TEXT_OPTIONS: tuple[str, ...] = tuple(PAPER_TEXT)


def split_text_options(options: Mapping[str, Any]) -> tuple[dict[str, str], dict[str, Any]]:
    """The text options given among ``options`` (TOK-PIPELINE keywords), and the scoring options left.

    ``lowercase=True`` is the Unicode folding (``"unicode"``, what sacrebleu's and torchmetrics'
    ``lowercase=True`` do), ``lowercase=False`` none (API-TEXT).

    >>> split_text_options({"lowercase": True, "max_order": 2})
    ({'lowercase': 'unicode'}, {'max_order': 2})
    """
    text = {name: options[name] for name in TEXT_OPTIONS if name in options}
    if isinstance(text.get("lowercase"), bool):
        text["lowercase"] = "unicode" if text["lowercase"] else "none"
    for name, value in text.items():
        if not isinstance(value, str):
            raise BleuOptionError("API-TEXT", f"{name} must be a string, got {type(value).__name__}")
    return text, {name: value for name, value in options.items() if name not in TEXT_OPTIONS}


#: The layouts of references (API-TEXT): one entry per hypothesis (nltk, torchmetrics, HF evaluate),
#: or one list per reference stream with one line per hypothesis (sacrebleu).
REFERENCE_LAYOUTS = ("segments", "streams")


def reference_sets(hypotheses: Any, references: Any, layout: str | None) -> Any:
    """API-TEXT. The references as one entry per hypothesis, from the layout named.

    ``"segments"`` (the default) takes them as they are; ``"streams"`` reads sacrebleu's layout,
    one list per reference stream, and gives ``list(zip(*streams))`` once every stream has one
    line per hypothesis. Without a layout named, lines of text whose references read both ways
    (n >= 2 hypotheses and n lists of n entries: n segments of n references, or n streams) are
    refused with the keyword that says which: a number is never computed from a guess.

    >>> reference_sets(["a", "b"], [["ref a", "ref b"], ["other a", "other b"]], "streams")
    [['ref a', 'other a'], ['ref b', 'other b']]
    >>> reference_sets(["a", "b"], [["ref a", "ref b"], ["other a", "other b"]], None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    reference_bleu.errors.BleuInputError: references read two ways: 2 hypotheses and 2 lists of 2 ...
    """
    if layout is None:
        if _ambiguous(hypotheses, references):
            n = len(hypotheses)
            raise BleuInputError(
                "API-TEXT",
                f"references read two ways: {n} hypotheses and {n} lists of {n} lines are {n} segments of "
                f"{n} references each (nltk, torchmetrics, HF evaluate) or {n} reference streams "
                "(sacrebleu); name the layout: references_layout='segments' or references_layout='streams'",
            )
        return references
    if layout not in REFERENCE_LAYOUTS:
        raise BleuOptionError(
            "API-TEXT", f"references_layout must be 'segments' or 'streams', not {layout!r}"
        )
    if layout == "segments":
        return references
    if not isinstance(references, Sequence) or isinstance(references, str | bytes):
        raise BleuInputError("API-TEXT", "with references_layout='streams', references are a list of streams")
    count = len(hypotheses) if isinstance(hypotheses, Sequence) else None
    for k, stream in enumerate(references):
        if not isinstance(stream, Sequence) or isinstance(stream, str | bytes):
            raise BleuInputError(
                "API-TEXT",
                f"reference stream {k} is a {type(stream).__name__}: with references_layout='streams' each "
                "stream is a list with one reference per hypothesis",
            )
        if count is not None and len(stream) != count:
            raise BleuInputError(
                "API-TEXT", f"reference stream {k} has {len(stream)} references for {count} hypotheses"
            )
    return [list(segment) for segment in zip(*references, strict=True)]


def _ambiguous(hypotheses: Any, references: Any) -> bool:
    """Whether lines of text come with references that read as n segments of n or as n streams."""
    if not isinstance(hypotheses, Sequence) or isinstance(hypotheses, str) or len(hypotheses) < 2:
        return False
    if not is_text(hypotheses) or not isinstance(references, Sequence) or isinstance(references, str):
        return False
    n = len(hypotheses)
    return len(references) == n and all(
        isinstance(entry, Sequence) and not isinstance(entry, str) and len(entry) == n for entry in references
    )


def is_text(hypotheses: Sequence[object]) -> bool:
    """Whether the hypotheses are lines of text (every one a ``str``; an empty corpus is not text)."""
    return bool(hypotheses) and all(isinstance(h, str) for h in hypotheses)


def text_mode(hypotheses: Sequence[object], named: bool) -> bool:
    """API-TEXT. Whether ``hypotheses`` are read as text: lines of text with a tokenizer or profile ``named``.

    Lines of text without one are an error naming BLEU-INPUT (they would otherwise be read as
    sequences of one-character tokens); text options given with token lists are an error naming
    API-TEXT (they would be silently ignored).

    >>> text_mode(["the cat"], named=True), text_mode([["the", "cat"]], named=False)
    (True, False)
    >>> text_mode(["the cat"], named=False)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    reference_bleu.errors.BleuInputError: hypothesis 0 is a str (a line of text), not a sequence of ...
    """
    text = is_text(hypotheses)
    if text and not named:
        raise BleuInputError(
            "BLEU-INPUT",
            "hypothesis 0 is a str (a line of text), not a sequence of tokens: split it, or name how to "
            "tokenize it (tokenize='13a', tokenize='none' for whitespace, or a profile)",
        )
    return text


def _line(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise BleuInputError(
            "API-TEXT", f"{what} is a {type(value).__name__}; with text hypotheses it must be a line of text"
        )
    return value


def tokenized_corpus(
    hypotheses: Sequence[object], references: Sequence[object], text: Mapping[str, str], start: int = 0
) -> tuple[list[list[str]], list[list[list[str]]]]:
    """API-TEXT. Lines of text as token lists under the text conventions ``text`` (TOK-PIPELINE).

    ``references`` has one entry per hypothesis: one line of text, or a sequence of lines (one
    per reference; sacrebleu's layout, one list per reference stream, is ``list(zip(*streams))``).
    Segments are numbered from ``start`` in error messages.

    >>> tokenized_corpus(["The cat."], [["the cat !", "A cat."]], {"tokenize": "13a", "lowercase": "unicode"})
    ([['the', 'cat', '.']], [[['the', 'cat', '!'], ['a', 'cat', '.']]])
    """
    if len(hypotheses) != len(references):
        raise BleuInputError(
            "BLEU-INPUT",
            f"{len(hypotheses)} hypotheses but {len(references)} reference sets: one set per hypothesis "
            "(sacrebleu's reference streams are list(zip(*streams)))",
        )
    tokens = line_tokenizer(**text)
    hyps = [tokens(_line(h, f"hypothesis {start + i}")) for i, h in enumerate(hypotheses)]
    refs: list[list[list[str]]] = []
    for i, segment in enumerate(references, start):
        if isinstance(segment, str):
            lines: list[str] = [segment]
        elif isinstance(segment, Sequence):
            lines = [_line(r, f"reference {k} of segment {i}") for k, r in enumerate(segment)]
        else:
            raise BleuInputError(
                "API-TEXT",
                f"references of segment {i} must be a line or a list of lines, not {type(segment).__name__}",
            )
        refs.append([tokens(line) for line in lines])
    return hyps, refs
