"""The bleu-conform protocol: how the runner talks to a target in any language (spec CONF-PROTOCOL).

JSON lines on the target's standard input and output, one object per line, UTF-8:

1. the runner sends ``{"type": "hello", "protocol": "bleu-conform", "version": 1}``; the target
   answers ``{"type": "capabilities", "protocol": "bleu-conform", "version": 1, "name": ...,
   "input": "tokens" | "text", "levels": ["corpus", "sentence"], "statistics": bool}``, or
   ``{"type": "unavailable", "reason": ..., "install": ...}`` when it cannot run here;
2. for each question the runner sends ``{"type": "score", "seq": N, "level": "corpus" |
   "sentence", "hypotheses": [...], "references": [[...], ...]}`` (one list of references per
   hypothesis; token lists, or space-joined strings when ``input`` is ``text``; a sentence
   question has one hypothesis) and the target answers ``{"type": "result", "seq": N,
   "status": "ok", "score": x}`` (optionally ``"statistics": {"matches", "totals",
   "hyp_len", "ref_len"}`` and ``"brevity_penalty"``), ``"status": "skipped"`` with a
   ``reason`` (it does not take this input), or ``"status": "error"`` with an ``error``;
3. the runner sends ``{"type": "stop"}`` and the target exits.

The messages' JSON Schema is ``protocol.schema.json`` beside this file; the contract is
versioned by ``version`` and a target that speaks another version is refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PROTOCOL = "bleu-conform"
VERSION = 1
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
