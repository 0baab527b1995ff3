"""Load the language-neutral test vectors of ``conformance/suite/vectors/`` (schema: ``schema.json``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

VECTOR_DIR = Path(__file__).parent / "vectors"
SCHEMA_PATH = VECTOR_DIR / "schema.json"
#: Tokenizer vectors: a line of text, a tokenizer and case folding, and the expected tokens.
TOKENIZER_VECTORS_PATH = Path(__file__).parent / "tokenizer-vectors.json"
#: The ledger of every vector ID ever issued, and of the retired ones (IDs are never reused).
LEDGER_PATH = Path(__file__).parent / "vector-ids.json"
#: The tools' own answers (spec chapter 16, CONF-TOOL-VECTORS): one file per tool, and their schema.
TOOL_VECTOR_DIR = Path(__file__).parent / "tools"
TOOL_VECTOR_SCHEMA_PATH = TOOL_VECTOR_DIR / "schema.json"
#: The tools, by the file of their vectors.
TOOLS = ("sacrebleu", "multi-bleu", "mteval", "nltk")


@dataclass(frozen=True)
class Vector:
    """One test case, with the group file it came from."""

    group: str
    file: str
    data: dict[str, Any]

    @property
    def id(self) -> str:
        """The stable ID of the case."""
        return str(self.data["id"])

    @property
    def expected(self) -> dict[str, Any]:
        """What the case expects: statistics and score, or an ``error`` spec ID."""
        expected: dict[str, Any] = self.data["expected"]
        return expected

    @property
    def is_error(self) -> bool:
        """True when the case expects a BleuError."""
        return "error" in self.expected

    @property
    def scored(self) -> bool:
        """A score inside BLEU's domain: not an error, a corpus of at least one segment, every
        segment with a reference (vectors of EC-006 and EC-012 conventions are outside: peers
        and targets are never asked them)."""
        return not self.is_error and bool(self.data["hypotheses"]) and all(self.data["references"])

    def api_options(self) -> dict[str, Any]:
        """The case's options as keyword arguments of the reference API."""
        return dict(self.data["options"])

    def expected_score(self) -> Decimal:
        """The expected score as a Decimal."""
        return Decimal(self.expected["score"])

    def expected_ref_len(self) -> int | Fraction:
        """The expected r: an int, or a Fraction given as "p/q"."""
        value = self.expected["ref_len"]
        return value if isinstance(value, int) else Fraction(value)


def vector_files() -> list[Path]:
    """Every vector file (not the schema), in name order."""
    return sorted(p for p in VECTOR_DIR.glob("*.json") if p != SCHEMA_PATH)


def load_file(path: Path) -> dict[str, Any]:
    """One vector file as parsed JSON."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def load_schema() -> dict[str, Any]:
    """The JSON Schema of a vector file."""
    return load_file(SCHEMA_PATH)


def load_ledger() -> tuple[list[str], dict[str, str]]:
    """The issued IDs, in order of issue, and the retired ones with the reason each was retired."""
    data = load_file(LEDGER_PATH)
    return list(data["issued"]), dict(data["retired"])


def load_tokenizer_vectors() -> list[dict[str, Any]]:
    """Every tokenizer vector (spec 11): id, spec_ids, description, tokenize, lowercase, text, tokens."""
    tests: list[dict[str, Any]] = load_file(TOKENIZER_VECTORS_PATH)["tests"]
    return tests


def load_vectors() -> Iterator[Vector]:
    """Every test case of every vector file (spec CONF-VECTORS)."""
    for path in vector_files():
        data = load_file(path)
        for test in data["tests"]:
            yield Vector(group=data["group"], file=path.name, data=test)


def load_tool_vectors(tool: str) -> dict[str, Any]:
    """CONF-TOOL-VECTORS. One tool's recorded answers (``sacrebleu``, ``multi-bleu``, ``mteval``,
    ``nltk``): the file's header and its ``tests``."""
    if tool not in TOOLS:
        raise ValueError(f"no tool vectors for {tool!r}; known: {', '.join(TOOLS)}")
    return load_file(TOOL_VECTOR_DIR / f"{tool}.json")
