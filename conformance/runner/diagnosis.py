"""Which bug a target has (spec CONF-DIAGNOSIS): after a not-conformant verdict, the fault catalogue
(:mod:`conformance.faults`) searched for the faults that predict every answer the target gave.

Each fault of the catalogue is tried alone (at the expected point) and combined with the conventions
the fingerprint found (at its point): a fault point predicts an answer by running the fault's
mutation of the reference there (:mod:`conformance.faults.mutations`). The evidence is every answer
the verdict rests on: the battery's, and those of each check the verdict could not account for
(their counterexamples, asked again as the target sees them; an invariant the fault must break on
the same example). A fault point explains the target when it predicts every one of them; where
several faults do and differ somewhere, questions that tell them apart are asked (the catalogue's
examples, generated corpora); a fault is named only when it explains every answer and no other
fault explaining them as well is left. Otherwise the diagnosis says so: "no known fault", with the
nearest fault and how many answers it leaves over, never a name.

The search runs only after a not-conformant verdict, so that a correct or variant target is never
diagnosed; its cost is bounded by stopping at a fault's first missed answer and asking the largest
questions (those of real size) only of the faults still standing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from conformance.faults.catalogue import Fault, by_id, catalogue
from conformance.faults.mutations import ERROR
from conformance.peers.targets import Outcome
from conformance.runner.accounting import is_corpus
from conformance.runner.expectation import Candidate
from conformance.runner.fingerprint.base import SKIPPED, Answer, Corpus, Text, seen
from conformance.runner.judge.base import Check
from conformance.runner.placement import generated_corpora, matches
from conformance.runner.references import expressible
from conformance.suite.invariants import BY_ID as INVARIANTS
from conformance.suite.invariants import InvariantViolationError
from conformance.suite.loader import load_vectors
from conformance.suite.resolution import Resolution
from reference_bleu.conventions.options import make_options
from reference_bleu.errors import BleuError

#: Questions larger than this many tokens are asked of the faults still standing only.
LARGE = 20_000
#: At most this many questions are asked to tell apart faults that explain every answer.
MAX_SEPARATING = 6
#: Generated corpora (beside the catalogue's examples) tried as separating questions.
SEPARATING_POOL = 48


def _tokens(corpus: Corpus) -> int:
    hyps, refs = corpus
    return sum(len(h) for h in hyps) + sum(len(r) for rs in refs for r in rs)


@dataclass(frozen=True)
class FaultPoint:
    """A fault of the catalogue at a point of the convention space: its predictions."""

    fault: Fault
    base: Candidate

    @property
    def name(self) -> str:
        """``FAULT-ID`` alone, or with the point's name when it is combined with found conventions."""
        return self.fault.id if self.alone else f"{self.fault.id} at {self.base.name}"

    @property
    def alone(self) -> bool:
        """Whether the point is the expected one (the fault alone)."""
        return bool(self.base.name) and not self.base.name.startswith("the fingerprint")

    def predict(self, corpus: Corpus) -> Answer | None:
        """The fault's answer at the point: a score, "error", or None where it predicts nothing."""
        try:  # a point the fault cannot be computed at (its options invalid there) predicts nothing
            options = make_options(**self.base.options)
            prediction = self.fault.compute(options, *corpus)
        except BleuError:
            return None
        if prediction is None:
            return None
        return "error" if prediction == ERROR else prediction


@dataclass(frozen=True)
class Evidence:
    """One answer the diagnosis rests on: the question (as the target sees it), the answer, its source."""

    corpus: Corpus
    answer: Answer
    source: str


@dataclass(frozen=True)
class Shown:
    """The smallest question on which the fault's answer is the target's and the expected point's is
    not: the question, the target's answer, the fault's, the expected point's."""

    corpus: Corpus
    answer: Answer
    fault: Answer
    expected: Answer

    def as_json(self) -> dict[str, Any]:
        """The example in the JSON report."""
        return {
            "hypotheses": self.corpus[0],
            "references": self.corpus[1],
            "answer": self.answer,
            "fault": self.fault,
            "expected": self.expected,
        }


@dataclass(frozen=True)
class Diagnosis:
    """CONF-DIAGNOSIS. The faults that explain every answer (one: the diagnosis; several: faults no
    question told apart), the point they were found at, what the finding rests on, and the smallest
    question that shows it; or none, with the nearest fault and what it leaves over."""

    found: tuple[str, ...]
    #: The point the faults were found at: the expected one (alone) or the fingerprint's.
    at: str = ""
    alone: bool = True
    #: Answers each found fault predicts and matches, and how many of them the expected point misses.
    explained: int = 0
    separating: int = 0
    example: Shown | None = None
    #: The questions asked to tell faults apart, each as (corpus, answer, {fault: prediction}).
    questions: tuple[tuple[Corpus, Answer, tuple[tuple[str, Answer], ...]], ...] = ()
    #: When no fault explains every answer: the one that explains the most, and its count of the answers.
    nearest: str = ""
    nearest_explained: int = 0
    nearest_of: int = 0
    #: What the finding could not use (checks whose questions a fault cannot be asked: text lines).
    unexplainable: tuple[str, ...] = field(default=())

    @property
    def level(self) -> str:
        """``found`` (one fault), ``ambiguous`` (faults no question told apart) or ``none``."""
        return "found" if len(self.found) == 1 else "ambiguous" if self.found else "none"

    def headline(self) -> str:
        """The diagnosis in words, for the verdict's line."""
        faults = by_id()
        if self.level == "none":
            return "no known fault explains every answer"
        where = "" if self.alone else f", with the conventions found ({self.at})"
        rests = (
            f"answers fit it on all {self.explained} questions, {self.separating} of which the "
            "expected BLEU answers otherwise"
        )
        example = f"; e.g. {_shown(self.example)}" if self.example else ""
        if self.level == "found":
            (fault,) = self.found
            return f"{faults[fault].meaning} ({fault}{where}; {rests}{example})"
        named = " or ".join(f"{faults[f].meaning} ({f})" for f in self.found)
        return f"one of: {named} (no question told them apart{where}; {rests})"

    def lines(self) -> list[str]:
        """The report's diagnosis section."""
        faults = by_id()
        if self.level == "none":
            out = ["diagnosis: no known fault explains every answer"]
            if self.nearest:
                out.append(
                    f"    the nearest, {self.nearest} ({faults[self.nearest].meaning}), explains "
                    f"{self.nearest_explained} of {self.nearest_of} answers: not a diagnosis"
                )
        else:
            out = [f"diagnosis: {self.headline()}"]
            for fault in self.found:
                entry = faults[fault]
                out.append(f"    {fault}: {entry.mutation}")
                if entry.reports:
                    out.append(f"    seen in: {'; '.join(entry.reports[:4])}")
        out += [f"    unusable for it: {', '.join(self.unexplainable)}"] if self.unexplainable else []
        for corpus, answer, predictions in self.questions:
            shown = ", ".join(f"{name} {_value(p)}" for name, p in predictions)
            out.append(f"    asked {_corpus(corpus)}: target {_value(answer)}; {shown}")
        return out

    def as_json(self) -> dict[str, Any]:
        """The diagnosis in the JSON report."""
        return {
            "level": self.level,
            "found": list(self.found),
            "meaning": [by_id()[f].meaning for f in self.found],
            "at": self.at,
            "alone": self.alone,
            "explained": self.explained,
            "separating": self.separating,
            "example": None if self.example is None else self.example.as_json(),
            "questions": [
                {"hypotheses": c[0], "references": c[1], "answer": a, "predictions": dict(p)}
                for c, a, p in self.questions
            ],
            "nearest": self.nearest,
            "nearest_explained": self.nearest_explained,
            "nearest_of": self.nearest_of,
            "unexplainable": list(self.unexplainable),
        }


def _value(answer: Answer | None) -> str:
    return f"{answer:.6g}" if isinstance(answer, float) else str(answer)


def _corpus(corpus: Corpus) -> str:
    text = json.dumps([[" ".join(h) for h in corpus[0]], [[" ".join(r) for r in rs] for rs in corpus[1]]])
    return text if len(text) <= 160 else text[:157] + "..."


def _shown(shown: Shown | None) -> str:
    if shown is None:
        return ""
    return (
        f"{_corpus(shown.corpus)}: target {_value(shown.answer)}, the fault {_value(shown.fault)}, "
        f"expected {_value(shown.expected)}"
    )


AskTarget = Callable[[Corpus], Answer]


@dataclass
class _Search:
    """One diagnosis: the target's answers and how to ask it more."""

    evidence: list[Evidence]
    ask_target: AskTarget
    tolerance: float
    resolution: Resolution
    text: Text
    references: str
    invariants: list[Check]
    predictions: dict[tuple[str, str, str], Answer | None] = field(default_factory=dict)
    base_answers: dict[tuple[str, str], Answer] = field(default_factory=dict)

    def predict(self, point: FaultPoint, corpus: Corpus) -> Answer | None:
        key = (point.fault.id, point.base.name, json.dumps(corpus))
        if key not in self.predictions:
            self.predictions[key] = point.predict(corpus)
        return self.predictions[key]

    def agrees(self, answer: Answer, prediction: Answer | None, point: FaultPoint) -> bool | None:
        """Whether the answer is the fault's; None when it is no evidence (skipped, not predicted)."""
        if answer == SKIPPED or prediction is None:
            return None
        return matches(answer, prediction, max(self.tolerance, point.base.tolerance), self.resolution)

    def base_agrees(self, base: Candidate, item: Evidence) -> bool:
        """Whether the point without the fault gives the answer (skipped: no evidence, so yes)."""
        key = (base.name, json.dumps(item.corpus))
        if key not in self.base_answers:
            self.base_answers[key] = base.predict(item.corpus)
        return item.answer == SKIPPED or matches(
            item.answer, self.base_answers[key], max(self.tolerance, base.tolerance), self.resolution
        )

    def explains(self, point: FaultPoint, large: bool) -> tuple[int, int, bool]:
        """(answers matched, answers it predicts, every one matched), stopping at the first miss; the
        questions above LARGE tokens only when ``large``. An answer the point without the fault does
        not give is explained only by a prediction: a fault that says nothing there (None) misses it,
        so that a fault never stands for predicting nothing where the target is wrong, unless the
        answer is an error (where a fault says nothing, as at c = 0 or r = 0 under a BP fault, faulty
        code fails its own way)."""
        matched = predicted = 0
        for item in self.evidence:
            if (_tokens(item.corpus) > LARGE) != large:
                continue
            prediction = self.predict(point, item.corpus)
            agreed = self.agrees(item.answer, prediction, point)
            if agreed is None:
                if prediction is None and item.answer != "error" and not self.base_agrees(point.base, item):
                    return matched, predicted, False
                continue
            predicted += 1
            if not agreed:
                return matched, predicted, False
            matched += 1
        return matched, predicted, True

    def shows(self, point: FaultPoint) -> bool:
        """Whether the fault predicts one answer at least that the point without it misses: a fault
        that only says nothing (or accepts an error) where the target is wrong explains nothing."""
        return any(
            self.agrees(item.answer, self.predict(point, item.corpus), point)
            and not self.base_agrees(point.base, item)
            for item in self.evidence
        )

    def counted(self, point: FaultPoint) -> tuple[int, int]:
        """How many of the (small) answers the point predicts and matches, of those it predicts."""
        matched = predicted = 0
        for item in self.evidence:
            if _tokens(item.corpus) > LARGE:
                continue
            agreed = self.agrees(item.answer, self.predict(point, item.corpus), point)
            if agreed is not None:
                predicted += 1
                matched += agreed
        return matched, predicted

    def breaks_invariants(self, point: FaultPoint) -> bool:
        """Whether the fault breaks every invariant the target broke, on the same example, with the
        target's answers on the questions the invariant asks."""
        return all(_breaks(check, point, self) for check in self.invariants)


class _FaultRecorder:
    """The fault at its point as a target of the invariants (scores only; where the fault says nothing,
    the point's own score, as ``reference[fault=...]`` answers), recording each question."""

    def __init__(self, point: FaultPoint, search: _Search) -> None:
        self.point, self.search = point, search
        self.asked: list[tuple[Corpus, Answer]] = []
        self.max_order = make_options(**point.base.options).max_order

    def corpus(self, hypotheses: Any, references: Any) -> Any:
        corpus: Corpus = ([list(h) for h in hypotheses], [[list(r) for r in rs] for rs in references])
        corpus = seen(corpus, self.search.text)
        prediction = self.search.predict(self.point, corpus)
        if prediction is None:  # the fault says nothing here: the point without it answers
            prediction = self.point.base.predict(corpus)
        if not isinstance(prediction, float):
            raise BleuError("CONF-DIAGNOSIS", "the fault predicts no score here")
        self.asked.append((corpus, prediction))
        return Outcome(prediction)

    def sentence(self, hypothesis: Any, references: Any) -> Any:
        return self.corpus([hypothesis], [references])


def _breaks(check: Check, point: FaultPoint, search: _Search) -> bool:
    recorder = _FaultRecorder(point, search)
    try:
        INVARIANTS[check.id].check(recorder, check.counterexample)  # type: ignore[arg-type]
    except InvariantViolationError:
        return all(
            search.agrees(search.ask_target(corpus), prediction, point) is not False
            for corpus, prediction in recorder.asked
        )
    except (BleuError, TypeError, ValueError, KeyError, IndexError, AttributeError):
        return False
    return False


def evidence_of(
    battery: Sequence[tuple[Corpus, Answer]],
    checks: Sequence[Check],
    ask_target: AskTarget,
    text: Text,
) -> tuple[list[Evidence], list[Check], tuple[str, ...]]:
    """The answers a diagnosis rests on: the battery's, and each failed check's counterexample asked
    again as the target sees it (an open row's question as it was asked, its answer in a thread or a
    forked child included); the failed invariants (checked by breaking them); the failed checks no
    fault can be asked (lines of text)."""
    found = [Evidence(c, a, "battery") for c, a in battery]
    invariants: list[Check] = []
    unusable: list[str] = []
    for check in checks:
        if check.status != "fail" or check.family == "fingerprint":
            continue
        if check.family == "invariant":
            _sort_invariant(check, invariants, unusable)
            continue
        if check.family == "vectors":  # every scored vector, as accounting asks them (CONF-VERDICT)
            for vector in load_vectors():
                if vector.scored:
                    corpus = seen((vector.data["hypotheses"], vector.data["references"]), text)
                    found.append(Evidence(corpus, ask_target(corpus), check.id))
            continue
        question = check.evidence
        if question is not None:  # an open row (CONF-OPEN): its question, as asked
            # asked from a thread or a forked child, its answer is still the fault's to predict (a
            # fault explains it only if the call's context changed nothing); lines of text are not
            # a corpus a fault can be asked
            if question.lines or not isinstance(check.target_value, float | str):
                unusable.append(check.id)
            else:
                found.append(Evidence(question.corpus, check.target_value, check.id))
            continue
        if is_corpus(check.counterexample) and not check.fault:
            corpus = seen((list(check.counterexample[0]), list(check.counterexample[1])), text)
            found.append(Evidence(corpus, ask_target(corpus), check.id))
        elif check.fault not in ("error", "out-of-range"):
            unusable.append(check.id)
    return found, invariants, tuple(unusable)


#: How a judge row reads when the target failed on its example instead of breaking the property
#: (conformance.runner.judge.base: a CheckFailureError's message).
_TARGET_FAILED = "the target failed ("


def _target_fault(check: Check) -> str | None:
    """The kind of fault (``error``, ``out-of-range``...) the target answered an invariant's example
    with, or None where it broke the invariant itself."""
    if check.fault:
        return check.fault
    if check.detail.startswith(_TARGET_FAILED):
        return check.detail[len(_TARGET_FAILED) :].split(":", 1)[0].split(")", 1)[0]
    return None


def _sort_invariant(check: Check, invariants: list[Check], unusable: list[str]) -> None:
    """A failed invariant the target broke: one the fault must break too. One failed by the target's
    error or out-of-range answer: no invariant evidence (those answers are the fault's to predict
    where they show); by another fault of the target (a hang, a NaN): unusable."""
    kind = _target_fault(check)
    if kind is None:
        invariants.append(check)
    elif kind not in ("error", "out-of-range"):
        unusable.append(check.id)


def _pool(references: str, text: Text, seed: int) -> list[Corpus]:
    """Questions that may tell faults apart: every catalogue example, then generated corpora."""
    examples = [(f.example["hyps"], f.example["refs"]) for f in catalogue()]
    corpora = [*examples, *generated_corpora(seed, SEPARATING_POOL)]
    return [seen(expressible(references, c), text) for c in corpora]


def diagnose(
    bases: Sequence[Candidate],
    evidence: tuple[list[Evidence], list[Check], tuple[str, ...]],
    ask_target: AskTarget,
    *,
    tolerance: float,
    resolution: Resolution,
    text: Text,
    references: str,
    seed: int,
) -> Diagnosis:
    """CONF-DIAGNOSIS. The faults that explain every answer at ``bases`` (the expected point first,
    then the fingerprint's), told apart by questions where several do; or none, with the nearest."""
    items, invariants, unusable = evidence
    search = _Search(items, ask_target, tolerance, resolution, text, references, invariants)
    expected = bases[0]
    standing: list[FaultPoint] = []
    for base in bases:
        for fault in catalogue():
            point = FaultPoint(fault, base)
            if search.explains(point, large=False)[2] and search.explains(point, large=True)[2]:
                standing.append(point)
        if standing:  # a fault alone before a fault with other conventions
            break
    standing = [p for p in standing if search.shows(p) and search.breaks_invariants(p)]
    if unusable:
        standing = []  # a failed check no fault can be asked: nothing explains every answer
    if not standing:
        return _none(search, bases, unusable)
    standing, questions = _separated(standing, search, _pool(references, text, seed + 3))
    if not standing:  # the separating answers matched none of them
        return replace(_none(search, bases, unusable), questions=questions)
    ids = tuple(dict.fromkeys(p.fault.id for p in standing))
    point = standing[0]
    explained, _, _ = search.explains(point, large=False)
    explained += search.explains(point, large=True)[0]
    against = [
        item
        for item in search.evidence
        if search.agrees(item.answer, search.predict(point, item.corpus), point)
        and not matches(item.answer, _expected(expected, item.corpus), tolerance, resolution)
    ]
    example = min(against, key=lambda item: _tokens(item.corpus), default=None)
    return Diagnosis(
        found=ids,
        at=point.base.name,
        alone=point.alone,
        explained=explained,
        separating=len(against),
        example=None
        if example is None
        else Shown(
            example.corpus,
            example.answer,
            search.predict(point, example.corpus) or "",
            _expected(expected, example.corpus),
        ),
        questions=questions,
        unexplainable=unusable,
    )


def _expected(point: Candidate, corpus: Corpus) -> Answer:
    return point.predict(corpus)


def _none(search: _Search, bases: Sequence[Candidate], unusable: tuple[str, ...]) -> Diagnosis:
    """No fault explains every answer: the nearest (the most answers matched, more than any base
    alone), named as such."""
    best, best_counts = "", (0, 0)
    base_matched = max(_base_matched(search, base) for base in bases)
    for base in bases:
        for fault in catalogue():
            matched, predicted = search.counted(FaultPoint(fault, base))
            if matched > best_counts[0] and matched > base_matched:
                best, best_counts = fault.id, (matched, predicted)
    return Diagnosis(
        found=(),
        nearest=best,
        nearest_explained=best_counts[0],
        nearest_of=best_counts[1],
        unexplainable=unusable,
    )


def _base_matched(search: _Search, base: Candidate) -> int:
    return sum(
        matches(
            item.answer, base.predict(item.corpus), max(search.tolerance, base.tolerance), search.resolution
        )
        for item in search.evidence
        if _tokens(item.corpus) <= LARGE and item.answer != SKIPPED
    )


def _separated(
    standing: list[FaultPoint], search: _Search, pool: Sequence[Corpus]
) -> tuple[list[FaultPoint], tuple[tuple[Corpus, Answer, tuple[tuple[str, Answer], ...]], ...]]:
    """Questions asked while faults that differ somewhere are left: the first pool corpus on which two
    of them predict apart; the faults the answer does not match dropped."""
    asked: list[tuple[Corpus, Answer, tuple[tuple[str, Answer], ...]]] = []
    unused = list(pool)
    while len({p.fault.id for p in standing}) > 1 and len(asked) < MAX_SEPARATING:
        found = None
        for corpus in unused:
            predicted = [(p, search.predict(p, corpus)) for p in standing]
            values = [v for _, v in predicted if v is not None]
            if len(values) == len(predicted) and any(
                not matches(values[0], v, 10 * search.tolerance, search.resolution)
                if isinstance(v, float)
                else v != values[0]
                for v in values[1:]
            ):
                found = corpus, predicted
                break
        if found is None:
            break
        corpus, predicted = found
        unused.remove(corpus)
        answer = search.ask_target(corpus)
        asked.append((corpus, answer, tuple((p.name, v) for p, v in predicted if v is not None)))
        search.evidence.append(Evidence(corpus, answer, "separating"))
        standing = [p for p, v in predicted if search.agrees(answer, v, p) is not False]
    return standing, tuple(asked)
