"""The judge's common ground (spec CONF-JUDGE): a check and its coverage, and running one property as a
check against a fingerprinted target (hypothesis, shrinking once per fault, stopping on skips)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import HealthCheck, Phase, assume, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import Flaky, Unsatisfiable

from conformance.runner.client import ProtocolTarget, TargetFaultError, TargetSkippedError
from conformance.runner.fingerprint import Fingerprint
from conformance.runner.fingerprint.base import Config, Corpus, agrees, reference_prediction, seen
from conformance.runner.references import expressible_example
from conformance.suite.resolution import Resolution


@dataclass(frozen=True)
class Check:
    """The outcome of one check."""

    id: str
    title: str
    status: str  # pass, fail, explained, n/a, insufficient
    detail: str = ""
    spec_ids: tuple[str, ...] = ()
    counterexample: Any = None
    explained_by: tuple[str, ...] = ()
    #: Coverage of a check on generated inputs: the target's answers (ok or error) and all its
    #: answers including ``skipped`` (questions the target declared it cannot take are not asked).
    answered: int | None = None
    asked: int | None = None
    #: On the counterexample: the target's answer, what the expectation gives, and the convention
    #: that expected value was computed under (spec CONF-REPORT).
    target_value: Any = None
    expected_value: Any = None
    expected_by: str = ""
    #: What the check compared on its counterexample: the ``score``, or the ``statistics`` (matches,
    #: totals, c, r) too; a point accounts for a failure only by predicting what was compared
    #: (spec CONF-VERDICT).
    compared: str = "score"
    #: The family of checks the row belongs to (spec CONF-JUDGE), set by the judge that runs it:
    #: ``fingerprint`` (a point's row, its ID the point's), ``declared`` (a declared capability
    #: checked), ``invariant`` (its ID the invariant's), ``vectors``, ``differential``, ``size``,
    #: ``robustness``. The verdict reads a row by its family, never by its ID.
    family: str = ""
    #: A robustness row's kind of fault (``crash``, ``error``, ``out-of-range``...: the client's
    #: FAULT_KINDS), "" for every other row.
    fault: str = ""
    #: What a row's failure rests on beyond its counterexample, for the verdict to ask again (an
    #: OPEN-* row's question: its lines or context, spec CONF-OPEN); never in a report.
    evidence: Any = field(default=None, compare=False, repr=False)


#: A check passes only if the target answered at least this share of the questions it was asked
#: (``skipped`` answers count as asked; levels it declares it lacks are not asked): spec CONF-JUDGE.
MIN_ANSWERED_SHARE = 0.5


def covered(check: Check) -> Check:
    """``check`` with its coverage judged: too few answers is "insufficient evidence", never a pass.

    A check that failed keeps its failure (one answer can show a bug); a pass or an n/a on
    which the target skipped more than half of what it was asked becomes ``insufficient``.
    """
    if check.asked is None or check.answered is None or check.asked == 0:
        return check
    if check.status in ("pass", "n/a") and check.answered < MIN_ANSWERED_SHARE * check.asked:
        detail = (
            f"insufficient evidence: the target answered {check.answered} of the {check.asked} "
            f"questions it was asked (skipped the rest); at least {MIN_ANSWERED_SHARE:.0%} are needed"
        )
        return replace(check, status="insufficient", detail=detail)
    return check


class ThinEvidenceError(Exception):
    """A check's target skipped as many questions as the check has examples, answering fewer than half."""


class NothingToAskError(Exception):
    """A check met only questions at levels the target does not declare, as many as it has examples."""


class NotAskedError(Exception):
    """The run's --time-limit or --max-restarts is spent: nothing more is asked (spec CONF-ROBUST)."""


class CheckFailureError(AssertionError):
    """A check failed on one input (hypothesis shrinks it)."""

    def __init__(
        self,
        message: str,
        example: Any,
        fault: str = "",
        values: tuple[Any, Any, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.example, self.fault = example, fault
        #: (the target's answer, the expected one, the convention behind it), when compared
        self.values = values


def with_values(check: Check, failure: AssertionError) -> Check:
    """``check`` with the values its failure compared (a CheckFailureError's, or an invariant's:
    the target's score after the change against its own score before it)."""
    values = getattr(failure, "values", None)
    if values is None:
        return check
    got, wanted, by = values
    return replace(check, target_value=got, expected_value=wanted, expected_by=by)


@dataclass
class JudgeBase:
    """What every family of checks works with: the target, its fingerprint, the budget, the checks
    so far, and running one property as a check (shrinking, coverage)."""

    target: ProtocolTarget
    fingerprint: Fingerprint
    examples: int = 100
    seed: int = 0
    checks: list[Check] = field(default_factory=list)
    #: The shrunk input of the first check that each kind of fault failed (for the ROB-* rows).
    fault_examples: dict[str, Any] = field(default_factory=dict)

    @property
    def config(self) -> Config:
        """The reference's options under the target's conventions."""
        return self.fingerprint.config

    @property
    def convention(self) -> str:
        """The conventions the expected values are computed under, as a report shows them."""
        shown = ", ".join(f"{k}={v}" for k, v in sorted(self.config.items()))
        return f"the reference at the fingerprinted point ({shown or 'the paper'})"

    def same_answer(self, answer: float | str, expected: float | str) -> bool:
        """The target's answer is the expected one (:func:`agree_or_both_errors`) at the target's
        precision and the resolution of its answers (CONF-PROTOCOL)."""
        return agree_or_both_errors(answer, expected, self.fingerprint.tolerance, self.fingerprint.resolution)

    def shown_as_declared(self, expected: float | str) -> str:
        """How a report shows ``expected`` rounded to the target's declared digits, or ""."""
        return self.fingerprint.resolution.as_declared(expected) if isinstance(expected, float) else ""

    def seen(self, corpus: Corpus) -> Corpus:
        """``corpus`` as the target sees it: a text target's tokenizer and case folding applied."""
        return seen(corpus, self.fingerprint.text)

    def unknown_axes(self) -> dict[str, str]:
        """The axes on which a fingerprint point, asked, found no known convention: axis -> point ID (a
        check resting on one is n/a until that convention is known: CONF-JUDGE)."""
        unknown: dict[str, str] = {}
        for finding in self.fingerprint.findings:
            if finding.asked and not finding.unasked and finding.convention is None and not finding.faults:
                for axis in (*finding.point.axes, *finding.point.text_axes):
                    unknown.setdefault(axis, finding.point.id)
        return unknown

    def acceptable(self, corpus: Corpus) -> bool:
        """Inputs the target's conventions let it refuse are left out of generated inputs (and said so).

        That is the domain of the fingerprinted point: where the reference there raises (a
        segment whose only references are empty, once empty references are dropped; an empty
        candidate where that is an error; c = 0 where BP divides by it; an order without
        n-grams where the target refuses one, FP-UNDEFINED's "error")."""
        return reference_prediction(self.config, self.seen(corpus)) != "error"

    def _run(
        self,
        ident: str,
        title: str,
        strategy: st.SearchStrategy[Any],
        body: Callable[[Any], None],
        spec_ids: tuple[str, ...],
        *,
        as_given: bool = False,
    ) -> Check:
        """``body`` run as a property on ``strategy``'s examples: the check's row. Examples are cut to
        the references the target takes (conformance.runner.references), unless ``as_given``:
        those that carry indices into a segment's references (the caller makes such a check n/a
        for a target that takes one or the same number)."""
        failing: list[Any] = []  # the last failing input: after shrinking, the shrunk one

        def last() -> Any:
            return failing[0] if failing else None

        kind = self.target.references
        if kind != "any" and not as_given:  # only corpora it can express
            strategy = strategy.map(lambda example: expressible_example(kind, example))
        answered_before, skipped_before = self.target.answered, self.target.skipped
        not_asked_before = self.target.not_asked
        undeclared = [0]  # questions at a level the target does not declare: never asked

        def test(example: Any) -> None:
            try:
                body(example)
            except TargetSkippedError as skip:
                if self.target.not_asked > not_asked_before and not failing:
                    # Nothing more will be asked in this run: generating inputs only to not ask
                    # them took minutes. (A failure found before is still shrunk as it was.)
                    raise NotAskedError(str(skip)) from None
                if skip.declared:
                    undeclared[0] += 1
                    if undeclared[0] >= self.examples and self.target.answered == answered_before:
                        raise NothingToAskError from None  # generating more would only skip again
                skips = self.target.skipped - skipped_before
                if not skip.declared and skips >= self.examples > 2 * (
                    self.target.answered - answered_before
                ):
                    raise ThinEvidenceError from None  # coverage is lost already: stop asking
                assume(False)
            except TargetFaultError as fault:
                failing[:] = [example]
                raise CheckFailureError(f"the target failed ({fault})", example, fault=fault.kind) from None
            except AssertionError:
                failing[:] = [example]
                raise

        def attempt(shrink: bool) -> None:
            phases = tuple(Phase) if shrink else (Phase.explicit, Phase.reuse, Phase.generate)
            runner = seed(self.seed)(
                settings(
                    max_examples=self.examples,
                    database=None,
                    deadline=None,
                    derandomize=False,
                    suppress_health_check=list(HealthCheck),
                    print_blob=False,
                    report_multiple_bugs=False,
                    phases=phases,
                )(given(strategy)(test))
            )
            runner()

        try:
            check = self._attempts(ident, title, spec_ids, attempt, last)
        except ThinEvidenceError:
            check = Check(ident, title, "n/a", "stopped: the target skipped most questions", spec_ids)
        except NothingToAskError:
            check = Check(ident, title, "n/a", "the target declares no level this check asks at", spec_ids)
        except NotAskedError as stop:
            check = Check(ident, title, "n/a", str(stop), spec_ids)
        answered = self.target.answered - answered_before
        skipped = self.target.skipped - skipped_before
        return covered(replace(check, answered=answered, asked=answered + skipped))

    def _attempts(
        self,
        ident: str,
        title: str,
        spec_ids: tuple[str, ...],
        attempt: Callable[[bool], None],
        last: Callable[[], Any],
    ) -> Check:
        """Run a check's property (shrinking only when needed) and turn its outcome into a Check."""
        # A fault (crash, hang, garbage) fails every check it meets; it is shrunk once per kind,
        # for its ROB-* row, and later checks it fails name that row instead of shrinking again.
        # The same seed generates the same inputs, so the shrinking run meets the same failure.
        try:
            try:
                attempt(False)
                return Check(ident, title, "pass", f"{self.examples} generated examples", spec_ids)
            except AssertionError as failure:
                if getattr(failure, "fault", "") not in self.fault_examples:
                    attempt(True)
                else:
                    raise
            detail = "nondeterministic: failed, then passed on the same inputs"
            return Check(ident, title, "fail", detail, spec_ids, last())
        except CheckFailureError as failure:
            detail = str(failure)
            if failure.fault in self.fault_examples:
                detail += f" (counterexample shrunk under ROB-{failure.fault.upper()})"
            elif failure.fault:
                self.fault_examples[failure.fault] = last()
            return with_values(Check(ident, title, "fail", detail, spec_ids, last()), failure)
        except AssertionError as failure:  # an invariant's own violation
            return with_values(Check(ident, title, "fail", str(failure), spec_ids, last()), failure)
        except Flaky as error:
            detail = f"nondeterministic: {error}"[:500]
            return Check(ident, title, "fail", detail, spec_ids, last())
        except Unsatisfiable:
            return Check(ident, title, "n/a", "no generated input could be asked", spec_ids)


def corpus_of(example: Any) -> Corpus | None:
    """The corpus inside an invariant's example (some carry a permutation or mapping beside it)."""
    if (
        isinstance(example, tuple)
        and len(example) == 2
        and isinstance(example[0], list)
        and isinstance(example[1], list)
    ):
        return example
    if isinstance(example, tuple) and example and isinstance(example[0], tuple):
        return corpus_of(example[0])
    return None


def agree_or_both_errors(
    answer: float | str, expected: float | str, tolerance: float, resolution: Resolution
) -> bool:
    """Both an error (whatever the words after "error"), or the same number (``agrees``)."""
    if isinstance(answer, str) or isinstance(expected, str):
        return (
            isinstance(answer, str)
            and isinstance(expected, str)
            and answer.startswith("error")
            and expected.startswith("error")
        )
    return agrees(answer, expected, tolerance, resolution)
