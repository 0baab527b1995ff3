"""Judging a fingerprinted target: invariants, vectors, differential tests, robustness (spec CONF-JUDGE).

Every check has an ID and ends as ``pass``, ``fail`` (with the shrunk counterexample),
``explained`` (it differs, and a registered peer divergence's model reproduces the target's
answer: not conformant, but known), or ``n/a`` (with the reason: the target lacks the
capability, or the invariant does not hold under the convention it follows, spec 09).
A target is conformant when every point of its fingerprint is a spec convention and no check
is ``fail`` or ``explained``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from hypothesis import HealthCheck, Phase, assume, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import Flaky, Unsatisfiable

from conformance.peers.models import Case, PeerTarget, model
from conformance.runner.client import (
    FAULT_KINDS,
    ProtocolTarget,
    TargetFaultError,
    TargetSkippedError,
)
from conformance.runner.fingerprint import Fingerprint, applied_divergences
from conformance.runner.fingerprint.base import (
    PEERS,
    Config,
    Corpus,
    agrees,
    peer_name,
    reference_prediction,
)
from conformance.suite.invariants import INVARIANTS, Invariant, holds, same_statistics
from conformance.suite.loader import load_vectors
from conformance.suite.strategies import corpora
from reference_bleu import corpus_bleu, sentence_bleu
from reference_bleu.errors import BleuError
from reference_bleu.options import make_options


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


class CheckFailureError(AssertionError):
    """A check failed on one input (hypothesis shrinks it)."""

    def __init__(
        self, message: str, example: Any, explained_by: tuple[str, ...] = (), fault: str = ""
    ) -> None:
        super().__init__(message)
        self.example, self.explained_by, self.fault = example, explained_by, fault


@dataclass
class Judge:
    """Runs every check on one fingerprinted target."""

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

    def acceptable(self, corpus: Corpus) -> bool:
        """Inputs the target's conventions let it refuse are left out of generated inputs (and said so)."""
        hyps, refs = corpus
        flags = self.fingerprint.flags
        if "error-on-empty-hypothesis" in flags and any(not h for h in hyps):
            return False
        if "error-on-empty-reference" in flags and any(not r for rs in refs for r in rs):
            return False
        if "error-on-undefined" in flags:
            return all(len(h) >= make_options(**self.config).max_order for h in hyps)
        return True

    def _run(
        self,
        ident: str,
        title: str,
        strategy: st.SearchStrategy[Any],
        body: Callable[[Any], None],
        spec_ids: tuple[str, ...],
    ) -> Check:
        failing: list[Any] = []  # the last failing input: after shrinking, the shrunk one

        def last() -> Any:
            return failing[0] if failing else None

        answered_before, skipped_before = self.target.answered, self.target.skipped
        undeclared = [0]  # questions at a level the target does not declare: never asked

        def test(example: Any) -> None:
            try:
                body(example)
            except TargetSkippedError as skip:
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
            status = "explained" if failure.explained_by else "fail"
            return Check(ident, title, status, detail, spec_ids, last(), failure.explained_by)
        except AssertionError as failure:  # an invariant's own violation
            return Check(ident, title, "fail", str(failure), spec_ids, last())
        except Flaky as error:
            detail = f"nondeterministic: {error}"[:500]
            return Check(ident, title, "fail", detail, spec_ids, last())
        except Unsatisfiable:
            return Check(ident, title, "n/a", "no generated input could be asked", spec_ids)

    # -- fingerprint ------------------------------------------------------------------------

    def fingerprint_checks(self) -> None:
        """One row per point: a spec convention passes; a divergence or an unknown behaviour does not."""
        for finding in self.fingerprint.findings:
            point, convention = finding.point, finding.convention
            if convention is None:
                self.checks.append(
                    Check(
                        point.id,
                        point.question,
                        "fail",
                        "matches no known convention",
                        point.ec,
                        finding.evidence(),
                    )
                )
            elif convention.divergence:
                self.checks.append(
                    Check(
                        point.id,
                        point.question,
                        "explained",
                        convention.name,
                        point.ec,
                        finding.evidence(),
                        tuple(d for d in convention.divergence if d != "peer"),
                    )
                )
            else:
                also = [m.name for m in finding.matched[1:]]
                detail = convention.name + (f" (equally: {'; '.join(also)})" if also else "")
                self.checks.append(Check(point.id, point.question, "pass", detail, point.ec))

    # -- invariants -------------------------------------------------------------------------

    def _text_merges_tokens(self) -> str:
        """Why a text target's own tokenizer or case folding (FP-TEXT) does not keep INV-RENAME, or "".

        The renaming maps words to case variants ("the" to "The") and to words of other
        letters; case folding merges the first, a character tokenizer sees the second letter by
        letter. Neither is a bug: the convention was found and is judged on its own axis.
        """
        text = self.fingerprint.text
        if text is None or (text[1] == "none" and text[0] != "char"):
            return ""
        return f"does not hold for a text target with tokenize {text[0]}, case {text[1]} (FP-TEXT)"

    def invariant_checks(self) -> None:
        """Each invariant that must hold under the target's conventions, on generated inputs."""
        caps = self.target.capabilities
        has = {
            "statistics": caps.statistics,
            "sentence": "sentence" in caps.levels,
            "brevity_penalty": caps.statistics,
        }
        merging = self._text_merges_tokens()
        for invariant in INVARIANTS:
            missing = [need for need in sorted(invariant.needs) if not has.get(need, False)]
            if invariant.id == "INV-RENAME" and merging:
                self.checks.append(Check(invariant.id, invariant.statement, "n/a", merging, (invariant.id,)))
            elif missing:
                self.checks.append(
                    Check(
                        invariant.id,
                        invariant.statement,
                        "n/a",
                        f"target exposes no {', '.join(missing)}",
                        (invariant.id,),
                    )
                )
            elif not holds(invariant.id, self.config):
                self.checks.append(
                    Check(
                        invariant.id,
                        invariant.statement,
                        "n/a",
                        "does not hold under the target's conventions (spec 09)",
                        (invariant.id,),
                    )
                )
            else:
                self.checks.append(self._explained(self._invariant(invariant)))

    def _explained(self, check: Check) -> Check:
        """A failed invariant that a fingerprinted peer behaviour is known to break is ``explained``.

        The behaviour is already reported on its FP row with its divergence IDs (e.g. nltk's
        log-0 sentinel, DIV-NLTK-002, breaks INV-ZERO); the counterexample is kept.
        """
        why = [
            d
            for f in self.fingerprint.findings
            if f.convention and check.id in f.convention.breaks
            for d in f.convention.divergence
            if d != "peer"
        ]
        if check.status != "fail" or not why:
            return check
        return replace(check, status="explained", explained_by=tuple(dict.fromkeys(why)))

    def _invariant(self, invariant: Invariant) -> Check:
        def body(example: Any) -> None:
            corpus = _corpus_of(example)
            if corpus is not None:
                assume(self.acceptable(corpus))
            invariant.check(self.target, example)

        return self._run(invariant.id, invariant.statement, invariant.strategy, body, (invariant.id,))

    # -- differential -----------------------------------------------------------------------

    def expected(self, corpus: Corpus) -> float | str:
        """The reference's answer under the target's conventions."""
        return reference_prediction(self.config, corpus)

    def fingerprinted_peers(self) -> tuple[PeerTarget, ...]:
        """The peers whose conventions the fingerprint placed the target at (CONF-JUDGE)."""
        names = {f.convention.name for f in self.fingerprint.findings if f.convention is not None}
        return tuple(p for p in PEERS if peer_name(p) in names)

    def explain(self, corpus: Corpus, answer: float | str) -> tuple[str, ...]:
        """The registered divergences of the fingerprinted peers whose model reproduces ``answer``.

        Only a peer the fingerprint placed the target at can explain a difference (spec
        CONF-JUDGE): a peer whose model merely happens to give the same number on a shrunk
        input says nothing about the target, and listing every such peer named a dozen
        unrelated tools on one row.
        """
        if not isinstance(answer, float):
            return ()
        try:
            case = Case.of(corpus)
        except BleuError:
            return ()
        found: list[str] = []
        for peer in self.fingerprinted_peers():
            value = model(peer, case)
            if isinstance(value, float) and agrees(answer, value, self.fingerprint.tolerance):
                applied = applied_divergences(peer, case)
                if applied:
                    found += [peer_name(peer), *applied]
        return tuple(dict.fromkeys(found))

    def differential_checks(self) -> None:
        """Scores (corpus, sentence) and statistics against the reference configured to the conventions."""

        def corpus_body(corpus: Corpus) -> None:
            assume(self.acceptable(corpus))
            try:
                answer: float | str = self.target.corpus(*corpus).score
            except TargetFaultError as fault:
                if fault.kind != "error":
                    raise
                answer = "error"
            expected = self.expected(corpus)
            if not _agree(answer, expected, self.fingerprint.tolerance):
                raise CheckFailureError(
                    f"target {answer!r} != reference {expected!r} under {self.config}",
                    corpus,
                    self.explain(corpus, answer) if isinstance(answer, float) else (),
                )

        self.checks.append(
            self._run(
                "DIFF-CORPUS",
                "corpus score equals the reference's under the same conventions",
                corpora(),
                corpus_body,
                ("BLEU-EVAL",),
            )
        )
        caps = self.target.capabilities
        if "sentence" in caps.levels:

            def sentence_body(corpus: Corpus) -> None:
                one = (corpus[0][:1], corpus[1][:1])
                assume(self.acceptable(one))
                outcome = self.target.sentence(one[0][0], one[1][0])
                assert outcome is not None
                try:
                    expected: float | str = sentence_bleu(one[0][0], one[1][0], **self.config).score
                except BleuError:
                    expected = "error"
                if not _agree(outcome.score, expected, self.fingerprint.tolerance):
                    raise CheckFailureError(
                        f"sentence score {outcome.score!r} != reference {expected!r}",
                        one,
                        self.explain(one, outcome.score),
                    )

            self.checks.append(
                self._run(
                    "DIFF-SENTENCE",
                    "sentence score equals the reference's",
                    corpora(max_segments=1),
                    sentence_body,
                    ("EC-009",),
                )
            )
        else:
            self.checks.append(
                Check(
                    "DIFF-SENTENCE",
                    "sentence score equals the reference's",
                    "n/a",
                    "no sentence entry point",
                    ("EC-009",),
                )
            )
        if caps.statistics:

            def stats_body(corpus: Corpus) -> None:
                assume(self.acceptable(corpus))
                out = self.target.corpus(*corpus)
                ref = corpus_bleu(*corpus, **self.config)
                n = len(ref.matches)
                got = (
                    out.matches[:n] if out.matches else out.matches,
                    out.totals[:n] if out.totals else out.totals,
                    out.hyp_len,
                    out.ref_len,
                )
                want = (ref.matches, ref.totals, ref.hyp_len, ref.ref_len)
                if not same_statistics(got, want):
                    raise CheckFailureError(f"statistics (m, l, c, r) {got} != reference {want}", corpus)

            self.checks.append(
                self._run(
                    "DIFF-STATS",
                    "statistics equal the reference's, exactly",
                    corpora(),
                    stats_body,
                    ("BLEU-STATS", "BLEU-CORPUS"),
                )
            )
        else:
            self.checks.append(
                Check(
                    "DIFF-STATS",
                    "statistics equal the reference's, exactly",
                    "n/a",
                    "target exposes no statistics",
                    ("BLEU-STATS",),
                )
            )

    # -- vectors ----------------------------------------------------------------------------

    def vector_checks(self) -> None:
        """The vectors whose options are the target's conventions; ``acceptable`` alternatives honoured."""
        mine = make_options(**self.config)
        explained_by: dict[str, None] = {}
        failures: list[str] = []
        explained: list[str] = []
        used = 0
        for vector in load_vectors():
            try:
                if make_options(**vector.api_options()) != mine:
                    continue
            except BleuError:
                continue
            corpus = (vector.data["hypotheses"], vector.data["references"])
            if not vector.scored or not self.acceptable(corpus):
                continue
            used += 1
            try:
                answer: float | str = self.target.corpus(*corpus).score
            except (TargetFaultError, TargetSkippedError) as fault:
                answer = f"error ({fault})"
            allowed = [float(vector.expected_score())] + [
                float(a["score"])
                for a in vector.data.get("acceptable", ())
                if a["convention"] in self._convention_names()
            ]
            if not any(_agree(answer, value, self.fingerprint.tolerance) for value in allowed):
                why = self.explain(corpus, answer)
                (explained if why else failures).append(f"{vector.id}: {answer!r} != {allowed[0]!r}")
                explained_by.update(dict.fromkeys(why))
        title = "vectors under the target's conventions"
        if explained and not failures:
            self.checks.append(
                Check(
                    "VECTORS",
                    title,
                    "explained",
                    f"{len(explained)} of {used} differ: " + "; ".join(explained[:3]),
                    ("CONF-VECTORS",),
                    None,
                    tuple(explained_by),
                )
            )
            return
        if not used:
            self.checks.append(
                Check("VECTORS", title, "n/a", "no vector has these options", ("CONF-VECTORS",))
            )
        elif failures:
            self.checks.append(
                Check(
                    "VECTORS",
                    title,
                    "fail",
                    f"{len(failures)} of {used} differ: " + "; ".join(failures[:5]),
                    ("CONF-VECTORS",),
                )
            )
        else:
            self.checks.append(Check("VECTORS", title, "pass", f"{used} vectors", ("CONF-VECTORS",)))

    def _convention_names(self) -> set[str]:
        return {f.convention.name for f in self.fingerprint.findings if f.convention}

    # -- robustness -------------------------------------------------------------------------

    def robustness_checks(self) -> None:
        """One row per kind of misbehaviour seen in the whole run (spec CONF-ROBUST)."""
        for kind in FAULT_KINDS:
            count = self.target.faults.get(kind, 0)
            ident = f"ROB-{kind.upper()}"
            title = f"no {kind} on valid input" if kind != "error" else "no error on valid input"
            if count:
                self.checks.append(
                    Check(
                        ident,
                        title,
                        "fail",
                        f"{count} time(s); first: {self.target.first_fault[kind]}",
                        ("CONF-ROBUST",),
                        self.fault_examples.get(kind, self.target.first_input.get(kind)),
                    )
                )
            else:
                self.checks.append(
                    Check(ident, title, "pass", f"{self.target.calls} calls", ("CONF-ROBUST",))
                )

    def declared_scale_check(self, declared: str | None) -> None:
        """A declared scale (``--scale`` or the target's capabilities) must be the observed one."""
        if declared is None:
            return
        observed = "percent" if self.fingerprint.scale == 100.0 else "unit"
        status = "pass" if declared == observed else "fail"
        self.checks.append(
            Check(
                "FP-SCALE-DECLARED",
                "the declared scale is the observed one",
                status,
                f"declared {declared}, observed {observed}",
                ("EC-013",),
            )
        )

    def run(
        self, declared_scale: str | None = None, progress: Callable[[str], None] | None = None
    ) -> list[Check]:
        """Every check, in report order; ``progress`` is told the name of each stage as it starts."""
        self.fingerprint_checks()
        self.declared_scale_check(declared_scale)
        for stage in (self.invariant_checks, self.vector_checks, self.differential_checks):
            if progress:
                progress(stage.__name__.replace("_checks", ""))
            stage()
        self.robustness_checks()
        return self.checks


def _corpus_of(example: Any) -> Corpus | None:
    """The corpus inside an invariant's example (some carry a permutation or mapping beside it)."""
    if (
        isinstance(example, tuple)
        and len(example) == 2
        and isinstance(example[0], list)
        and isinstance(example[1], list)
    ):
        return example
    if isinstance(example, tuple) and example and isinstance(example[0], tuple):
        return _corpus_of(example[0])
    return None


def _agree(answer: float | str, expected: float | str, tolerance: float) -> bool:
    """Both an error (whatever the words after "error"), or the same number (``agrees``)."""
    if isinstance(answer, str) or isinstance(expected, str):
        return (
            isinstance(answer, str)
            and isinstance(expected, str)
            and answer.startswith("error")
            and expected.startswith("error")
        )
    return agrees(answer, expected, tolerance)
