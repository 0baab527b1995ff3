"""Whether a point accounts for a check that did not pass (spec CONF-VERDICT).

The fingerprint and the checks judge the target under the conventions found one point at a time;
the verdict places it in the whole space. A check that did not pass is accounted for by the placed
point when the point's conventions give the same: the reference there breaks the same invariant on
the same example and the target gives the point's answers on every question it asks, or gives the
same number (and, for a target that sends them, the same statistics) on the check's counterexample.
Every comparison is made at the resolution of the target's answers (CONF-PROTOCOL).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.peers.targets import Outcome, ReferenceTarget
from conformance.runner.expectation import Candidate
from conformance.runner.fingerprint.base import SKIPPED, Answer, Corpus, Reply, Text, seen
from conformance.runner.judge.base import Check
from conformance.runner.placement import matches
from conformance.suite.invariants import BY_ID, InvariantViolationError, same_statistics, statistics_of
from conformance.suite.loader import load_vectors
from conformance.suite.resolution import Resolution
from reference_bleu.errors import BleuError, BleuInputError


def is_corpus(value: Any) -> bool:
    """Whether a counterexample is a corpus: (hypotheses, references), one reference list per hypothesis."""
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and isinstance(value[0], list)
        and isinstance(value[1], list)
        and len(value[0]) == len(value[1])
    )


#: Kinds of fault a point can account for: an error it raises too (EC-003's "error"), a score
#: above 1 it gives too (SMOOTH-CC5, SMOOTH-CC7). A crash, a hang, NaN or a mutation never.
ACCOUNTABLE_FAULTS = frozenset({"error", "out-of-range"})


#: What the verdict names when the statistics a target sends on the battery are those of no point
#: that predicts its scores (spec CONF-VERDICT).
STATISTICS_UNACCOUNTED = "statistics: no point that predicts the scores gives the statistics sent"


AskReply = Callable[[str, Corpus], Reply]


def point_reply(options: Mapping[str, Any], level: str, corpus: Corpus) -> Reply:
    """The reference's whole answer at a point: its outcome, or "error" where it refuses the input."""
    reference = ReferenceTarget(dict(options))
    try:
        if level == "sentence":
            return reference.sentence(corpus[0][0], corpus[1][0])
        return reference.corpus(*corpus)
    except BleuError:
        return "error"


def same_reply(reply: Reply, point: Reply, tolerance: float, resolution: Resolution) -> bool:
    """A target's answer is the point's: the same error, or the same score (``matches``) and, when
    it sends statistics, the point's statistics exactly (spec CONF-VERDICT). Skipped: no evidence."""
    if reply == SKIPPED:
        return True
    prediction = point.score if isinstance(point, Outcome) else point
    if isinstance(reply, str):
        return matches(reply, prediction, tolerance, resolution)
    if not matches(reply.score, prediction, tolerance, resolution):
        return False
    if not reply.has_statistics:
        return True
    if not isinstance(point, Outcome) or point.matches is None:
        return False
    return same_statistics(statistics_of(reply, len(point.matches)), statistics_of(point))


def accounted(
    check: Check,
    candidate: Candidate,
    ask_target: Callable[[Corpus], Answer],
    tolerance: float,
    resolution: Resolution,
    *,
    fault_inputs: Mapping[str, Any] | None = None,
    text: Text = None,
    ask_reply: AskReply | None = None,
) -> bool:
    """Whether the point ``candidate`` accounts for a check that did not pass.

    ``fault_inputs`` are the first inputs of each kind of fault (the client's ``first_input``),
    the evidence for a ROB-* row whose own counterexample is another check's example; ``text``
    a text target's conventions, under which each input is asked and predicted; ``ask_reply``
    the target's whole answer (statistics included): a check that compared statistics, and an
    invariant, are accounted for only by a point whose statistics and scores the target gives.
    Answers are compared at their ``resolution``.
    """
    if check.status in ("pass", "n/a") or check.family == "fingerprint":
        return True  # a fingerprint row's diagnostics are in the battery, which the point predicts
    limit = max(candidate.tolerance, tolerance)
    if check.family == "invariant":
        return _breaks_too(check, candidate, ask_reply, limit, resolution=resolution, text=text)
    question = check.evidence
    if question is not None:  # an open row (CONF-OPEN): its question as asked, the answer it got
        if question.context is not None or question.lines or not isinstance(check.target_value, float | str):
            return False
        return matches(check.target_value, candidate.predict(seen(question.corpus, text)), limit, resolution)
    corpora: list[Corpus] = []
    if check.family == "vectors":  # a sentence-only target skips those of several segments
        corpora = [(v.data["hypotheses"], v.data["references"]) for v in load_vectors() if v.scored]
    elif check.fault in ACCOUNTABLE_FAULTS:
        first: Any = (fault_inputs or {}).get(check.fault)
        corpora = [(list(first[0]), list(first[1]))] if is_corpus(first) else []
    elif is_corpus(check.counterexample) and not check.fault:
        corpora = [(list(check.counterexample[0]), list(check.counterexample[1]))]
    corpora = [seen(c, text) for c in corpora]  # as a text target sees them
    if check.compared == "statistics":  # the statistics too, exactly: a score alone says nothing of r
        return (
            bool(corpora)
            and ask_reply is not None
            and all(
                same_reply(
                    ask_reply("corpus", c), point_reply(candidate.options, "corpus", c), limit, resolution
                )
                for c in corpora
            )
        )
    return bool(corpora) and all(
        matches(ask_target(c), candidate.predict(c), limit, resolution) for c in corpora
    )


@dataclass
class _Recorder:
    """The reference at a point as a target of the invariants, recording each question it is asked
    (on the tokens a text target sees) with its answer. Its scores are compared at the resolution
    of the target's answers, as the target's are (the invariants read ``resolution``)."""

    options: Mapping[str, Any]
    resolution: Resolution
    text: Text = None
    asked: list[tuple[str, Corpus, Reply]] = field(default_factory=list)

    @property
    def max_order(self) -> int:
        """N at the point (INV-IDENTITY reads it)."""
        return ReferenceTarget(dict(self.options)).max_order

    def _ask(
        self, level: str, hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]]
    ) -> Outcome:
        copied: Corpus = ([list(h) for h in hypotheses], [[list(r) for r in rs] for rs in references])
        reply = point_reply(self.options, level, seen(copied, self.text))
        self.asked.append((level, copied, reply))
        if not isinstance(reply, Outcome):
            raise BleuInputError("CONF-VERDICT", "the point refuses this input")
        return reply

    def corpus(
        self, hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]]
    ) -> Outcome:
        """Corpus BLEU at the point."""
        return self._ask("corpus", hypotheses, references)

    def sentence(self, hypothesis: Sequence[str], references: Sequence[Sequence[str]]) -> Outcome:
        """Sentence BLEU at the point."""
        return self._ask("sentence", [hypothesis], [references])


def _breaks_too(
    check: Check,
    candidate: Candidate,
    ask_reply: AskReply | None,
    tolerance: float,
    *,
    resolution: Resolution,
    text: Text,
) -> bool:
    """An invariant the target broke is accounted for when the reference at the point breaks it too
    on the same example, and the target gives the point's answers (scores, and statistics when it
    sends them) on every question the invariant asks there: it breaks the invariant because it is
    that point, not for a cause of its own (spec CONF-VERDICT)."""
    if check.counterexample is None:
        return False
    recorder = _Recorder(candidate.options, resolution, text)
    try:
        BY_ID[check.id].check(recorder, check.counterexample)  # type: ignore[arg-type]
    except InvariantViolationError:
        return ask_reply is not None and all(
            same_reply(ask_reply(level, seen(corpus, text)), reply, tolerance, resolution)
            for level, corpus, reply in recorder.asked
        )
    except BleuError:
        return True  # the point refuses this example (EC-003's "error"): so may the target
    except (TypeError, ValueError, KeyError, IndexError):
        return False
    return False
