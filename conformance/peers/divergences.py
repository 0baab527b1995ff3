"""The divergence registry: every known way a peer's score differs from the reference (spec 10).

An entry names the peer and version, says when it applies (a predicate on the peer's
configuration and the exact per-segment statistics), and cites the evidence. The peer's
*model* (``conformance.peers.models``) computes the peer's value from the exact statistics, in
the peer's own arithmetic, so every entry is tested: on its minimal example the model must
reproduce the peer's output and differ from the reference. A mismatch no applicable entry
explains fails the differential tests; an entry whose example no longer reproduces fails
them too. ``python -m conformance.peers.divergences --write`` regenerates ``spec/10-divergences.md``
from the registry and the peers' actual outputs; the tests fail when that chapter is out of date.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from conformance.peers.models import (
    NLTK_VERSION,
    SACREBLEU_VERSION,
    Case,
    Corpus,
    PeerTarget,
    PeerValue,
    model,
    profile_of,
    reference_options,
)
from conformance.peers.targets import NltkTarget, SacrebleuTarget
from conformance.peers.tokenization import TOKENIZER_REGISTRY, compare_tokens
from reference_bleu.api import corpus_bleu
from reference_bleu.conventions.options import make_options
from reference_bleu.conventions.profiles import PROFILES, paper_differences, resolve
from reference_bleu.conventions.space import Point
from reference_bleu.errors import BleuError
from reference_bleu.scoring.score import score

CHAPTER = Path(__file__).resolve().parents[2] / "spec" / "10-divergences.md"
#: The chapter's last section is written by hand (each verdict of the conformance matrix
#: checked against the peers' sources); ``--write`` keeps it as it is.
HAND_WRITTEN = "## The conformance matrix, checked by hand"


@dataclass(frozen=True)
class Divergence:
    """One registered difference between a peer and the reference."""

    id: str
    peer: str
    version: str
    title: str
    explanation: str
    evidence: str
    applies: Callable[[PeerTarget, Case], bool]
    example_target: PeerTarget
    example: Corpus
    #: The axis values of the peer's profile (spec chapter 13) that make the difference.
    axes: tuple[tuple[str, str], ...] = ()


# --- predicates: when an entry can make the peer differ ---------------------------------------


def _sacrebleu_no_match_smoothed(target: PeerTarget, case: Case) -> bool:
    if not isinstance(target, SacrebleuTarget):
        return False
    return target.smooth_method != "none" and not any(case.corpus(target.max_ngram_order).matches)


def _sacrebleu_add_k_absent_order(target: PeerTarget, case: Case) -> bool:
    if not isinstance(target, SacrebleuTarget) or target.smooth_method != "add-k":
        return False
    stats = case.corpus(target.max_ngram_order)
    return any(stats.matches) and any(t == 0 for t in stats.totals[1:])


def _nltk_weighted_orders(target: NltkTarget, case: Case) -> int:
    """How many orders carry a weight in nltk: 4, or c when auto_reweigh and c < 4."""
    c = case.corpus(4).hyp_len
    return c if target.auto_reweigh and c < 4 else 4


def _nltk_scoring(target: PeerTarget, case: Case, *methods: int) -> bool:
    """nltk with one of ``methods`` (all when none given), past its early return (m_1 > 0)."""
    return (
        isinstance(target, NltkTarget)
        and (not methods or target.method in methods)
        and case.corpus(4).matches[0] > 0
    )


def _nltk_short_segment(target: PeerTarget, case: Case) -> bool:
    return _nltk_scoring(target, case) and any(0 in s.totals[:4] for s in case.segments)


def _nltk_zero_order(target: PeerTarget, case: Case, *methods: int) -> bool:
    if not (isinstance(target, NltkTarget) and _nltk_scoring(target, case, *methods)):
        return False
    matches = case.corpus(4).matches[: _nltk_weighted_orders(target, case)]
    return 0 in matches


def _nltk_sentinel(target: PeerTarget, case: Case) -> bool:
    return _nltk_zero_order(target, case, 0)


def _nltk_early_zero(target: PeerTarget, case: Case) -> bool:
    if not isinstance(target, NltkTarget) or target.method == 0:
        return False
    stats = case.corpus(4)
    return stats.matches[0] == 0 and stats.hyp_len > 0


def _nltk_method_4(target: PeerTarget, case: Case) -> bool:
    return _nltk_zero_order(target, case, 4, 7) and case.corpus(4).hyp_len > 1


def _nltk_method_4_single_word(target: PeerTarget, case: Case) -> bool:
    return _nltk_zero_order(target, case, 4) and case.corpus(4).hyp_len <= 1


def _nltk_method_5(target: PeerTarget, case: Case) -> bool:
    return _nltk_scoring(target, case, 5, 7)


def _nltk_method_6_assert(target: PeerTarget, case: Case) -> bool:
    return _nltk_scoring(target, case, 6) and case.corpus(4).matches[2] == 0


def _nltk_method_6_last_hypothesis(target: PeerTarget, case: Case) -> bool:
    if not _nltk_scoring(target, case, 6) or case.corpus(4).matches[2] == 0:
        return False
    return case.last.totals[2:4] != case.corpus(4).totals[2:4]


def _nltk_auto_reweigh(target: PeerTarget, case: Case) -> bool:
    if not (isinstance(target, NltkTarget) and target.auto_reweigh and _nltk_scoring(target, case)):
        return False
    present = sum(1 for t in case.corpus(4).totals if t > 0)
    return _nltk_weighted_orders(target, case) != present


_NLTK_SOURCE = "nltk/translate/bleu_score.py (3.10.4)"

REGISTRY: tuple[Divergence, ...] = (
    Divergence(
        id="DIV-SACREBLEU-001",
        peer="sacrebleu",
        version=SACREBLEU_VERSION,
        title="no match at any order scores 0 before smoothing",
        explanation=(
            "When no order has a single match, compute_bleu returns 0 at once, so a smoothing "
            "method never applies; the reference smooths (floor: ε/l_n at every order; exp: "
            "1/(2^k l_n)) and returns a positive score. Spec EC-002, SMOOTH."
        ),
        evidence=(
            "sacrebleu/metrics/bleu.py, BLEU.compute_bleu: "
            "'# Early stop if there are no matches (#141)' (lines 257-259 in 2.6.0)"
        ),
        applies=_sacrebleu_no_match_smoothed,
        example_target=SacrebleuTarget("floor"),
        example=([["a", "b", "c", "d"]], [[["e", "f", "g", "h"]]]),
        axes=(("early_return", "no-match"),),
    ),
    Divergence(
        id="DIV-SACREBLEU-002",
        peer="sacrebleu",
        version=SACREBLEU_VERSION,
        title="add-k turns an order without n-grams into a precision of 1",
        explanation=(
            "With smooth_method='add-k', k is added to the match and total counts of every order "
            "n >= 2 before the test for an order without n-grams, so such an order gets k/k = 1 "
            "and stays in the mean. The reference settles orders without n-grams first (spec "
            "EC-003: zero by default, dropped under effective order), so smoothing never sees them."
        ),
        evidence=(
            "sacrebleu/metrics/bleu.py, BLEU.compute_bleu: the add-k update precedes "
            "'if total[n - 1] == 0: break' (lines 264-269 in 2.6.0)"
        ),
        applies=_sacrebleu_add_k_absent_order,
        example_target=SacrebleuTarget("add-k", effective_order=True),
        example=([["a", "b"]], [[["a", "c"]]]),
        axes=(("undefined_precision", "one"),),
    ),
    Divergence(
        id="DIV-NLTK-001",
        peer="nltk",
        version=NLTK_VERSION,
        title="a segment without n-grams of an order counts one in the denominator",
        explanation=(
            "modified_precision returns Fraction(m_n, max(1, l_n)), and corpus_bleu sums those "
            "denominators, so every segment shorter than n adds 1 to the corpus l_n. The corpus "
            "precision drops (here 1/2 instead of 1 at n = 4), and an order with no n-gram "
            "anywhere is never undefined: it is a zero precision, smoothed by the method or "
            "replaced by the sentinel of DIV-NLTK-002. The reference uses l_n (spec BLEU-PREC, "
            "EC-003)."
        ),
        evidence=f"{_NLTK_SOURCE}, modified_precision: 'denominator = max(1, sum(counts.values()))'",
        applies=_nltk_short_segment,
        example_target=NltkTarget(0),
        example=([["a", "b", "c", "d"], ["a"]], [[["a", "b", "c", "d"]], [["a"]]]),
        axes=(("denominator", "max1-segment"),),
    ),
    Divergence(
        id="DIV-NLTK-002",
        peer="nltk",
        version=NLTK_VERSION,
        title="without smoothing, a zero precision becomes sys.float_info.min",
        explanation=(
            "method0 replaces a precision with no match by sys.float_info.min (2.2e-308) and "
            "warns, so the geometric mean is a tiny positive number (about 1e-78 per zero order "
            "at weight 1/4) where the paper's limit, and the reference, give exactly 0 (spec "
            "EC-002). Since PR #1844 (nltk 3.3); older releases dropped the order instead "
            "(spec 07)."
        ),
        evidence=(
            f"{_NLTK_SOURCE}, SmoothingFunction.method0: 'p_n_new.append(sys.float_info.min)'; "
            "nltk issue #1838, PR #1844"
        ),
        applies=_nltk_sentinel,
        example_target=NltkTarget(0),
        example=([["a", "b", "c", "d"]], [[["a", "b", "d", "c"]]]),
        axes=(("zero_precision", "sentinel"),),
    ),
    Divergence(
        id="DIV-NLTK-003",
        peer="nltk",
        version=NLTK_VERSION,
        title="no unigram match scores 0 before smoothing",
        explanation=(
            "corpus_bleu returns 0 when the corpus has no unigram match, before it calls the "
            "smoothing function, so methods that smooth p_1 (1, 3, 4, 5, 7) never do; the "
            "reference smooths and returns a positive score (spec EC-002, SMOOTH)."
        ),
        evidence=f"{_NLTK_SOURCE}, corpus_bleu: 'if p_numerators[1] == 0: return 0'",
        applies=_nltk_early_zero,
        example_target=NltkTarget(1),
        example=([["a", "b", "c", "d"]], [[["e", "f", "g", "h"]]]),
        axes=(("early_return", "no-unigram-match"),),
    ),
    Divergence(
        id="DIV-NLTK-004",
        peer="nltk",
        version=NLTK_VERSION,
        title="method 4 divides by 2^k K / ln c instead of (K / ln c)^k",
        explanation=(
            "Chen and Cherry's method 4 multiplies invcnt by K / ln(T) at each zero order, so "
            "the k-th zero order gets (ln T / K)^k / l_n (spec SMOOTH-CC4). nltk computes "
            "1 / (2^k K / ln T) / l_n: method 3's 2^k kept and K / ln T applied once. Equal "
            "at the first zero order only when ln T / K = 1/2; T is the corpus c in both."
        ),
        evidence=(
            f"{_NLTK_SOURCE}, SmoothingFunction.method4: "
            "'numerator = 1 / (2**incvnt * self.k / math.log(hyp_len))'"
        ),
        applies=_nltk_method_4,
        example_target=NltkTarget(4),
        example=([["a", "b", "c", "d"]], [[["a", "b", "d", "c"]]]),
        axes=(("smoothing", "nltk-4"),),
    ),
    Divergence(
        id="DIV-NLTK-005",
        peer="nltk",
        version=NLTK_VERSION,
        title="method 4 leaves a zero precision at c = 1, and a zero is left out of the mean",
        explanation=(
            "method4 smooths only when hyp_len > 1 (ln 1 = 0), so with a one-word candidate the "
            "zero precisions stay Fraction(0, d); corpus_bleu then sums w_n log p_n only over "
            "p_n > 0, dropping them: the score is BP·p_1^(1/4). The reference takes the limit "
            "of method 4 as ln T -> 0, a smoothed count of 0, and scores 0 (spec SMOOTH-CC4)."
        ),
        evidence=(
            f"{_NLTK_SOURCE}, SmoothingFunction.method4: 'if p_i.numerator == 0 and hyp_len > 1'; "
            "corpus_bleu: 'for w_i, p_i in zip(weight, p_n) if p_i > 0'"
        ),
        applies=_nltk_method_4_single_word,
        example_target=NltkTarget(4),
        example=([["a"]], [[["a"]]]),
        axes=(("smoothing", "nltk-4"), ("zero_precision", "skip")),
    ),
    Divergence(
        id="DIV-NLTK-006",
        peer="nltk",
        version=NLTK_VERSION,
        title="method 5 averages precisions, and its p_5 is the last segment's",
        explanation=(
            "Chen and Cherry's method 5 averages match counts, m'_n = (m'_{n-1} + m_n + "
            "m_{n+1}) / 3 with m'_0 = m_1 + 1, then divides by l_n (spec SMOOTH-CC5). nltk "
            "applies the recurrence to the precisions themselves (p'_0 = p_1 + 1), at every "
            "order, matched or not, and takes the neighbour of p_4 from modified_precision("
            "references, hypothesis, 5) of the loop variables left by corpus_bleu: the last "
            "segment's. A perfect match then scores above 1 (here 1.0106, against the "
            "reference's 1). Method 7 inherits this."
        ),
        evidence=(
            f"{_NLTK_SOURCE}, SmoothingFunction.method5: 'p_n_plus1 = p_n + "
            "[modified_precision(references, hypothesis, 5)]', 'm[-1] = p_n[0] + 1'"
        ),
        applies=_nltk_method_5,
        example_target=NltkTarget(5),
        example=([["a", "b", "c", "d"]], [[["a", "b", "c", "d"]]]),
        axes=(("smoothing", "nltk-5"),),
    ),
    Divergence(
        id="DIV-NLTK-007",
        peer="nltk",
        version=NLTK_VERSION,
        title="method 6 raises AssertionError without a trigram match",
        explanation=(
            "method6 begins with 'assert p_n[2]', which tests p_3 (its message says bigrams), "
            "so a corpus without a trigram match raises AssertionError (and nothing under "
            "python -O). The reference computes p_3 = α π_0 / (l_3 + α) > 0 (spec SMOOTH-CC6)."
        ),
        evidence=(
            f"{_NLTK_SOURCE}, SmoothingFunction.method6: "
            "'assert p_n[2], \"This smoothing method requires non-zero precision for bigrams.\"'"
        ),
        applies=_nltk_method_6_assert,
        example_target=NltkTarget(6),
        example=([["a", "b", "c", "d"]], [[["a", "b", "d", "c"]]]),
        axes=(("smoothing", "nltk-6"),),
    ),
    Divergence(
        id="DIV-NLTK-008",
        peer="nltk",
        version=NLTK_VERSION,
        title="method 6 takes l_n from the last segment's hypothesis",
        explanation=(
            "method6 interpolates (m_n + α π_0) / (l + α) with m_n the corpus matches but l the "
            "number of n-grams of the hypothesis left by corpus_bleu's loop, the last segment; "
            "the reference uses the corpus l_n (spec SMOOTH-CC6). Precisions above 1 follow "
            "(here p_3 = 10/7)."
        ),
        evidence=(
            f"{_NLTK_SOURCE}, SmoothingFunction.method6: 'l = sum(1 for _ in ngrams(hypothesis, i + 1))'"
        ),
        applies=_nltk_method_6_last_hypothesis,
        example_target=NltkTarget(6),
        example=(
            [["a", "b", "c", "d", "e"], ["a", "b", "c", "d"]],
            [[["a", "b", "c", "d", "e"]], [["a", "b", "c", "d"]]],
        ),
        axes=(("smoothing", "nltk-6"),),
    ),
    Divergence(
        id="DIV-NLTK-009",
        peer="nltk",
        version=NLTK_VERSION,
        title="auto_reweigh uses the corpus length c, not the orders present",
        explanation=(
            "With auto_reweigh, corpus_bleu replaces the uniform weights by c weights of 1/c when "
            "the total hypothesis length c < 4, and leaves them when c >= 4. For one sentence "
            "that is effective order (spec BLEU-EFFECTIVE-ORDER); for a corpus of short segments "
            "it keeps orders that no segment has (with DIV-NLTK-001's denominator) or drops "
            "ones that some segment has. The reference's effective order keeps exactly the "
            "orders with l_n > 0."
        ),
        evidence=(
            f"{_NLTK_SOURCE}, corpus_bleu: 'if hyp_lengths < 4 and weight == (0.25, 0.25, 0.25, 0.25): "
            "weight = (1 / hyp_lengths,) * hyp_lengths'"
        ),
        applies=_nltk_auto_reweigh,
        example_target=NltkTarget(0, auto_reweigh=True),
        example=([["a"], ["b"]], [[["a"]], [["b"]]]),
        axes=(("undefined_precision", "reweigh-by-length"),),
    ),
)

#: Each registered divergence by its ID: what a report's explained_by entry names, and its tool.
BY_ID: dict[str, Divergence] = {d.id: d for d in REGISTRY}

#: The configurations the differential tests drive.
SACREBLEU_CONFIGS: tuple[SacrebleuTarget, ...] = tuple(
    SacrebleuTarget(method, value, eff, level)
    for method, value in (
        ("none", None),
        ("floor", None),
        ("floor", 0.5),
        ("add-k", None),
        ("add-k", 2),
        ("exp", None),
    )
    for eff in (False, True)
    for level in ("corpus", "sentence")
)
NLTK_CONFIGS: tuple[NltkTarget, ...] = tuple(
    NltkTarget(method, reweigh, level)
    for method in range(8)
    for reweigh in (False, True)
    for level in ("corpus", "sentence")
)
PEER_CONFIGS: tuple[PeerTarget, ...] = SACREBLEU_CONFIGS + NLTK_CONFIGS

#: Relative tolerance on scores: see tests/test_differential_statistics.py for the reasoning.
REL_TOLERANCE = 1e-13


def close(a: PeerValue, b: PeerValue) -> bool:
    """Equal within the score tolerance (1e-13 relative, 1e-300 absolute); errors by name."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return math.isclose(a, b, rel_tol=REL_TOLERANCE, abs_tol=1e-300)


@dataclass(frozen=True)
class Verdict:
    """The comparison of one peer configuration on one corpus."""

    agree: bool
    explained_by: tuple[str, ...]
    peer: PeerValue
    reference: float
    model: PeerValue

    @property
    def ok(self) -> bool:
        """Agreement, or a mismatch that applicable entries explain and the model reproduces."""
        return self.agree or (bool(self.explained_by) and close(self.model, self.peer))


def run_peer(target: PeerTarget, corpus: Corpus) -> PeerValue:
    """The peer's score, or the name of the exception it raised (a peer may fail; that is data)."""
    try:
        return target.corpus(*corpus).score
    except Exception as error:  # any failure of a peer is data: recorded and compared
        return type(error).__name__


def compare(target: PeerTarget, corpus: Corpus) -> Verdict:
    """Run the peer and the reference on ``corpus`` and explain any difference."""
    if target.level == "sentence":
        corpus = (corpus[0][:1], corpus[1][:1])
    peer = run_peer(target, corpus)
    ours = corpus_bleu(*corpus, **reference_options(target)).score
    case = Case.of(corpus)
    applicable = tuple(d.id for d in REGISTRY if d.applies(target, case))
    return Verdict(close(peer, ours), applicable, peer, ours, model(target, case))


def convention_text(d: Divergence) -> str:
    """The entry's axis values and the profile they belong to (spec CONV-SPACE)."""
    profile, _extra = profile_of(d.example_target)
    values = ", ".join(f"`{axis}={value}`" for axis, value in d.axes)
    return f"{values} of profile `{profile.name}` ([13](13-conventions.md#conv-space))"


def without_axes(d: Divergence, case: Case) -> PeerValue:
    """The peer's profile on ``case`` with the entry's axes set back to the reference's values.

    When the entry's axes make the difference, this differs from the peer's number.
    """
    profile, extra = profile_of(d.example_target)
    chosen = {**profile.options, **extra}
    mine = make_options(**reference_options(d.example_target))
    for axis, _value in d.axes:
        chosen[axis] = getattr(mine, axis)
    options = make_options(**chosen)
    segments = [s.truncated(options.statistics_orders) for s in case.segments]
    try:
        return score(Point.of(options), segments).score
    except BleuError as error:
        return type(error).__name__


def chapter() -> str:
    """spec/10-divergences.md, generated from the registry and the peers' actual outputs."""
    lines = [
        "# 10 Divergences (generated)",
        "",
        "Generated by `python -m conformance.peers.divergences --write` from",
        "`conformance/peers/divergences.py`; do not edit by hand (the tests fail when this file is",
        "out of date). Each entry: the peer",
        "and version, when it applies, why, the evidence, and a minimal example with the actual",
        "outputs of the peer, of the entry's model of the peer, and of the reference configured",
        "to the peer's conventions. Scores on the [0, 1] scale. The last section,",
        f"[{HAND_WRITTEN[3:]}](#the-conformance-matrix-checked-by-hand), is written by hand.",
        "",
    ]
    for d in REGISTRY:
        verdict = compare(d.example_target, d.example)
        hyps, refs = d.example
        lines += [
            f"## {d.id}",
            "",
            f"**{d.peer} {d.version}: {d.title}.** {d.explanation}",
            "",
            f"- Evidence: {d.evidence}",
            f"- Convention: {convention_text(d)}",
            f"- Configuration: `{d.example_target.name}`; "
            f"reference options `{reference_options(d.example_target)}`",
            f"- Minimal example: hypotheses `{hyps}`, references `{refs}`",
            f"- {d.peer} returns `{verdict.peer!r}`; the model gives `{verdict.model!r}`; "
            f"the reference gives `{verdict.reference!r}`",
            "",
        ]
    lines += profiles_section()
    lines += ["## Tokenization", ""]
    for t in TOKENIZER_REGISTRY:
        text, tokenize, lowercase = t.example
        tokens = compare_tokens(text, tokenize, lowercase)
        lines += [
            f"### {t.id}",
            "",
            f"**{t.peer} {t.version}: {t.title}.** {t.explanation}",
            "",
            f"- Evidence: {t.evidence}",
            f"- Minimal example: `{text!r}` with tokenizer `{tokenize}`, case folding `{lowercase}`",
            f"- {t.peer} gives `{tokens.peer!r}`; the model gives `{tokens.model!r}`; "
            f"the reference gives `{tokens.ours!r}`",
            "",
        ]
    current = CHAPTER.read_text(encoding="utf-8") if CHAPTER.exists() else ""
    start = current.find(HAND_WRITTEN)
    return "\n".join(lines) + ("\n" + current[start:] if start >= 0 else "")


def profiles_section() -> list[str]:
    """The generated section: every profile's departures from the paper, with its evidence and entries."""
    lines = [
        "## Every profile's divergences from the paper",
        "",
        "Generated from the profiles (`reference_bleu/conventions/profiles.py`, spec",
        "[CONV-PROFILES](13-conventions.md#conv-profiles)): for each tool, every axis on which it is",
        "not the paper, the spec entry of that axis, the DIV entries above that the axes make, what",
        "the tool raises where the reference raises a BleuError, and the evidence from its source",
        "and its runs. The reference at the profile gives the tool's number (tests/test_profiles.py).",
        "",
    ]
    for name in PROFILES:
        if name == "paper":
            continue
        profile = resolve(name)
        entries = [
            d.id
            for d in REGISTRY
            if d.peer == profile.tool
            and all(str(profile.options.get(option)) == str(value) for option, value in d.axes)
        ]
        differences = "; ".join(
            f"`{axis}={value}` ({entry})" for axis, value, entry in paper_differences(profile)
        )
        lines += [f"### {profile.name}", "", f"**{profile.tool} {profile.version}.** {profile.summary}.", ""]
        lines.append(f"- Axes: {differences}")
        if entries:
            lines.append(f"- Registered divergences: {', '.join(entries)}")
        if profile.raises:
            raised = ", ".join(f"{spec_id}: `{name}`" for spec_id, name in profile.raises.items())
            lines.append(f"- Raises where the reference raises a BleuError: {raised}")
        lines += [f"- Evidence: {e}" for e in profile.evidence]
        lines.append("")
    return lines


def main(argv: list[str]) -> int:
    """``--write`` regenerates the chapter; ``--check`` exits 1 when it is out of date."""
    text = chapter()
    if "--write" in argv:
        CHAPTER.write_text(text, encoding="utf-8")
        return 0
    current = CHAPTER.read_text(encoding="utf-8") if CHAPTER.exists() else ""
    if current != text:
        print(
            f"{CHAPTER} is out of date: run python -m conformance.peers.divergences --write", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
