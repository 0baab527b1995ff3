"""Python targets for the conformance runner's tests: one correct, independent BLEU and broken ones.

``independent_bleu`` is written from the paper in floating point, without reference_bleu, so
that the runner is shown to accept a correct implementation it was not written for. Each
broken target misbehaves in one way, which the runner must name.
"""

from __future__ import annotations

import math
import os
import struct
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

Corpus = tuple[Sequence[Sequence[str]], Sequence[Sequence[Sequence[str]]]]


def _grams(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _statistics(
    hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]], clip: bool = True
) -> dict[str, Any]:
    if not hyps:
        raise ValueError("empty corpus")
    matches, totals, c, r = [0] * 4, [0] * 4, 0, 0
    for hyp, segment_refs in zip(hyps, refs, strict=True):
        if not segment_refs:
            raise ValueError("no reference")
        c += len(hyp)
        r += min((abs(len(x) - len(hyp)), len(x)) for x in segment_refs)[1]
        for n in range(1, 5):
            ref_counts = [_grams(x, n) for x in segment_refs]
            for g, k in _grams(hyp, n).items():
                best = max(rc[g] for rc in ref_counts)
                matches[n - 1] += (k if best else 0) if not clip else min(k, best)
                totals[n - 1] += k
    return {"matches": matches, "totals": totals, "hyp_len": c, "ref_len": r}


def _score(stats: dict[str, Any]) -> float:
    if not all(stats["matches"]):
        return 0.0
    log = sum(0.25 * math.log(m / t) for m, t in zip(stats["matches"], stats["totals"], strict=True))
    c, r = stats["hyp_len"], stats["ref_len"]
    return (1.0 if c >= r else math.exp(1 - r / c)) * math.exp(log)


def tiny_epsilon_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's BLEU with 1e-13 added to every order's matches and total, p_n = (m_n + 1e-13) /
    (l_n + 1e-13), as a deep-learning library's metric writes it to avoid log 0: a zero count gives
    1e-13 / l_n (a smoothing parameter below the 1e-12 the runner once searched down to)."""
    stats = _statistics(hyps, refs)
    tiny = 1e-13
    log = sum(
        0.25 * math.log((m + tiny) / (t + tiny))
        for m, t in zip(stats["matches"], stats["totals"], strict=True)
    )
    c, r = stats["hyp_len"], stats["ref_len"]
    return (1.0 if c >= r else math.exp(1 - r / c)) * math.exp(log)


def independent_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """Corpus BLEU, N = 4, closest reference length (ties to the shorter), no smoothing."""
    return _score(_statistics(hyps, refs))


def text_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """The same on space-joined strings (``--input text``)."""
    return independent_bleu([h.split() for h in hyps], [[r.split() for r in rs] for rs in refs])


def char_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """The same on characters (spaces dropped), as a character-level BLEU for Chinese scores text."""

    def characters(line: str) -> list[str]:
        return [c for c in line if not c.isspace()]

    return independent_bleu([characters(h) for h in hyps], [[characters(r) for r in rs] for rs in refs])


def _sacrebleu_13a(text: str) -> list[str]:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # noqa: PLC0415 -- an independent tokenizer

    tokenizer: Any = Tokenizer13a
    return str(tokenizer()(text.lower())).split()


def lowercase_13a_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """The same on text lower-cased and tokenized by sacrebleu's 13a tokenizer (``--input text``)."""
    return independent_bleu(
        [_sacrebleu_13a(h) for h in hyps], [[_sacrebleu_13a(r) for r in rs] for rs in refs]
    )


def vowel_split_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """The same on text split at spaces and at every "e": a tokenizer no convention knows."""

    def split(text: str) -> list[str]:
        return [t for t in text.replace("e", " e ").split() if t]

    return independent_bleu([split(h) for h in hyps], [[split(r) for r in rs] for rs in refs])


def percent_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The same on a 0-100 scale."""
    return 100 * independent_bleu(hyps, refs)


class Adapter:
    """An adapter object: declares capabilities, gives statistics and a sentence entry point."""

    capabilities: ClassVar[dict[str, Any]] = {
        "name": "adapter",
        "input": "tokens",
        "levels": ["corpus", "sentence"],
        "statistics": True,
    }

    def corpus(
        self, hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]
    ) -> dict[str, Any]:
        stats = _statistics(hyps, refs)
        return {"score": _score(stats), "statistics": stats}

    def sentence(self, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> dict[str, Any]:
        return self.corpus([hyp], [refs])


adapter = Adapter()


class SentenceOnly:
    """nltk's ``sentence_bleu`` (smoothing method 1) behind a sentence-only adapter: no corpus entry point."""

    capabilities: ClassVar[dict[str, Any]] = {
        "name": "sentence-only",
        "input": "tokens",
        "levels": ["sentence"],
    }

    def sentence(self, hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
        import warnings  # noqa: PLC0415

        from nltk.translate.bleu_score import SmoothingFunction  # noqa: PLC0415
        from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu  # noqa: PLC0415

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            method = SmoothingFunction().method1
            return float(nltk_sentence_bleu([list(r) for r in refs], list(hyp), smoothing_function=method))


sentence_only = SentenceOnly()


# --- broken ----------------------------------------------------------------------------------


def no_clip(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """Counts are not clipped."""
    return _score(_statistics(hyps, refs, clip=False))


def raises(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """Raises on a valid corpus whose first hypothesis has 3 tokens."""
    if hyps and len(hyps[0]) == 3:
        raise RuntimeError("boom")
    return independent_bleu(hyps, refs)


def nan(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """NaN where the answer is 0."""
    value = independent_bleu(hyps, refs)
    return math.nan if value == 0.0 else value


def out_of_range(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """Scores above 1."""
    return 1.5 * independent_bleu(hyps, refs) + 0.5


def wrong_type(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> Any:
    """Returns the score as a string."""
    return f"{independent_bleu(hyps, refs):.4f}"


def hangs(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """Never answers when the corpus has more than one segment."""
    if len(hyps) > 1:
        time.sleep(3600)
    return independent_bleu(hyps, refs)


def crashes(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """Kills its own process on a corpus of two segments."""
    if len(hyps) == 2:
        os._exit(3)
    return independent_bleu(hyps, refs)


def mutates(hyps: Any, refs: Any) -> float:
    """Lower-cases the hypotheses in place."""
    value = independent_bleu(hyps, refs)
    for h in hyps:
        h[:] = [t.lower() for t in h]
        h.append("x")
    return value


def _f32(x: float) -> float:
    """``x`` rounded to binary32 (as a float32 tensor holds it)."""
    return float(struct.unpack("f", struct.pack("f", x))[0])


def binary32(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """Right conventions, float32 arithmetic: every operation rounded to binary32 (EC-013)."""
    stats = _statistics(hyps, refs)
    if not all(stats["matches"]):
        return 0.0
    logs = [
        _f32(0.25 * _f32(math.log(_f32(m / t))))
        for m, t in zip(stats["matches"], stats["totals"], strict=True)
    ]
    mean = _f32(math.exp(_f32(sum(logs))))
    c, r = stats["hyp_len"], stats["ref_len"]
    return _f32((1.0 if c >= r else _f32(math.exp(_f32(1 - _f32(r / c))))) * mean)


def macro(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The mean of sentence scores (EC-009's macro: a named convention, not the paper's BLEU)."""
    return sum(independent_bleu([h], [r]) for h, r in zip(hyps, refs, strict=True)) / len(hyps)


NOT_CALLABLE = 42


def rounded_percent_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The same x100, printed to 2 decimals as most papers and tools print it (``--digits 2``)."""
    return round(100 * independent_bleu(hyps, refs), 2)


def lenient_domain(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's BLEU inside its domain; outside it (spec CONF-VERDICT's acceptable choices) a
    segment without references is dropped, and an empty corpus (also one left empty by dropping)
    scores 0."""
    kept = [(h, r) for h, r in zip(hyps, refs, strict=True) if r]
    if not kept:
        return 0.0
    return independent_bleu([h for h, _ in kept], [r for _, r in kept])


def drops_empty_candidates(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """As :func:`lenient_domain`, and a segment whose hypothesis is empty is dropped with its
    references: inside BLEU's domain (the empty candidate adds no n-grams and its reference length
    to r), so not the paper's BLEU: a variant, empty_candidates=drop (spec CONF-VERDICT)."""
    kept = [(h, r) for h, r in zip(hyps, refs, strict=True) if h and r]
    if not kept:
        return 0.0
    return independent_bleu([h for h, _ in kept], [r for _, r in kept])


def refuses_zero_lengths(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's BLEU inside its domain; it raises when the total candidate length c or the
    total reference length r is 0 (its BP divides by them), and scores a segment without
    references against one empty reference."""
    stats = _statistics(hyps, [r or [[]] for r in refs])
    if not (stats["hyp_len"] and stats["ref_len"]):
        raise ZeroDivisionError("c = 0 or r = 0")
    return _score(stats)


def one_reference_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's BLEU in a tool that takes exactly one reference per segment, as most tools in
    use do, and refuses anything else (run with ``--references one``, spec CONF-PROTOCOL)."""
    if any(len(segment) != 1 for segment in refs):
        raise ValueError("this tool takes exactly one reference per segment")
    return independent_bleu(hyps, refs)


def ratio_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's BLEU whose brevity penalty divides: ratio = c / r, then BP = exp(1 - 1 / ratio)
    when ratio <= 1. It raises ZeroDivisionError when the corpus's total r is 0 (and so when the
    total c is 0), and only then: an empty reference beside a non-empty segment is scored like any
    other reference (spec EC-004's zero_length, EC-005)."""
    stats = _statistics(hyps, refs)
    ratio = stats["hyp_len"] / stats["ref_len"]
    mean = _score({**stats, "hyp_len": 1, "ref_len": 1})  # the precisions alone (BP = 1)
    return mean * (1.0 if ratio > 1.0 else math.exp(1 - 1 / ratio))


def ratio_first_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's BLEU in a tool that computes the length ratio c / r first (to report it) and the
    brevity penalty from c and r after: it raises ZeroDivisionError when the corpus's total r is
    0, and only then; a total c = 0 takes BP's limit 0 (spec EC-004's zero_length=error-r)."""
    stats = _statistics(hyps, refs)
    c, r = stats["hyp_len"], stats["ref_len"]
    ratio = c / r  # reported beside the score
    mean = _score({**stats, "hyp_len": 1, "ref_len": 1})  # the precisions alone (BP = 1)
    if ratio >= 1.0:
        return mean
    return 0.0 if c == 0 else mean * math.exp(1 - r / c)


def empty_reference_as_one_token(
    hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]
) -> float:
    """The paper's BLEU in a one-reference tool that ends every sentence with an end-of-sentence token
    and leaves it out of the n-grams but not of the lengths of an empty reference: its length is 1."""
    if any(len(segment) != 1 for segment in refs):
        raise ValueError("this tool takes exactly one reference per segment")
    stats = _statistics(hyps, refs)
    empty = sum(1 for segment in refs if not segment[0])
    return _score({**stats, "ref_len": stats["ref_len"] + empty})


def shortest_ratio_first_bleu(
    hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]
) -> float:
    """tensorflow/nmt's BLEU (the shortest reference's length for BP) in a tool that computes the ratio
    c / r first, as ``ratio_first_bleu``: it raises when the total r is 0 and only then, where nmt also
    raises on a total c = 0 (spec EC-004's zero_length: error-r against nmt's error)."""
    stats = _statistics(hyps, refs)
    c, r = stats["hyp_len"], sum(min(len(x) for x in segment) for segment in refs)
    ratio = c / r  # reported beside the score
    mean = _score({**stats, "hyp_len": 1, "ref_len": 1})  # the precisions alone (BP = 1)
    if ratio >= 1.0:
        return mean
    return 0.0 if c == 0 else mean * math.exp(1 - r / c)


def early_return_then_sentinel(
    hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]
) -> float:
    """0 when no unigram matches (an early return, EC-016); otherwise every zero precision, 0/0
    included, replaced by the sentinel 2^-1022 (EC-002), without nltk's max(1, l_n): the
    sentinel's score of a corpus whose orders all miss, 2^-1022, is not 0."""
    stats = _statistics(hyps, refs)
    if not stats["matches"][0]:
        return 0.0
    sentinel = 2.0**-1022
    p = [m / t if m else sentinel for m, t in zip(stats["matches"], stats["totals"], strict=True)]
    c, r = stats["hyp_len"], stats["ref_len"]
    return (1.0 if c >= r else math.exp(1 - r / c)) * math.exp(sum(0.25 * math.log(x) for x in p))


def lowercasing_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's BLEU on tokens, each lower-cased (Python's str.lower, Unicode) before counting:
    a token tool with a case-insensitive option switched on (spec TOK-CASE)."""

    def folded(tokens: Sequence[str]) -> list[str]:
        return [token.lower() for token in tokens]

    return independent_bleu([folded(h) for h in hyps], [[folded(r) for r in rs] for rs in refs])


def reference_streams_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's BLEU in a tool that reads reference files, one per reference, each with one line
    per segment (sacrebleu's and multi-bleu's layout): every segment has the same number of
    references, at least one; anything else is refused (run with ``--references same``, spec
    CONF-PROTOCOL)."""
    counts = {len(segment) for segment in refs}
    if len(counts) != 1 or 0 in counts:
        raise ValueError("the reference files must all have one line per segment")
    streams = [[segment[k] for segment in refs] for k in range(len(refs[0]))] if refs else []
    return independent_bleu(hyps, [[stream[i] for stream in streams] for i in range(len(hyps))])


def naive_bp_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's BLEU with the brevity penalty written as the paper prints it, BP = 1 if c > r
    else exp(1 - r / c): it raises ZeroDivisionError when the corpus's total c is 0 (whatever r),
    and scores a total r = 0 with BP = 1 (spec EC-004's zero_length=error-c)."""
    stats = _statistics(hyps, refs)
    c, r = stats["hyp_len"], stats["ref_len"]
    bp = 1.0 if c > r else math.exp(1 - r / c)
    return bp * _score({**stats, "hyp_len": 1, "ref_len": 1})


def _with_bp(stats: dict[str, Any], log_bp: float) -> float:
    """The paper's combination of ``stats``'s precisions, with ``log_bp`` for log BP."""
    if not all(stats["matches"]):
        return 0.0
    log = sum(0.25 * math.log(m / t) for m, t in zip(stats["matches"], stats["totals"], strict=True))
    return math.exp(log_bp + log)


def plus_one_bp_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's corpus BLEU with the brevity penalty of code-summarisation scripts: log BP =
    min(0, 1 - (r + 1) / (c + 1)), one added to both total lengths (spec EC-017)."""
    stats = _statistics(hyps, refs)
    c, r = stats["hyp_len"], stats["ref_len"]
    return _with_bp(stats, min(0.0, 1 - (r + 1) / (c + 1)))


def plus_one_bp_percent_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The same on a 0-100 scale, as those scripts print it."""
    return 100 * plus_one_bp_bleu(hyps, refs)


def rounded_unit_bleu(hyps: Sequence[Sequence[str]], refs: Sequence[Sequence[Sequence[str]]]) -> float:
    """The paper's BLEU on [0, 1], printed to 4 decimals as mteval prints it (0.4567)."""
    return round(independent_bleu(hyps, refs), 4)


def character_length_bp_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> float:
    """Text input (``--input text``): n-grams counted on the lines split at spaces, but c and r taken
    as the lines' lengths in characters, as when strings reach a BP written for token lists
    (each segment's reference the closest in characters, ties to the shorter)."""
    stats = _statistics([h.split() for h in hyps], [[x.split() for x in rs] for rs in refs])
    c = sum(len(h) for h in hyps)
    r = sum(min((abs(len(x) - len(h)), len(x)) for x in rs)[1] for h, rs in zip(hyps, refs, strict=True))
    return _with_bp(stats, 0.0 if c >= r or c == 0 else 1 - r / c)
