"""The bleu-conform protocol: how the runner talks to a target in any language (spec CONF-PROTOCOL).

JSON lines on the target's standard input and output, one object per line, UTF-8:

1. the runner sends ``{"type": "hello", "protocol": "bleu-conform", "version": 2}``; the target
   answers ``{"type": "capabilities", "protocol": "bleu-conform", "version": 2, "name": ...,
   "input": "tokens" | "text", "levels": ["corpus", "sentence"], "statistics": bool}`` (and
   optionally ``"scale": "unit" | "percent"`` and, new in version 2, ``"digits": K``, the
   decimals its scores are rounded to on that scale; a version-1 answer, without ``digits``,
   is still accepted; and ``"references": "one" | "same" | "any"``, the references per segment
   it takes: exactly one, the same number for every segment, or any number (the default); the
   runner then asks only corpora it can express, conformance.runner.references), or
   ``{"type": "unavailable", "reason": ..., "install": ...}`` when it cannot run here;
2. for each question the runner sends ``{"type": "score", "seq": N, "level": "corpus" |
   "sentence", "hypotheses": [...], "references": [[...], ...]}`` (one list of references per
   hypothesis; token lists, or lines of text when ``input`` is ``text``; a sentence question has
   one hypothesis; and, to a target that declares ``"contexts"``, optionally ``"context":
   "thread" | "fork"``: call the target in a worker thread, or in a child process forked for
   the question) and the target answers ``{"type": "result", "seq": N,
   "status": "ok", "score": x}`` (optionally ``"statistics": {"matches", "totals",
   "hyp_len", "ref_len"}`` and ``"brevity_penalty"``), ``"status": "skipped"`` with a
   ``reason`` (it does not take this input), or ``"status": "error"`` with an ``error``;
3. the runner sends ``{"type": "stop"}`` and the target exits.

The messages' JSON Schema is ``protocol.schema.json`` beside this file; the contract is
versioned by ``version`` and a target that speaks a version not in ``SUPPORTED_VERSIONS`` is
refused.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

from conformance.runner.references import REFERENCE_KINDS

#: Bound at import, before a harness imports its target (which could replace the modules' functions).
loads_json = json.loads
_dumps_json = json.dumps
_sha256 = hashlib.sha256

PROTOCOL = "bleu-conform"
VERSION = 2
#: Versions a target may answer in: 1 (no ``digits``) and 2.
SUPPORTED_VERSIONS = (1, 2)
#: The most decimals a target may declare: a double holds 17 significant digits.
MAX_DIGITS = 17
#: Where a question may ask a Python target to be called (the harness declares both): in a worker
#: thread, or in a child process forked for the question (spec CONF-OPEN).
CONTEXTS = ("thread", "fork")
SCHEMA_PATH = Path(__file__).with_name("protocol.schema.json")


def load_schema() -> dict[str, Any]:
    """The JSON Schema of every message of the protocol."""
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


def hello() -> dict[str, Any]:
    """The runner's first message."""
    return {"type": "hello", "protocol": PROTOCOL, "version": VERSION}


def encode(message: dict[str, Any]) -> str:
    """One message as one line (NaN and infinities kept as JSON's common extension)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"


# --- reading what a target says (spec CONF-ROBUST): validated before it is used -----------------

#: The longest integer literal read from a target (a count above 10^40 is no BLEU statistic).
MAX_INTEGER_DIGITS = 40
#: How much of an offending answer a fault quotes.
QUOTE_CHARS = 160


class ProtocolViolationError(Exception):
    """A target's line that is not a message of the protocol; the text says why, quoting it (bounded)."""


def quote(text: str | bytes) -> str:
    """At most :data:`QUOTE_CHARS` characters of ``text``, as a repr (control characters escaped)."""
    shown = text[:QUOTE_CHARS]
    more = f"... ({len(text)} in all)" if len(text) > QUOTE_CHARS else ""
    return repr(shown) + more


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ValueError(f"an integer of {len(digits)} digits")
    return int(digits)


def read_message(line: bytes) -> dict[str, Any]:
    """One line of a target as a JSON object; anything else is a :class:`ProtocolViolationError`.

    Strict UTF-8; integers of at most :data:`MAX_INTEGER_DIGITS` digits; NaN and infinities
    are read (and judged later as the faults they are); nesting as deep as Python parses.
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProtocolViolationError(
            f"not UTF-8 ({error.reason} at byte {error.start}): {quote(line)}"
        ) from None
    try:
        message = json.loads(text, parse_int=_bounded_int)
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise ProtocolViolationError(f"not JSON ({str(error)[:80]}): {quote(text.rstrip())}") from None
    if not isinstance(message, dict):
        raise ProtocolViolationError(f"not a JSON object: {quote(text.rstrip())}")
    return message


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _check_statistics(stats: Any) -> str | None:
    """Why ``stats`` is not a statistics object of the protocol, or None."""
    if not isinstance(stats, dict):
        return "statistics is not an object"
    matches, totals = stats.get("matches"), stats.get("totals")
    for name, counts in (("matches", matches), ("totals", totals)):
        if not isinstance(counts, list) or not all(_is_int(x) and x >= 0 for x in counts):
            return f"statistics.{name} is not a list of non-negative integers"
    if len(matches) != len(totals):  # type: ignore[arg-type]
        return "statistics.matches and statistics.totals differ in length"
    if not (_is_int(stats.get("hyp_len")) and stats["hyp_len"] >= 0):
        return "statistics.hyp_len is not a non-negative integer"
    ref_len: Any = stats.get("ref_len")
    if not (_is_number(ref_len) and math.isfinite(ref_len) and ref_len >= 0):
        return "statistics.ref_len is not a finite non-negative number"
    return None


def check_result(answer: dict[str, Any], seq: int) -> None:
    """Raise :class:`ProtocolViolationError` unless ``answer`` is a result message for question ``seq``.

    The score itself is judged by the caller (a wrong type, NaN, an infinity or a value out of
    range are faults of their own kinds); everything else must be as the schema says.
    """
    problem: str | None = None
    if answer.get("type") != "result":
        problem = "not a result message"
    elif not _is_int(answer.get("seq")) or answer["seq"] != seq:
        problem = f"seq is not the integer {seq}"
    elif answer.get("status") not in ("ok", "skipped", "error"):
        problem = "status is not ok, skipped or error"
    elif "statistics" in answer and answer["statistics"] is not None:
        problem = _check_statistics(answer["statistics"])
    if problem is None and answer.get("brevity_penalty") is not None:
        bp = answer["brevity_penalty"]
        if not (_is_number(bp) and math.isfinite(bp)):
            problem = "brevity_penalty is not a finite number"
    if problem is None and not isinstance(answer.get("mutated", False), bool):
        problem = "mutated is not a boolean"
    if problem is None and not isinstance(answer.get("input_digest", ""), str):
        problem = "input_digest is not a string"
    for key in ("reason", "error"):
        if problem is None and not isinstance(answer.get(key, ""), str):
            problem = f"{key} is not a string"
    if problem is not None:
        raise ProtocolViolationError(f"{problem}: {quote(json.dumps(answer, ensure_ascii=False))}")


def check_capabilities(answer: dict[str, Any]) -> None:
    """Raise :class:`ProtocolViolationError` unless ``answer`` is a capabilities message of this version."""
    problem: str | None = None
    if answer.get("type") != "capabilities" or answer.get("protocol") != PROTOCOL:
        problem = "not a capabilities message of the bleu-conform protocol"
    elif not _is_int(answer.get("version")) or answer.get("version") not in SUPPORTED_VERSIONS:
        problem = f"protocol version {answer.get('version')!r}; this runner speaks {SUPPORTED_VERSIONS}"
    elif "digits" in answer and (
        answer["version"] < 2 or not _is_int(answer["digits"]) or not 0 <= answer["digits"] <= MAX_DIGITS
    ):
        problem = f"digits is not an integer in 0..{MAX_DIGITS} of a version-2 answer"
    elif not isinstance(answer.get("name", ""), str):
        problem = "name is not a string"
    elif answer.get("input", "tokens") not in ("tokens", "text"):
        problem = "input is not tokens or text"
    elif not (
        isinstance(answer.get("levels"), list)
        and answer["levels"]
        and all(level in ("corpus", "sentence") for level in answer["levels"])
    ):
        problem = "levels is not a non-empty list of corpus and sentence"
    elif answer.get("references", "any") not in REFERENCE_KINDS:
        problem = f"references is not one of {', '.join(REFERENCE_KINDS)}"
    elif not isinstance(answer.get("statistics", False), bool):
        problem = "statistics is not a boolean"
    elif answer.get("scale") not in (None, "unit", "percent"):
        problem = "scale is not unit or percent"
    elif not (
        isinstance(answer.get("contexts", []), list)
        and all(context in CONTEXTS for context in answer.get("contexts", []))
    ):
        problem = f"contexts is not a list of {', '.join(CONTEXTS)}"
    elif not (
        isinstance(answer.get("versions", {}), dict)
        and all(isinstance(v, str) for v in answer.get("versions", {}).values())
    ):
        problem = "versions is not an object of strings"
    if problem is not None:
        raise ProtocolViolationError(f"{problem}: {quote(json.dumps(answer, ensure_ascii=False))}")


def input_digest(hypotheses: Any, references: Any) -> str:
    """The SHA-256 of a question's input in canonical JSON: a harness's report of what its target left.

    The runner compares it with the digest of what it sent (spec CONF-ROBUST): an input the
    target changed gives another digest, whatever the target did to the harness's own copy.
    """
    canonical = _dumps_json([hypotheses, references], ensure_ascii=False, separators=(",", ":"))
    return _sha256(canonical.encode("utf-8")).hexdigest()
