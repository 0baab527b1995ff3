"""The Python API: ``corpus_bleu`` and ``sentence_bleu`` (spec API)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from reference_bleu.errors import BleuInputError
from reference_bleu.fast import fast_statistics
from reference_bleu.inputs import validate_corpus
from reference_bleu.options import BleuOptions, make_options
from reference_bleu.profiles import Profile, profile_options, resolve
from reference_bleu.score import BleuResult, estimated_score, needs_segments, score_segments
from reference_bleu.statistics import Statistics
from reference_bleu.text import split_text_options, text_conventions, text_mode, tokenized_corpus


def estimated_bleu(options: BleuOptions, hypotheses: Any, references: Any) -> float:
    """:func:`corpus_bleu_with`'s score, estimated as :func:`estimated_score` does (the same
    statistics, the same errors)."""
    return estimated_score(corpus_segments(options, hypotheses, references), options)


def corpus_bleu(hypotheses: Any, references: Any, profile: str | None = None, **options: Any) -> BleuResult:
    """Corpus BLEU (Papineni et al. 2002, sec. 2.3; spec API): micro-averaged statistics, one BP.

    ``hypotheses``: a sequence of token sequences. ``references``: one entry per
    hypothesis, each a sequence of token sequences. Options (spec API-OPTIONS):
    ``max_order`` (N), ``weights``, ``ref_length``, ``smoothing``, ``smoothing_value``,
    ``effective_order``, ``zero_precision``, ``undefined_precision``, ``aggregation``,
    ``unnormalized_weights``, and the conventions of real tools (spec chapter 13).

    ``profile`` names a tool's point of the convention space (``"nltk"``, ``"sacrebleu"``,
    ``"nltk[method=4]"``, ...; spec CONV-PROFILES): its options, which options given beside
    it override (the result's ``overridden`` and signature say so). The API takes tokens: a
    profile's text conventions (``Profile.text``) are applied by the command line, or by the
    caller with :func:`reference_bleu.tokenizers.tokenize_line`.

    >>> result = corpus_bleu([["the", "cat"]], [[["the", "cat"]]], max_order=2)
    >>> result.score, result.matches, result.totals
    (1.0, (2, 1), (2, 1))
    >>> corpus_bleu([["a", "b", "c"]], [[["a", "b", "d"]]], profile="nltk").score  # (2/3 · 1/2 · 2^-1022 ...)
    1.133422688662942e-154
    >>> corpus_bleu(["The cat sat."], ["the cat sat ."], tokenize="13a", lowercase="unicode").score
    1.0
    """
    given_text, options = split_text_options(options)
    chosen = None if profile is None else resolve(profile)
    if isinstance(hypotheses, Iterator):  # a generator of lines or token lists: read it once
        hypotheses = list(hypotheses)
    if (
        isinstance(hypotheses, Sequence)
        and not isinstance(hypotheses, str | bytes)
        and text_mode(hypotheses, bool(given_text) or chosen is not None)
    ):
        if not isinstance(references, Sequence) or isinstance(references, str):
            raise BleuInputError("BLEU-INPUT", "references must be a sequence, one entry per hypothesis")
        hypotheses, references = tokenized_corpus(
            hypotheses, references, text_conventions(chosen, given_text)
        )
    elif given_text and not isinstance(hypotheses, str | bytes):
        raise BleuInputError(
            "API-TEXT", f"{', '.join(given_text)} applies to lines of text; the hypotheses are not text"
        )
    if chosen is None:
        return corpus_bleu_with(make_options(**options), hypotheses, references)
    merged, _ = profile_options(chosen, options)
    return under_profile(corpus_bleu_with(make_options(**merged), hypotheses, references), chosen, options)


def under_profile(result: BleuResult, profile: Profile, given: Mapping[str, Any]) -> BleuResult:
    """CONV-PROFILES. ``result`` named as computed under ``profile``, with the options ``given``
    beside it that changed its value (the API's and the command line's one way to say so)."""
    return replace(result, profile=profile.name, overridden=profile_options(profile, given)[1])


def corpus_bleu_with(options: BleuOptions, hypotheses: Any, references: Any) -> BleuResult:
    """:func:`corpus_bleu` with options already validated by :func:`make_options`.

    The statistics come from the fast path (NUM-FAST), which gives the literal
    functions' integers.
    """
    return score_segments(corpus_segments(options, hypotheses, references), options)


def corpus_segments(options: BleuOptions, hypotheses: Any, references: Any) -> list[Statistics]:
    """The statistics :func:`corpus_bleu_with` scores: the validated corpus counted on the fast path,
    each segment kept where scoring reads them, or where none may remain (EC-004, EC-006, EC-012)."""
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


def score_statistics(segments: Sequence[Statistics], **options: Any) -> BleuResult:
    """BLEU from already computed segment statistics (for merged or streamed scoring; spec API).

    The statistics must have ``statistics_orders`` orders for the options given.
    """
    opts = make_options(**options)
    return score_segments(list(segments), opts)
