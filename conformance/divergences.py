"""The divergence registry: every known way a peer's score differs from the reference (spec 10).

An entry names the peer and version, says when it applies (a predicate on the peer's
configuration and the exact statistics), and cites the evidence. A peer's *model* computes
the peer's value from the exact statistics, in the peer's own float arithmetic, so every
entry is tested: the model must reproduce the peer's output, and differ from the reference.
A mismatch no entry explains fails the differential tests; an entry whose example no
longer reproduces fails them too. ``python -m conformance.divergences --write`` regenerates
``spec/10-divergences.md`` from the registry and the peers' actual outputs; the tests fail
when that chapter is out of date.

This first part covers sacrebleu (whose statistics equal the reference's exactly); nltk's
entries are to come (see spec/07-history.md).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.targets import SacrebleuTarget
from reference_bleu import Statistics, corpus_bleu

SACREBLEU_VERSION = "2.6.0"
CHAPTER = Path(__file__).resolve().parent.parent / "spec" / "10-divergences.md"

Corpus = tuple[list[list[str]], list[list[list[str]]]]


def reference_options(target: SacrebleuTarget) -> dict[str, Any]:
    """The reference configured to sacrebleu's conventions (closest, ties to the shorter, uniform)."""
    options: dict[str, Any] = {
        "max_order": target.max_ngram_order,
        "smoothing": target.smooth_method,
        "effective_order": target.effective_order,
    }
    if target.smooth_value is not None:
        options["smoothing_value"] = str(target.smooth_value)
    return options


def reference_score(target: SacrebleuTarget, corpus: Corpus) -> tuple[float, Statistics]:
    """The reference's score and exact statistics under ``target``'s conventions."""
    result = corpus_bleu(*corpus, **reference_options(target))
    return result.score, result.statistics


def sacrebleu_model(target: SacrebleuTarget, stats: Statistics) -> float:
    """sacrebleu's ``BLEU.compute_bleu`` (2.6.0) from the exact statistics, in binary64, on [0, 1]."""
    correct, total = list(stats.matches), list(stats.totals)
    sys_len, ref_len = stats.hyp_len, int(stats.ref_len)
    smooth_value = (
        target.smooth_value
        if target.smooth_value is not None
        else {"floor": 0.1, "add-k": 1}.get(target.smooth_method, 0)
    )
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    if not any(correct):
        return 0.0
    order = target.max_ngram_order
    precisions = [0.0] * order
    smooth_mteval, eff_order = 1.0, order
    for n in range(1, order + 1):
        c, t = float(correct[n - 1]), float(total[n - 1])
        if target.smooth_method == "add-k" and n > 1:
            c, t = c + smooth_value, t + smooth_value
        if t == 0:
            break
        if target.effective_order:
            eff_order = n
        if c == 0:
            if target.smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * t)
            elif target.smooth_method == "floor":
                precisions[n - 1] = 100.0 * smooth_value / t
        else:
            precisions[n - 1] = 100.0 * c / t
    logs = [math.log(p) if p > 0 else -9999999999.0 for p in precisions[:eff_order]]
    return bp * math.exp(sum(logs) / eff_order) / 100


@dataclass(frozen=True)
class Divergence:
    """One registered difference between a peer and the reference."""

    id: str
    peer: str
    version: str
    title: str
    explanation: str
    evidence: str
    applies: Callable[[SacrebleuTarget, Statistics], bool]
    example_target: SacrebleuTarget
    example: Corpus


def _no_match_smoothed(target: SacrebleuTarget, stats: Statistics) -> bool:
    return target.smooth_method != "none" and not any(stats.matches)


def _add_k_absent_order(target: SacrebleuTarget, stats: Statistics) -> bool:
    return (
        target.smooth_method == "add-k"
        and any(stats.matches)
        and any(t == 0 for t in stats.totals[1 : target.max_ngram_order])
    )


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
        applies=_no_match_smoothed,
        example_target=SacrebleuTarget("floor"),
        example=([["a", "b", "c", "d"]], [[["e", "f", "g", "h"]]]),
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
        applies=_add_k_absent_order,
        example_target=SacrebleuTarget("add-k", effective_order=True),
        example=([["a", "b"]], [[["a", "c"]]]),
    ),
)

#: The sacrebleu configurations the differential tests drive.
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

#: Relative tolerance on scores: see tests/test_differential_statistics.py for the reasoning.
REL_TOLERANCE = 1e-13


def close(a: float, b: float) -> bool:
    """Equal within the score tolerance (1e-13 relative, 1e-300 absolute for zeros)."""
    return math.isclose(a, b, rel_tol=REL_TOLERANCE, abs_tol=1e-300)


@dataclass(frozen=True)
class Verdict:
    """The comparison of one peer configuration on one corpus."""

    agree: bool
    explained_by: tuple[str, ...]
    peer: float
    reference: float
    model: float

    @property
    def ok(self) -> bool:
        """Agreement, or a mismatch that applicable entries explain and the model reproduces."""
        return self.agree or (bool(self.explained_by) and close(self.model, self.peer))


def compare(target: SacrebleuTarget, corpus: Corpus) -> Verdict:
    """Run the peer and the reference on ``corpus`` and explain any difference."""
    if target.level == "sentence":
        corpus = (corpus[0][:1], corpus[1][:1])
    peer = target.corpus(*corpus).score
    ours, stats = reference_score(target, corpus)
    model = sacrebleu_model(target, stats)
    applicable = tuple(d.id for d in REGISTRY if d.applies(target, stats))
    return Verdict(close(peer, ours), applicable, peer, ours, model)


def chapter() -> str:
    """spec/10-divergences.md, generated from the registry and the peers' actual outputs."""
    lines = [
        "# 10 Divergences (generated)",
        "",
        "Generated by `python -m conformance.divergences --write` from `conformance/divergences.py`;",
        "do not edit by hand (the tests fail when this file is out of date). Each entry: the peer",
        "and version, when it applies, why, the evidence, and a minimal example with the actual",
        "outputs of the peer, of the entry's model of the peer, and of the reference configured",
        "to the peer's conventions. Scores on the [0, 1] scale.",
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
            f"- Configuration: `{d.example_target.name}`; "
            f"reference options `{reference_options(d.example_target)}`",
            f"- Minimal example: hypotheses `{hyps}`, references `{refs}`",
            f"- {d.peer} returns `{verdict.peer!r}`; the model gives `{verdict.model!r}`; "
            f"the reference gives `{verdict.reference!r}`",
            "",
        ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """``--write`` regenerates the chapter; ``--check`` exits 1 when it is out of date."""
    text = chapter()
    if "--write" in argv:
        CHAPTER.write_text(text, encoding="utf-8")
        return 0
    current = CHAPTER.read_text(encoding="utf-8") if CHAPTER.exists() else ""
    if current != text:
        print(f"{CHAPTER} is out of date: run python -m conformance.divergences --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
