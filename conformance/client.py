"""The runner's side of the protocol: any target as a :class:`Target` (spec CONF-PROTOCOL, CONF-ROBUST).

A :class:`ProtocolTarget` starts the target's process (never through a shell), asks each
question with a per-call timeout, and turns every way a target can misbehave into a
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
import queue
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.protocol import PROTOCOL, VERSION, encode, hello
from conformance.targets import Hypotheses, Outcome, References, Tokens

MAX_TIMEOUTS = 3
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
    """The target declined a question (status ``skipped``)."""


class TargetUnavailableError(Exception):
    """The target cannot run here (not installed, not found): the reason and how to install."""

    def __init__(self, reason: str, install: str = "") -> None:
        super().__init__(reason + (f" ({install})" if install else ""))
        self.reason, self.install = reason, install


@dataclass(frozen=True)
class Capabilities:
    """What the target said of itself in answer to ``hello``."""

    name: str
    input: str
    levels: tuple[str, ...]
    statistics: bool
    scale: str | None
    versions: dict[str, str]


def python_command(spec: str, input_kind: str = "tokens") -> list[str]:
    """The command that serves a built-in or ``module:attr`` target through the harness."""
    return [sys.executable, "-m", "conformance.harness", spec, "--input", input_kind]


@dataclass
class ProtocolTarget:
    """A target in its own process, spoken to by the bleu-conform protocol."""

    command: list[str]
    timeout: float = 10.0
    #: Seconds for the first answer of a freshly started process: importing torch or TensorFlow
    #: takes a minute on a busy machine, which is no hang (spec CONF-ROBUST).
    startup_timeout: float = 120.0
    scale: float = 1.0  # the score is divided by this (100 for a percent scale)
    faults: Counter[str] = field(default_factory=Counter)
    first_fault: dict[str, str] = field(default_factory=dict)
    first_input: dict[str, Any] = field(default_factory=dict)  # [hypotheses, references] per kind
    calls: int = 0
    count_errors: bool = True  # off while fingerprinting: an error is then an answer, not a fault
    score_tolerance: float = SCORE_TOLERANCE  # read by the metamorphic invariants
    _process: subprocess.Popen[str] | None = None
    _lines: queue.Queue[str | None] | None = None
    _capabilities: Capabilities | None = None
    _seq: int = 0
    _timeouts: int = 0
    _stderr_tail: list[str] = field(default_factory=list)

    # -- process ----------------------------------------------------------------------------

    def _start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [os.getcwd(), root, env.get("PYTHONPATH", "")]))
        try:
            self._process = subprocess.Popen(  # noqa: S603 -- an argument list, never a shell
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                env=env,
            )
        except OSError as error:
            raise TargetUnavailableError(f"cannot start {self.command[0]!r}: {error.strerror}") from None
        lines: queue.Queue[str | None] = queue.Queue()
        stdout = self._process.stdout

        def pump() -> None:
            assert stdout is not None
            for line in stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        self._lines = lines
        errors = self._process.stderr
        tail = self._stderr_tail = []

        def drain() -> None:
            assert errors is not None
            for line in errors:
                tail.append(line.rstrip())
                del tail[:-3]

        threading.Thread(target=drain, daemon=True).start()

    def _kill(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
        self._process, self._lines = None, None

    def close(self) -> None:
        """Say stop and end the process."""
        if self._process is not None and self._process.poll() is None:
            try:
                assert self._process.stdin is not None
                self._process.stdin.write(encode({"type": "stop"}))
                self._process.stdin.flush()
                self._process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one message and read one answer; a new process is greeted first (spec CONF-PROTOCOL).

        The greeting waits up to ``startup_timeout`` (imports can be slow), every other answer
        ``timeout``; a process restarted after a crash or a timeout is greeted again.
        """
        greeting = message.get("type") == "hello"
        if self._process is None:
            self._start()
            if not greeting:
                self._exchange(hello(), self.startup_timeout)
        return self._exchange(message, self.startup_timeout if greeting else self.timeout)

    def _exchange(self, message: dict[str, Any], wait: float) -> dict[str, Any]:
        assert self._process is not None
        assert self._process.stdin is not None
        assert self._lines is not None
        try:
            self._process.stdin.write(encode(message))
            self._process.stdin.flush()
        except OSError:
            self._kill()
            raise TargetFaultError("crash", "the process had exited") from None
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            self._kill()
            self._timeouts += 1
            raise TargetFaultError("timeout", f"no answer within {wait} s") from None
        if line is None:
            code = self._process.wait()
            self._kill()
            said = " / ".join(self._stderr_tail)[-300:]
            raise TargetFaultError(
                "crash", f"the process exited with code {code}" + (f"; it said: {said}" if said else "")
            )
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            self._kill()
            raise TargetFaultError("protocol", f"not JSON: {line[:120]!r}") from None
        if not isinstance(answer, dict):
            raise TargetFaultError("protocol", f"not a JSON object: {line[:120]!r}")
        return answer

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
                raise TargetUnavailableError(str(answer.get("reason")), str(answer.get("install", "")))
            if answer.get("type") != "capabilities" or answer.get("protocol") != PROTOCOL:
                raise TargetUnavailableError(f"not a bleu-conform target: first answer {answer!r}")
            if answer.get("version") != VERSION:
                raise TargetUnavailableError(
                    f"protocol version {answer.get('version')!r}; this runner speaks {VERSION}"
                )
            self._capabilities = Capabilities(
                name=str(answer.get("name", " ".join(self.command))),
                input=str(answer.get("input", "tokens")),
                levels=tuple(answer.get("levels", ["corpus"])),
                statistics=bool(answer.get("statistics", False)),
                scale=answer.get("scale"),
                versions={str(k): str(v) for k, v in dict(answer.get("versions", {})).items()},
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

    def score(self, level: str, hypotheses: Hypotheses, references: References, raw: bool = False) -> Outcome:
        """Ask one question; every misbehaviour becomes a counted :class:`TargetFaultError`.

        ``raw``: the score as the target gave it, unscaled and not range-checked (to find the scale).
        The input of the first counted fault of each kind is kept in ``first_input``.
        """
        try:
            return self._score(level, hypotheses, references, raw)
        except TargetFaultError as fault:
            if fault.kind in self.first_fault and fault.kind not in self.first_input:
                self.first_input[fault.kind] = [
                    [list(h) for h in hypotheses],
                    [[list(r) for r in rs] for rs in references],
                ]
            raise

    def _score(self, level: str, hypotheses: Hypotheses, references: References, raw: bool) -> Outcome:
        caps = self.capabilities
        if level not in caps.levels:
            raise TargetSkippedError(f"no {level} entry point")
        if self._timeouts >= MAX_TIMEOUTS:
            raise self._fault("timeout", "unresponsive: gave up after repeated timeouts")
        text = caps.input == "text"
        hyps: list[Any] = [" ".join(h) if text else list(h) for h in hypotheses]
        refs: list[Any] = [[" ".join(r) if text else list(r) for r in rs] for rs in references]
        self._seq += 1
        self.calls += 1
        request = {"type": "score", "seq": self._seq, "level": level, "hypotheses": hyps, "references": refs}
        try:
            answer = self._ask(request)
        except TargetFaultError as fault:
            raise self._fault(fault.kind, fault.detail) from None
        if answer.get("type") != "result" or answer.get("seq") != self._seq:
            self._kill()
            raise self._fault(
                "protocol", f"expected the result of question {self._seq}, got {answer!r}"[:200]
            )
        status = answer.get("status")
        if status == "skipped":
            raise TargetSkippedError(str(answer.get("reason", "")))
        if status == "error":
            raise self._fault("error", str(answer.get("error", "")))
        if status != "ok":
            raise self._fault("protocol", f"unknown status {status!r}")
        if answer.get("mutated"):
            raise self._fault("mutation", "the target changed its input")
        return self._outcome(answer, raw)

    def _outcome(self, answer: dict[str, Any], raw_score: bool) -> Outcome:
        raw = answer.get("score")
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise self._fault("wrong-type", f"score {raw!r} is not a number")
        if math.isnan(raw):
            raise self._fault("nan", "score is NaN")
        if math.isinf(raw):
            raise self._fault("infinite", f"score is {raw}")
        score = float(raw) if raw_score else unscale(float(raw), self.scale)
        if not raw_score and not 0.0 <= score <= 1.0 + 1e-9:
            raise self._fault("out-of-range", f"score {raw} is outside [0, {self.scale:g}]")
        stats = answer.get("statistics")
        bp = answer.get("brevity_penalty")
        if isinstance(stats, dict):
            ref_len = stats.get("ref_len")
            return Outcome(
                score=score,
                matches=tuple(int(x) for x in stats.get("matches", ())),
                totals=tuple(int(x) for x in stats.get("totals", ())),
                hyp_len=int(stats.get("hyp_len", 0)),
                ref_len=int(ref_len) if isinstance(ref_len, float) and ref_len.is_integer() else ref_len,
                brevity_penalty=float(bp) if isinstance(bp, int | float) else None,
            )
        return Outcome(score=score, brevity_penalty=float(bp) if isinstance(bp, int | float) else None)

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
