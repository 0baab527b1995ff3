"""The spec, the code and the vectors name the same things (spec README: stable IDs).

Every formula ID (BLEU-*, SMOOTH-*, TOK-*) heads one spec section, opens the docstring of exactly
one function of ``reference_bleu``, and names that function under "Implemented by"; every
formula and edge-case ID is exercised by a vector; every ID a vector, a docstring or an
error message cites exists in the spec.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections import defaultdict
from pathlib import Path
from types import FunctionType

import reference_bleu
from conformance.suite.invariants import BY_ID
from conformance.suite.loader import load_tokenizer_vectors, load_vectors
from reference_bleu.smoothing import SMOOTHING_METHODS

SPEC = Path(__file__).resolve().parent.parent / "spec"
HEADING = re.compile(
    r"^## ((?:BLEU|SMOOTH|TOK|EC|NUM|API|CLI|CONF|CONV|INV|SIG|ATTR|IDENT)(?:-[A-Z0-9]+)*)\b", re.MULTILINE
)
FORMULA = re.compile(r"^(BLEU|SMOOTH|TOK)-")
DOC_ID = re.compile(r"^((?:BLEU|SMOOTH|TOK)(?:-[A-Z0-9]+)+)\. ")
CITED = re.compile(
    r"\b(?:spec |\()((?:BLEU|SMOOTH|TOK|EC|NUM|API|CLI|CONF|CONV|INV|SIG|ATTR|IDENT)(?:-[A-Z0-9]+)*)\b"
)


def spec_sections() -> dict[str, str]:
    """Section ID -> the section's text."""
    sections: dict[str, str] = {}
    for path in sorted(SPEC.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        starts = [(m.start(), m.group(1)) for m in HEADING.finditer(text)]
        for (start, ident), (end, _next) in zip(starts, [*starts[1:], (len(text), "")], strict=False):
            assert ident not in sections, f"{ident} heads two sections"
            sections[ident] = text[start:end]
    return sections


def formula_functions() -> dict[str, list[str]]:
    """Spec ID -> qualified names of the functions whose docstring starts with it."""
    found: dict[str, list[str]] = defaultdict(list)
    for info in pkgutil.iter_modules(reference_bleu.__path__):
        if info.name == "__main__":
            continue
        module = importlib.import_module(f"reference_bleu.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, FunctionType) and obj.__module__ == module.__name__:
                match = DOC_ID.match(inspect.getdoc(obj) or "")
                if match:
                    found[match.group(1)].append(f"{module.__name__}.{name}")
    return found


SECTIONS = spec_sections()
FUNCTIONS = formula_functions()
VECTOR_IDS = {ident for v in load_vectors() for ident in v.data["spec_ids"]}
VECTOR_IDS |= {ident for t in load_tokenizer_vectors() for ident in t["spec_ids"]}


def test_every_formula_id_has_exactly_one_function_named_in_its_section() -> None:
    for ident, text in SECTIONS.items():
        if not FORMULA.match(ident) or ident == "SMOOTH":
            continue
        assert len(FUNCTIONS.get(ident, [])) == 1, f"{ident}: functions {FUNCTIONS.get(ident)}"
        assert f"`{FUNCTIONS[ident][0]}`" in text, f"{ident} does not name {FUNCTIONS[ident][0]}"


def test_every_formula_function_cites_an_id_of_the_spec() -> None:
    assert set(FUNCTIONS) <= set(SECTIONS), set(FUNCTIONS) - set(SECTIONS)


def test_every_formula_and_edge_case_id_has_a_vector() -> None:
    needed = {i for i in SECTIONS if (FORMULA.match(i) or i.startswith("EC-")) and i != "SMOOTH"}
    assert needed - VECTOR_IDS == set()


def test_vectors_cite_only_ids_of_the_spec() -> None:
    assert VECTOR_IDS - set(SECTIONS) == set()


def test_vectors_listed_in_a_section_exist_and_carry_its_id() -> None:
    vectors = {v.id: set(v.data["spec_ids"]) for v in load_vectors()}
    vectors |= {t["id"]: set(t["spec_ids"]) for t in load_tokenizer_vectors()}
    for ident, text in SECTIONS.items():
        line = next((ln for ln in text.splitlines() if ln.startswith("- **Vectors**")), "")
        for vector_id in re.findall(r"\b[a-z0-9]+(?:-[a-z0-9]+)*-\d{3}\b", line):
            assert vector_id in vectors, f"{ident} lists unknown vector {vector_id}"
            if FORMULA.match(ident) or ident.startswith("EC-"):
                assert ident in vectors[vector_id], f"{vector_id} does not carry {ident}"


def test_every_spec_id_cited_in_the_code_exists() -> None:
    root = Path(reference_bleu.__file__).parent
    cited = {
        m.group(1) for path in root.glob("*.py") for m in CITED.finditer(path.read_text(encoding="utf-8"))
    }
    cited |= {
        m.group(1)
        for path in (root.parent / "conformance").glob("*.py")
        for m in CITED.finditer(path.read_text(encoding="utf-8"))
    }
    assert cited - set(SECTIONS) == set()


def test_smoothing_registry_matches_the_spec() -> None:
    assert {m.spec_id for m in SMOOTHING_METHODS.values()} == {i for i in SECTIONS if i.startswith("SMOOTH-")}


def test_every_invariant_has_a_section_and_every_section_an_invariant() -> None:
    assert set(BY_ID) == {i for i in SECTIONS if i.startswith("INV-")}
