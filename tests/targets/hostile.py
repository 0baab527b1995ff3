"""A bleu-conform target written to attack the runner (spec CONF-ROBUST, the table of attacks).

    python tests/targets/hostile.py MODE [PIDFILE]

Every mode answers ``hello`` and then the reference's own score (so it would be conformant),
except for its one attack, made on question 3 only (a fault restarts the target, and one is
enough to show that the run goes on), or on every question for ``skip-all`` (``skip-large``: every
corpus of more than 4 segments or with a hypothesis of more than 10 tokens). A mode that forks
writes the pids it started to PIDFILE, so a test can check that none of them survives the run.
The modes are attacks on the runner (spec CONF-ROBUST), one per defect; ``slow-forking`` is
honest but slow (0.3 s an answer) with three children, to be signalled while the runner waits.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import time
from typing import Any

from reference_bleu import BleuError, corpus_bleu

MODE = sys.argv[1] if len(sys.argv) > 1 else "honest"
PIDFILE = sys.argv[2] if len(sys.argv) > 2 else ""
#: Markup a report could render: a script, an image that runs code, a javascript: link and autolink.
HTML = "<script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3)) <javascript:alert(4)>"
NAMES = {"inject": "hostile\x1b[31m red\r\n| table |", "html": f"hostile {HTML}"}
NAME = NAMES.get(MODE, f"hostile-{MODE}")


ATTACKED_QUESTION = 3
#: slow-forking's cue to a test that the runner is waiting for its answers now.
ANSWERING_QUESTION = 10


def send(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def say(message: dict[str, Any]) -> None:
    send(json.dumps(message).encode("utf-8") + b"\n")


def record(pid: int) -> None:
    with open(PIDFILE, "a", encoding="utf-8") as out:
        out.write(f"{pid}\n")


def sleeper() -> int:
    """A child that would live for an hour, holding our stdout (PIDFILE in its command line, so that
    a walk of the process table finds it)."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)", PIDFILE])
    record(child.pid)
    return child.pid


def daemon() -> None:
    """A grandchild that leaves the tree and the process group (a double fork with ``setpgid``, no
    ``setsid``), its pipes closed as a daemon's are: only the session still leads to it."""
    child = os.fork()
    if child:
        os.waitpid(child, 0)
        return
    os.setpgid(0, 0)
    if os.fork():
        os._exit(0)  # the grandchild goes to init
    record(os.getpid())
    null = os.open(os.devnull, os.O_RDWR)
    for descriptor in (0, 1, 2):
        os.dup2(null, descriptor)
    time.sleep(3600)
    os._exit(0)


@functools.cache
def _public_inputs() -> list[tuple[Any, Any]]:
    from conformance.suite.loader import load_vectors  # noqa: PLC0415

    return [(v.data["hypotheses"], v.data["references"]) for v in load_vectors() if v.scored]


def public(question: dict[str, Any]) -> bool:
    """Whether a question is one a cheat can recognise: a public vector (the skip-everything attack)."""
    return (question["hypotheses"], question["references"]) in _public_inputs()


def score(question: dict[str, Any]) -> float:
    return corpus_bleu(question["hypotheses"], question["references"]).score


ATTACKS: dict[str, Any] = {
    "int400": lambda q, a: {**a, "score": 10**400},
    "matches-str": lambda q, a: {
        **a,
        "statistics": {"matches": ["x"], "totals": [1], "hyp_len": 1, "ref_len": 1},
    },
    "matches-int": lambda q, a: {
        **a,
        "statistics": {"matches": 5, "totals": [1], "hyp_len": 1, "ref_len": 1},
    },
    "hyp-len-str": lambda q, a: {
        **a,
        "statistics": {"matches": [1], "totals": [1], "hyp_len": "abc", "ref_len": 1},
    },
    "ref-len-list": lambda q, a: {
        **a,
        "statistics": {"matches": [1], "totals": [1], "hyp_len": 1, "ref_len": [1]},
    },
    "seq-true": lambda q, a: {**a, "seq": True},
    "seq-float": lambda q, a: {**a, "seq": float(q["seq"])},
    "bp-str": lambda q, a: {**a, "brevity_penalty": "x"},
    "html": lambda q, a: {"type": "result", "seq": a["seq"], "status": "error", "error": HTML},
}


#: Modes that declare ``digits`` (protocol version 2): the digits, and the answer given for a score x
#: on [0, 1] (a percent scale): correctly rounded, one unit of the last decimal off (inside the
#: bounds, which are compared exactly), more
#: decimals than declared, 0.5 for everything strictly between 0 and 100 with 0 digits, and one
#: decimal declared with 0.09 added to every answer (bounds included).
DIGITS: dict[str, tuple[int, Any]] = {
    "digits-honest": (2, lambda x: round(100 * x, 2)),
    "digits-one-unit-off": (2, lambda x: round(round(100 * x, 2) + (0.01 if 0 < x < 0.99 else 0), 2)),
    "digits-more": (2, lambda x: 100 * x + 1e-7),
    "digits-half": (0, lambda x: 0.5 if 0 < x < 1 else round(100 * x)),
    "digits-one-plus-0.09": (1, lambda x: round(100 * x, 1) + 0.09),
}


def attack(message: dict[str, Any], answer: dict[str, Any]) -> None:
    """Answer the attacked question the mode's way."""
    if MODE == "orphan":  # the parent dies; its child still holds stdout open
        os._exit(0)
    if MODE == "hang":  # says so in PIDFILE (the test's cue to signal the runner), then hangs
        record(0)
        time.sleep(3600)
    if MODE == "non-utf8":
        send(b'{"type": "result", "seq": 1, "status": "ok", "score": 0.5, "x": "\xff\xfe"}\n')
        sys.stderr.buffer.write(b"\xff\xfe not UTF-8 either\n")
        sys.stderr.buffer.flush()
    elif MODE == "huge-line":
        send(b'{"type": "result", "pad": "' + b"x" * (8 << 20) + b'"}\n')
    elif MODE == "int5000":
        send(json.dumps(answer).replace(json.dumps(answer["score"]), "9" * 5000).encode() + b"\n")
    elif MODE == "deep":
        send(b"[" * 100_000 + b"]" * 100_000 + b"\n")
    else:
        say(ATTACKS.get(MODE, lambda q, a: a)(message, answer))


def slow(message: dict[str, Any]) -> None:
    """The slow modes' wait before an answer; slow-forking's PIDFILE says, from question 10 on,
    that the runner waits for an answer."""
    if MODE == "slow":
        time.sleep(0.2)
    if MODE == "slow-forking":
        if message["seq"] == ANSWERING_QUESTION:
            record(0)
        time.sleep(0.3)


def start() -> None:
    """What a mode does before its first question: record its pid, start its children."""
    if MODE == "exit-each":  # each process answers one question, then exits: a restart per question
        record(os.getpid())
    if MODE in ("fork", "orphan", "hang"):
        sleeper()
    if MODE == "slow-forking":  # three children, then an answer every 0.3 s
        for _ in range(3):
            sleeper()
    if MODE in ("double-fork", "hang"):
        daemon()


def main() -> None:
    start()
    for raw in sys.stdin.buffer:
        message = json.loads(raw)
        if message["type"] == "stop":
            return
        if message["type"] == "hello":
            say(
                {
                    "type": "capabilities",
                    "protocol": "bleu-conform",
                    "version": 1,
                    "name": NAME,
                    "input": "tokens",
                    "levels": ["corpus"],
                    "statistics": False,
                    **({"version": 2, "digits": DIGITS[MODE][0]} if MODE in DIGITS else {}),
                }
            )
            if MODE == "stop-reading":
                time.sleep(3600)  # never reads again: the runner's writes must not block forever
            continue
        answer: dict[str, Any] = {"type": "result", "seq": message["seq"], "status": "ok"}
        if MODE == "skip-all" and not public(message):
            say({**answer, "status": "skipped", "reason": "not today"})
            continue
        if MODE == "skip-large" and (
            len(message["hypotheses"]) > 4 or max(map(len, message["hypotheses"]), default=0) > 10
        ):
            say({**answer, "status": "skipped", "reason": "too large"})  # what is hard, by size
            continue
        try:
            answer["score"] = score(message)
        except BleuError as error:  # the reference's refusals (no reference, empty corpus)
            say({**answer, "status": "error", "error": str(error)})
            continue
        if MODE in DIGITS:
            answer["score"] = DIGITS[MODE][1](answer["score"])
        slow(message)
        if MODE == "exit-each" and message["seq"] > 1:
            say(answer)
            os._exit(0)
        if message["seq"] != ATTACKED_QUESTION:
            say(answer)
            continue
        attack(message, answer)


if __name__ == "__main__":
    main()
