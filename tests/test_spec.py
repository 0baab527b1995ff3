"""The spec, the code and the vectors name the same things (spec README: stable IDs).

Every formula ID (BLEU-*, SMOOTH-*, TOK-*) heads one spec section, opens the docstring of exactly
one function of ``reference_bleu``, and names that function under "Implemented by"; every
section of every family but the generated DIV entries names its implementation, which is
imported and whose docstring cites the section; every formula and edge-case ID is exercised
by a vector; every ID a vector or any code file (every package and subfolder, tests and
benchmarks too) cites exists in the spec.
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
from reference_bleu.conventions.profiles import PROFILES, axis_values
from reference_bleu.conventions.profiles import resolve as resolve_profile
from reference_bleu.conventions.tables import generated_chapter
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"
#: Every family of spec IDs (spec README's table).
FAMILIES = tuple("BLEU SMOOTH TOK EC NUM API CLI CONF CONV INV SIG DIV ATTR IDENT".split())
_FAMILY = "|".join(FAMILIES)
HEADING = re.compile(rf"^###? ((?:{_FAMILY})(?:-[A-Z0-9]+)*)\b", re.MULTILINE)
#: Any heading of a section or subsection: a section ends at the next one.
ANY_HEADING = re.compile(r"^###? ", re.MULTILINE)
FORMULA = re.compile(r"^(BLEU|SMOOTH|TOK)-")
DOC_ID = re.compile(r"^((?:BLEU|SMOOTH|TOK)(?:-[A-Z0-9]+)+)\. ")
#: A hyphenated ID anywhere (``EC-003``, ``(EC-003)``, ``( EC-003)``, ``spec TOK-13A's``); ``-*`` after
#: it names every ID with that prefix (``DIV-SACREBLEU-TOK-*``).
CITED = re.compile(rf"(?<![A-Za-z0-9_-])((?:{_FAMILY})(?:-[A-Z0-9]+)+)(-\*)?(?![A-Za-z0-9_])")
#: The IDs without a hyphen (``API``, ``CLI``, ``SMOOTH``) are citations only after "spec " or "("
#: (a space allowed): elsewhere they are words.
CITED_BARE = re.compile(r"(?:\bspec |\(\s*)(API|CLI|SMOOTH|ATTR|IDENT)(?![A-Za-z0-9_-])")
#: The folders whose code may cite the spec, every subfolder included.
CODE = ("reference_bleu", "conformance", "tests", "benchmarks")
#: The implementing functions named in a section: backticked dotted names after "Implemented by".
IMPLEMENTED = re.compile(r"Implemented by(?:\*\*)?:?(.*?)(?=\n- |\n\n|Vectors:|\Z)", re.DOTALL)
#: Sections generated from data (chapter 10's divergences name their records, not a function).
GENERATED = re.compile(r"^DIV-")


def spec_sections() -> dict[str, str]:
    """Section ID -> the section's text, up to the next heading."""
    sections: dict[str, str] = {}
    for path in sorted(SPEC.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for m in HEADING.finditer(text):
            ident = m.group(1)
            assert ident not in sections, f"{ident} heads two sections"
            following = ANY_HEADING.search(text, m.end())
            sections[ident] = text[m.start() : following.start() if following else len(text)]
    return sections


def formula_functions() -> dict[str, list[str]]:
    """Spec ID -> qualified names of the functions whose docstring starts with it."""
    found: dict[str, list[str]] = defaultdict(list)
    for info in pkgutil.walk_packages(reference_bleu.__path__, "reference_bleu."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
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


def code_files() -> list[Path]:
    """Every Python file of the packages, the tests and the benchmarks, every subfolder included."""
    return sorted(path for folder in CODE for path in (ROOT / folder).rglob("*.py"))


def cited_ids(text: str) -> set[str]:
    """The spec IDs ``text`` cites; a prefix cited as ``PREFIX-*`` is returned as ``PREFIX-*``."""
    found = {m.group(1) + (m.group(2) or "") for m in CITED.finditer(text)}
    return found | {m.group(1) for m in CITED_BARE.finditer(text)}


def exists(ident: str) -> bool:
    if ident.endswith("-*"):
        return any(s.startswith(ident[:-1]) for s in SECTIONS)
    return ident in SECTIONS


def test_the_citation_pattern_finds_every_form() -> None:
    text = "see (EC-003), ( EC-015), spec TOK-13A's step 4, BLEU-EVAL. (spec API) ( SMOOTH) and DIV-NLTK-*"
    assert cited_ids(text) == {"EC-003", "EC-015", "TOK-13A", "BLEU-EVAL", "API", "SMOOTH", "DIV-NLTK-*"}
    assert cited_ids("an API of the CLI, NEC-003, EC-003x, my_EC-003") == set()


def test_the_code_folders_include_every_subpackage() -> None:
    folders = {path.parent.relative_to(ROOT).as_posix() for path in code_files()}
    assert {"conformance/runner/fingerprint", "conformance/runner/judge", "conformance/suite"} <= folders


def test_every_spec_id_cited_in_the_code_exists() -> None:
    unknown = {
        f"{path.relative_to(ROOT)}: {ident}"
        for path in code_files()
        for ident in cited_ids(path.read_text(encoding="utf-8"))
        if not exists(ident)
    }
    assert unknown == set()


def resolve(name: str) -> object:
    """The module, class or function a dotted name of the spec names, imported."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for attr in parts[split:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(name)


def implementers(text: str) -> list[str]:
    """The dotted names a section gives after "Implemented by" (other backticked words are comments)."""
    return [
        name
        for chunk in IMPLEMENTED.findall(text)
        for name in re.findall(r"`([A-Za-z_][\w.]*)`", chunk)
        if "." in name or name in UNQUALIFIED
    ]


#: Names of this project that, written alone after "Implemented by", would name nothing importable.
UNQUALIFIED = {"fast_13a", "fast_intl", "fast_zh", "statistics_document", "p_value", "bootstrap_interval"}


def test_every_section_of_every_family_names_its_implementation() -> None:
    families = {ident.split("-")[0] for ident in SECTIONS}
    assert families == set(FAMILIES), families ^ set(FAMILIES)
    missing = [i for i, text in SECTIONS.items() if not GENERATED.match(i) and not implementers(text)]
    assert missing == []


def test_every_implementation_exists_and_cites_its_section() -> None:
    wrong = []
    for ident, text in SECTIONS.items():
        for name in implementers(text):
            if not name.startswith(("reference_bleu.", "conformance.", "tests.")):
                wrong.append(f"{ident}: {name} is not a qualified name")
                continue
            doc = inspect.getdoc(resolve(name)) or ""
            if ident not in cited_ids(doc) and not doc.startswith(f"{ident}."):
                wrong.append(f"{ident}: the docstring of {name} does not cite it")
    assert wrong == []


def test_every_generated_divergence_is_a_record_of_the_peers() -> None:
    records = {
        m.group(1)
        for path in (ROOT / "conformance" / "peers").rglob("*.py")
        for m in re.finditer(r'\bid="(DIV-[A-Z0-9-]+)"', path.read_text(encoding="utf-8"))
    }
    assert records == {i for i in SECTIONS if GENERATED.match(i)}


def test_smoothing_registry_matches_the_spec() -> None:
    assert {m.spec_id for m in SMOOTHING_METHODS.values()} == {i for i in SECTIONS if i.startswith("SMOOTH-")}


def test_every_invariant_has_a_section_and_every_section_an_invariant() -> None:
    assert set(BY_ID) == {i for i in SECTIONS if i.startswith("INV-")}


def markdown_rows(text: str, header: str) -> dict[str, list[str]]:
    """The rows of the Markdown table whose header line starts with ``header``: profile -> cells."""
    lines = text[text.index(header) :].splitlines()
    rows: dict[str, list[str]] = {}
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells
    return rows


def first_code(cell: str) -> str:
    """The first backticked value of a table cell (what follows it is a comment)."""
    return cell.split("`")[1]


CHAPTER_13 = (SPEC / "13-conventions.md").read_text(encoding="utf-8")


def test_the_spec_tables_are_generated_from_the_registry_and_the_profiles() -> None:
    # CONV-SPACE, CONV-PROFILES: the axes, their values, the profiles and their text rules are
    # written once in the code; the chapter shows them as reference_bleu.conventions.tables writes them.
    assert generated_chapter(CHAPTER_13) == CHAPTER_13, (
        "run python -m reference_bleu.conventions.tables --write"
    )
    options = (SPEC / "04-corpus.md").read_text(encoding="utf-8")  # API-OPTIONS' table of the options
    assert generated_chapter(options, SPEC / "04-corpus.md") == options, (
        "python -m reference_bleu.conventions.tables --write"
    )
    settings = markdown_rows(CHAPTER_13, "| profile | tool, version | what it is")
    text = markdown_rows(CHAPTER_13, "| profile | the tool takes |")
    assert set(settings) == set(text) == set(PROFILES)
    for name in PROFILES:
        axes = axis_values(resolve_profile(name))
        columns = {"tokenize": 2, "lowercase": 3, "case_order": 4, "split": 5}
        assert {k: first_code(text[name][i]) for k, i in columns.items()} == {k: axes[k] for k in columns}, (
            name
        )


def test_every_id_cited_in_the_spec_and_the_data_exists() -> None:
    texts = [*SPEC.glob("*.md"), *(ROOT / "conformance").rglob("*.json")]
    unknown = {
        f"{path.relative_to(ROOT)}: {ident}"
        for path in texts
        for ident in cited_ids(path.read_text(encoding="utf-8"))
        if not exists(ident)
    }
    assert unknown == set()
