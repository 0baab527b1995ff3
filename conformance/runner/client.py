"""The runner's side of the protocol: any target as a :class:`Target` (spec CONF-PROTOCOL, CONF-ROBUST).

A :class:`ProtocolTarget` starts the target's process (never through a shell) on a
:class:`~conformance.runner.channel.Channel` (its own session, bounded and timed reads and writes),
validates every answer against the protocol before using it, and turns every way a target
can misbehave into a
:class:`TargetFaultError` with a kind: ``error`` (it reported or raised an error), ``timeout``
(no answer in time: the process is killed), ``crash`` (the process died), ``protocol`` (an
answer that is not the protocol's), ``wrong-type``, ``nan``, ``infinite``, ``out-of-range``
and ``mutation``. A dead or killed process is restarted on the next question, so one bad
answer never stops the run; after :data:`MAX_TIMEOUTS` timeouts the target is treated as
unresponsive and further questions fail at once. A ``skipped`` answer raises
:class:`TargetSkippedError`: the target declines that input, which is not a fault.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from conformance.peers.targets import Hypotheses, Outcome, References, Tokens
from conformance.runner.channel import (
    MAX_LINE_BYTES,
    OVERLONG,
    Channel,
    ChannelClosedError,
    ChannelTimeoutError,
    Limits,
)
from conformance.runner.protocol import (
    ProtocolViolationError,
    check_capabilities,
    check_result,
    encode,
    hello,
    input_digest,
    quote,
    read_message,
)
from conformance.runner.references import takes
from conformance.runner.skips import SkipRecord
from conformance.suite.resolution import IN_FULL, Resolution

MAX_TIMEOUTS = 3
#: A question is given ``--timeout`` once per this many tokens (at least once): the largest
#: questions (CONF-OPEN's million tokens) take a pure-Python tool tens of seconds.
TOKENS_PER_TIMEOUT = 50_000
#: Restarts of a target's process allowed by default (``--max-restarts``): a target that dies on
#: every question costs a start-up each time; past this, no further question is asked.
MAX_RESTARTS = 20
#: Seconds a target may take in all by default (``--time-limit``); later questions are not asked.
TIME_LIMIT = 900.0
#: Two scores of a target under test are the same score within this relative tolerance: a
#: binary64 BLEU is within a few ulp of the exact value, whatever order it sums in; a percent
#: scale adds two roundings and the 12-digit reading of CONF-SCALE (spec CONF-JUDGE).
SCORE_TOLERANCE = 1e-11
FAULT_KINDS = (
    "error",
    "timeout",
    "crash",
    "protocol",
    "wrong-type",
    "nan",
    "infinite",
    "out-of-range",
    "mutation",
)


class TargetFaultError(Exception):
    """The target misbehaved on one question."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


class TargetSkippedError(Exception):
    """The target declined a question: it answered ``skipped``, or it declared no entry point for it.

    ``declared`` is True when the runner did not ask (a level the target does not declare):
    that is a capability, not a gap in the evidence (spec CONF-JUDGE, coverage).
    """

    def __init__(self, reason: str, declared: bool = True) -> None:
        super().__init__(reason)
        self.declared = declared


class TargetUnavailableError(Exception):
    """The target cannot run here (not installed, not found): the reason and how to install."""

    def __init__(self, reason: str, install: str = "") -> None:
        super().__init__(reason + (f" ({install})" if install else ""))
        self.reason, self.install = reason, install


def _size(sentence: Any) -> int:
    """A sentence's tokens as sent: a token list's length, a line's words."""
    return sentence.count(" ") + 1 if isinstance(sentence, str) else len(sentence)


def _sendable(text: bool) -> Callable[[Any], Any]:
    """How a hypothesis or reference is sent: a text target gets a token list joined with spaces, or a
    line given as a string as it is (CONF-OPEN's lines); a token target gets the token list."""
    if text:
        return lambda sentence: sentence if isinstance(sentence, str) else " ".join(sentence)
    return list


def decimals(value: float) -> int:
    """The decimals of ``value`` as a target prints it (the shortest text that reads back as it):
    a score rounded to K decimals has at most K (spec CONF-PROTOCOL, ``digits``).

    >>> decimals(28.3), decimals(0.1 + 0.2), decimals(100.0), decimals(1e-05)
    (1, 17, 0, 5)
    """
    exponent = Decimal(repr(value)).normalize().as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


@dataclass(frozen=True)
class Capabilities:
    """What the target said of itself in answer to ``hello``."""

    name: str
    input: str
    levels: tuple[str, ...]
    statistics: bool
    scale: str | None
    versions: dict[str, str]
    #: Decimals the scores are rounded to on the target's scale (protocol version 2), if declared.
    digits: int | None = None
    #: References per segment it takes: one, same or any (conformance.runner.references).
    references: str = "any"
    #: Where a question may ask to call it: ``thread``, ``fork`` (the Python harness; CONF-OPEN).
    contexts: tuple[str, ...] = ()


#: Starts the harness so that the working directory cannot shadow it (CONF-ROBUST): ``python -m``
#: would put the working directory first, where a ``conformance/`` or ``reference_bleu/`` folder
#: would be imported instead. The harness and the reference are imported from the folder that
#: holds this package (the first argument) with the working directory out of ``sys.path``; the
#: working directory then comes first again, for the target's own modules.
_HARNESS = (
    "import os, runpy, sys; root = sys.argv.pop(1); here = os.getcwd(); "
    "rest = [p for p in sys.path if p not in ('', '.', here)]; sys.path[:] = [root, *rest]; "
    "import reference_bleu, conformance.runner.harness; sys.path[:] = [here, *rest, root]; "
    "runpy.run_module('conformance.runner.harness', run_name='__main__', alter_sys=True)"
)


def python_command(spec: str, input_kind: str = "tokens") -> list[str]:
    """The command that serves a built-in or ``module:attr`` target through the harness."""
    root = str(Path(__file__).resolve().parents[2])  # the folder that holds conformance/
    return [sys.executable, "-c", _HARNESS, root, spec, "--input", input_kind]


@dataclass
class ProtocolTarget:
    """A target in its own process, spoken to by the bleu-conform protocol."""

    command: list[str]
    timeout: float = 10.0
    #: Seconds for the first answer of a freshly started process: importing torch or TensorFlow
    #: takes a minute on a busy machine, which is no hang (spec CONF-ROBUST).
    startup_timeout: float = 120.0
    scale: float = 1.0  # the score is divided by this (100 for a percent scale)
    #: Decimals the target's scores carry on its own scale (declared, or the runner's --digits).
    digits: int | None = None
    #: References per segment it takes (declared, or the runner's --references): a question it
    #: cannot express is not asked (conformance.runner.references, spec CONF-PROTOCOL).
    references: str = "any"
    #: False once the fingerprint found a smoothing whose p_n can exceed 1 (SmoothingMethod.bounded):
    #: a score above 1 is then the point's own value, not ROB-OUT-OF-RANGE (spec CONF-VERDICT).
    bounded: bool = True
    faults: Counter[str] = field(default_factory=Counter)
    first_fault: dict[str, str] = field(default_factory=dict)
    first_input: dict[str, Any] = field(default_factory=dict)  # [hypotheses, references] per kind
    calls: int = 0
    #: Questions answered (ok or error) and questions the target answered ``skipped`` (coverage).
    answered: int = 0
    skipped: int = 0
    #: The shapes of the questions answered and skipped: what a skip was a skip of (CONF-ROBUST).
    skips: SkipRecord = field(default_factory=SkipRecord)
    count_errors: bool = True  # off while fingerprinting: an error is then an answer, not a fault
    score_tolerance: float = SCORE_TOLERANCE  # read by the metamorphic invariants
    #: How finely the answers are known (CONF-PROTOCOL ``digits``): found by the fingerprint, passed
    #: to every comparison of the answers (the invariants read it here).
    resolution: Resolution = IN_FULL
    #: The longest answer line read, in bytes; a longer one is a protocol fault (spec CONF-ROBUST).
    max_answer_bytes: int = MAX_LINE_BYTES
    limits: Limits = field(default_factory=Limits)
    #: Restarts allowed after crashes and timeouts; then the target is given up on (CONF-ROBUST).
    max_restarts: int = MAX_RESTARTS
    #: Seconds for the whole run of this target, from its first question; then nothing is asked.
    time_limit: float = TIME_LIMIT
    restarts: int = 0
    #: The last score as the target gave it, before the scale (FP-SCALE's rounding reads its decimals).
    last_raw: float | None = None
    #: Questions not asked once the time limit or the restarts were spent (the report says so).
    not_asked: int = 0
    #: Why they were not asked: which run limit was spent, with its option ("" while none was).
    not_asked_because: str = ""
    #: Questions with some segment of more than one reference it refused (an error) and scored, and
    #: one-reference questions it scored: a target refusing every one of the first and scoring the
    #: last takes one reference per segment without declaring it (the report says so: CONF-PROTOCOL).
    several_refused: int = 0
    several_scored: int = 0
    one_reference_scored: int = 0
    #: What a child forked for a question did instead of answering (a hang, a death), or "": the
    #: target does not survive a fork (a thread pool or a lock held across it), which says nothing of
    #: its BLEU; the question is not asked and no ROB-* row counts it (spec CONF-OPEN).
    fork_unsafe: str = ""
    _started: float | None = None
    _channel: Channel | None = None
    _capabilities: Capabilities | None = None
    _seq: int = 0
    _timeouts: int = 0

    # -- process ----------------------------------------------------------------------------

    def _start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        root = str(Path(__file__).resolve().parents[2])  # the folder that holds conformance/
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.getcwd(), root, env.get("PYTHONPATH", "")]))
        try:
            self._channel = Channel(
                self.command, env, max_line_bytes=self.max_answer_bytes, limits=self.limits
            )
        except OSError as error:
            raise TargetUnavailableError(f"cannot start {self.command[0]!r}: {error.strerror}") from None

    def _kill(self) -> None:
        if self._channel is not None:
            self._channel.kill()
        self._channel = None

    def close(self) -> None:
        """Say stop, then end the process and everything it started."""
        if self._channel is not None:
            self._channel.close(encode({"type": "stop"}).encode("utf-8"))
        self._channel = None

    def _ask(self, message: dict[str, Any], tokens: int = 0) -> dict[str, Any]:
        """Send one message and read one answer; a new process is greeted first (spec CONF-PROTOCOL).

        The greeting waits up to ``startup_timeout`` (imports can be slow), every other answer
        ``timeout``, once per :data:`TOKENS_PER_TIMEOUT` tokens of the question (a question of
        real size is given time in proportion: CONF-OPEN); a process restarted after a crash or a
        timeout is greeted again.
        """
        greeting = message.get("type") == "hello"
        if self._channel is None:
            if self._started is not None:
                self.restarts += 1
            self._started = self._started or time.monotonic()
            self._start()
            if not greeting:
                self._exchange(hello(), self.startup_timeout)
        wait = self.timeout * max(1.0, tokens / TOKENS_PER_TIMEOUT)
        return self._exchange(message, self.startup_timeout if greeting else wait)

    def _exchange(self, message: dict[str, Any], wait: float) -> dict[str, Any]:
        channel = self._channel
        if channel is None:  # pragma: no cover -- _ask starts it
            raise TargetFaultError("crash", "no process")
        try:
            line = channel.exchange(encode(message).encode("utf-8"), wait)
        except ChannelTimeoutError as error:
            self._channel = None
            self._timeouts += 1
            raise TargetFaultError("timeout", str(error)) from None
        except ChannelClosedError as error:
            self._channel = None
            said = " / ".join(channel.stderr_tail)[-300:]
            raise TargetFaultError("crash", str(error) + (f"; it said: {said}" if said else "")) from None
        if line == OVERLONG:
            self._kill()
            raise TargetFaultError("protocol", f"an answer longer than {self.max_answer_bytes} bytes")
        try:
            return read_message(line)
        except ProtocolViolationError as error:
            self._kill()  # what follows on the pipe cannot be trusted to be in step
            raise TargetFaultError("protocol", str(error)) from None

    # -- the protocol -------------------------------------------------------------------------

    @property
    def capabilities(self) -> Capabilities:
        """The target's capabilities (asked once: the first question starts the process)."""
        if self._capabilities is None:
            try:
                answer = self._ask(hello())
            except TargetFaultError as fault:
                raise TargetUnavailableError(f"no capabilities: {fault}") from None
            if answer.get("type") == "unavailable":
                raise TargetUnavailableError(
                    printable(answer.get("reason")), printable(answer.get("install", ""))
                )
            try:
                check_capabilities(answer)
            except ProtocolViolationError as error:
                raise TargetUnavailableError(f"not a bleu-conform target: {error}") from None
            self._capabilities = Capabilities(
                name=printable(answer.get("name", " ".join(self.command))),
                input=str(answer.get("input", "tokens")),
                levels=tuple(answer["levels"]),
                statistics=bool(answer.get("statistics", False)),
                scale=answer.get("scale"),
                versions={printable(k): printable(v) for k, v in dict(answer.get("versions", {})).items()},
                digits=answer.get("digits"),
                references=str(answer.get("references", "any")),
                contexts=tuple(answer.get("contexts", ())),
            )
        return self._capabilities

    @property
    def name(self) -> str:
        """The target's own name."""
        return self.capabilities.name

    def _fault(self, kind: str, detail: str) -> TargetFaultError:
        if kind != "error" or self.count_errors:
            self.faults[kind] += 1
            self.first_fault.setdefault(kind, detail)
        return TargetFaultError(kind, detail)

    def score(
        self,
        level: str,
        hypotheses: Hypotheses,
        references: References,
        raw: bool = False,
        context: str | None = None,
    ) -> Outcome:
        """Ask one question; every misbehaviour becomes a counted :class:`TargetFaultError`.

        ``raw``: the score as the target gave it, unscaled and not range-checked (to find the scale).
        ``context``: where a Python target is called (``thread``, ``fork``: CONF-OPEN); a target that
        does not declare it is not asked (a declared skip). A text target is sent each token list
        joined with spaces, and a line given as a string as it is.
        The input of the first counted fault of each kind is kept in ``first_input``.
        """
        try:
            return self._score(level, hypotheses, references, raw, context)
        except TargetFaultError as fault:
            if context == "fork" and fault.kind in ("timeout", "crash"):
                raise self._not_fork_safe(fault) from None
            if fault.kind in self.first_fault and fault.kind not in self.first_input:
                self.first_input[fault.kind] = [
                    [list(h) for h in hypotheses],
                    [[list(r) for r in rs] for rs in references],
                ]
            raise

    def _score(
        self, level: str, hypotheses: Hypotheses, references: References, raw: bool, context: str | None
    ) -> Outcome:
        caps = self.capabilities
        if level not in caps.levels:
            raise TargetSkippedError(f"no {level} entry point")
        if context is not None:
            self._check_context(context)
        if not takes(self.references, references):
            raise TargetSkippedError(f"it takes {self.references} reference(s) per segment (CONF-PROTOCOL)")
        if self._timeouts >= MAX_TIMEOUTS:
            raise self._fault("timeout", "unresponsive: gave up after repeated timeouts")
        if self._channel is None and self.restarts >= self.max_restarts:
            # Not asked, never a crash of its own: the crashes that used the restarts are the evidence,
            # and a question no process answered must not shrink a counterexample (CONF-ROBUST).
            raise self._not_asked(f"its {self.restarts} restarts were spent (--max-restarts)")
        if self._started is not None and time.monotonic() - self._started > self.time_limit:
            raise self._not_asked(f"the time limit of {self.time_limit:g} s was spent (--time-limit)")
        sent = _sendable(caps.input == "text")
        hyps: list[Any] = [sent(h) for h in hypotheses]
        refs: list[Any] = [[sent(r) for r in rs] for rs in references]
        self._seq += 1
        self.calls += 1
        request = {"type": "score", "seq": self._seq, "level": level, "hypotheses": hyps, "references": refs}
        if context is not None:
            request["context"] = context
        tokens = sum(map(_size, hyps)) + sum(_size(r) for rs in refs for r in rs)
        try:
            answer = self._ask(request, tokens)
        except TargetFaultError as fault:
            raise self._fault(fault.kind, fault.detail) from None
        try:
            check_result(answer, self._seq)
        except ProtocolViolationError as error:
            self._kill()
            raise self._fault("protocol", str(error)) from None
        status = answer["status"]
        if status == "skipped":
            self.skipped += 1
            self.skips.skip(hypotheses, references)
            raise TargetSkippedError(printable(answer.get("reason", "")), declared=False)
        self.answered += 1
        self.skips.answer(hypotheses, references)
        self._tally_references(references, scored=status != "error")
        if status == "error":
            raise self._fault("error", printable(answer.get("error", ""))[:500])
        digest = input_digest(hyps, refs)
        if answer.get("mutated") or answer.get("input_digest", digest) != digest:
            raise self._fault("mutation", "the target changed its input")
        return self._outcome(answer, raw)

    def _tally_references(self, references: References, scored: bool) -> None:
        """CONF-PROTOCOL. Count an answered question by its references (one per segment or not) and
        whether it was scored or refused, for the report's hint on an undeclared capability."""
        if takes("one", references):
            self.one_reference_scored += scored
        elif scored:
            self.several_scored += 1
        else:
            self.several_refused += 1

    def _check_context(self, context: str) -> None:
        """A question asked in a context the target does not declare, or after a fork it did not
        survive (one hang is the finding: not waited for again), is not asked (CONF-OPEN)."""
        if context not in self.capabilities.contexts:
            raise TargetSkippedError(f"no {context} context (not served by the Python harness)")
        if context == "fork" and self.fork_unsafe:
            raise TargetSkippedError("it does not survive a fork")

    def _not_fork_safe(self, fault: TargetFaultError) -> TargetSkippedError:
        """CONF-OPEN. A child forked for a question hung or died: the fault is taken back from the
        ROB-* counts (and from the timeouts that make a target unresponsive) and kept in
        ``fork_unsafe``; the question counts as not asked."""
        self.faults[fault.kind] -= 1
        if self.faults[fault.kind] <= 0:
            del self.faults[fault.kind]
            self.first_fault.pop(fault.kind, None)
            self.first_input.pop(fault.kind, None)
        if fault.kind == "timeout":
            self._timeouts -= 1
        self.fork_unsafe = self.fork_unsafe or f"{fault.kind}: {fault.detail}"
        return TargetSkippedError(f"no answer from a child forked for the question ({fault.kind})")

    def _not_asked(self, because: str) -> TargetSkippedError:
        """CONF-ROBUST, run limits: a question not asked once a limit was spent, counted, with the
        first limit's reason kept for the report; never a skip of the target's own."""
        self.not_asked += 1
        self.not_asked_because = self.not_asked_because or because
        return TargetSkippedError(f"not asked: {self.not_asked_because}", False)

    def _outcome(self, answer: dict[str, Any], raw_score: bool) -> Outcome:
        raw = answer.get("score")
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise self._fault("wrong-type", f"score {quote(json.dumps(raw))} is not a number")
        try:
            value = float(raw)
        except OverflowError:  # an integer beyond binary64 (at most MAX_INTEGER_DIGITS digits)
            raise self._fault("out-of-range", f"score {quote(str(raw))} is not a binary64 number") from None
        if math.isnan(value):
            raise self._fault("nan", "score is NaN")
        if math.isinf(value):
            raise self._fault("infinite", f"score is {value}")
        if self.digits is not None and decimals(value) > self.digits:
            raise self._fault(
                "protocol", f"score {value!r} has more decimals than the {self.digits} declared (digits)"
            )
        self.last_raw = value
        score = value if raw_score else unscale(value, self.scale)
        if not raw_score and not (score >= 0.0 and (score <= 1.0 + 1e-9 or not self.bounded)):
            raise self._fault("out-of-range", f"score {quote(str(raw))} is outside [0, {self.scale:g}]")
        stats = answer.get("statistics")
        if stats is None and self.capabilities.statistics:
            # A declared capability is a promise (spec CONF-PROTOCOL): never kept, it is a fault,
            # not a check that quietly has nothing to compare.
            raise self._fault("protocol", "statistics declared in the capabilities and not sent")
        bp = answer.get("brevity_penalty")
        brevity = None if bp is None else float(bp)
        if isinstance(stats, dict):  # validated by check_result
            ref_len = stats["ref_len"]
            return Outcome(
                score=score,
                matches=tuple(stats["matches"]),
                totals=tuple(stats["totals"]),
                hyp_len=stats["hyp_len"],
                ref_len=int(ref_len) if isinstance(ref_len, float) and ref_len.is_integer() else ref_len,
                brevity_penalty=brevity,
            )
        return Outcome(score=score, brevity_penalty=brevity)

    # -- the Target interface ---------------------------------------------------------------

    def corpus(self, hypotheses: Hypotheses, references: References) -> Outcome:
        """Corpus BLEU (spec CONF-TARGETS)."""
        return self.score("corpus", hypotheses, references)

    def sentence(self, hypothesis: Tokens, references: Sequence[Tokens]) -> Outcome | None:
        """Sentence BLEU, or None when the target has no sentence entry point."""
        if "sentence" not in self.capabilities.levels:
            return None
        return self.score("sentence", [hypothesis], [references])


def unscale(raw: float, scale: float) -> float:
    """A score on [0, 1] from one on [0, ``scale``] (spec CONF-SCALE).

    Dividing a percent score by 100 is rounded twice (the peer's 100 * x, then / 100), so the
    result is rounded to 12 significant digits: a perfect 100.00000000000004 reads as 1.
    """
    if scale == 1.0:
        return raw
    value = raw / scale
    return float(f"{value:.12g}")


def printable(value: Any) -> str:
    """``value`` as text a terminal and a Markdown table show as it is: control characters escaped.

    Everything a target says (its name, versions, reasons, errors) passes through this before
    it reaches a report (spec CONF-ROBUST): C0 and C1 controls, line and paragraph separators
    and other non-printable characters become ``\\xNN``/``\\uNNNN`` escapes.
    """
    text = str(value)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
