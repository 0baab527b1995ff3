"""The fault catalogue (spec CONF-DIAGNOSIS): its data well formed, and each fault's computation
(conformance/faults/computations.py) equal to the values computed by hand in the catalogue and to
tests/targets/faulty.py, an independent implementation of every fault (the standard library only,
written from the catalogue's descriptions, importing neither reference_bleu nor conformance).

Expected values come from the catalogue's hand computations (each entry's ``example``: the
paper's value and the fault's, with the arithmetic written out) and from faulty.py, never from
the computations under test.
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from conformance.faults.catalogue import PATH, by_id, catalogue
from conformance.faults.computations import COMPUTATIONS
from conformance.faults.mutations import ERROR
from reference_bleu.api import corpus_bleu
from reference_bleu.conventions.options import make_options
from tests.targets import faulty
from tests.test_spec import exists

ENTRIES: list[dict[str, Any]] = __import__("json").loads(PATH.read_text(encoding="utf-8"))["faults"]
IDS = [e["id"] for e in ENTRIES]
FIELDS = {
    "id": str,
    "meaning": str,
    "mutation": str,
    "breaks": list,
    "seen_in": list,
    "confused_with": list,
    "question": str,
    "example": dict,
}
REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*")
#: A fault's value in an example where the faulty code raises: "raises IndexError".
RAISES = re.compile(r"raises ([A-Za-z]+Error)")


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


# --- the catalogue's data ------------------------------------------------------------------------


def test_ids_are_unique_fault_ids_and_the_same_in_the_computations_and_in_faulty_py() -> None:
    assert len(IDS) == len(set(IDS)) >= 25
    assert all(re.fullmatch(r"FAULT-[A-Z0-9]+(-[A-Z0-9]+)*", i) for i in IDS), IDS
    assert set(IDS) == set(COMPUTATIONS) == set(faulty.FAULTS)
    assert [f.id for f in catalogue()] == IDS


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_every_field_is_present_and_typed(entry: dict[str, Any]) -> None:
    assert set(entry) - {"note"} == set(FIELDS), set(entry) ^ set(FIELDS)
    for name, kind in FIELDS.items():
        assert isinstance(entry[name], kind), name
    assert isinstance(entry.get("note", ""), str)
    for name in ("meaning", "mutation", "question"):
        assert entry[name].strip(), name
    assert entry["breaks"]
    assert all(isinstance(b, str) for b in entry["breaks"])
    assert all(isinstance(c, str) and c.strip() for c in entry["confused_with"])


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_breaks_are_spec_ids_that_exist(entry: dict[str, Any]) -> None:
    assert [b for b in entry["breaks"] if not exists(b)] == []


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_confused_with_names_only_faults_of_the_catalogue(entry: dict[str, Any]) -> None:
    """An item is a fault of the catalogue (by ID) or a convention in words, never a fault ID that
    does not exist nor the entry itself."""
    named = [c for c in entry["confused_with"] if c.startswith("FAULT-")]
    assert all(c in IDS and c != entry["id"] for c in named), named


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_seen_in_items_are_well_formed(entry: dict[str, Any]) -> None:
    """An issue or pull request: its repository (owner/name) and number, the ref ``owner/name#N``;
    a commit: its repository and hash; code: its repository, or none with a note saying why; every
    item quotes what was read. No report at all: a note saying so."""
    if not entry["seen_in"]:
        assert entry.get("note", "").strip(), "seen nowhere and no note says so"
    for item in entry["seen_in"]:
        assert item["kind"] in ("issue", "pr", "commit", "code"), item
        assert isinstance(item["ref"], str)
        assert item["ref"].strip()
        assert isinstance(item["quote"], str)
        assert item["quote"].strip()
        assert isinstance(item["where"], str)
        if item["kind"] in ("issue", "pr"):
            assert isinstance(item["number"], int)
            assert not isinstance(item["number"], bool)
            assert item["number"] > 0
            assert REPO.fullmatch(item["repo"]), item["repo"]
            assert item["ref"] == f"{item['repo']}#{item['number']}"
        elif item["kind"] == "commit":
            assert REPO.fullmatch(item["repo"]), item["repo"]
            assert re.fullmatch(r"[0-9a-f]{7,40}", item["commit"]), item["commit"]
        elif item["repo"] is None:
            assert item.get("note", "").strip(), "code of no repository and no note says why"
        else:
            assert REPO.fullmatch(item["repo"]), item["repo"]


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_the_example_is_typed_and_separates(entry: dict[str, Any]) -> None:
    example = entry["example"]
    assert set(example) == {
        "hyps",
        "refs",
        "paper_value",
        "paper_arithmetic",
        "fault_value",
        "fault_arithmetic",
    }
    assert isinstance(example["paper_value"], float)
    assert isinstance(example["fault_value"], float) or RAISES.fullmatch(example["fault_value"])
    assert example["paper_arithmetic"].strip()
    assert example["fault_arithmetic"].strip()
    assert len(example["hyps"]) == len(example["refs"])
    if isinstance(example["fault_value"], float):
        assert not _close(example["fault_value"], example["paper_value"])


# --- the computations against the hand values and faulty.py --------------------------------------


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_each_computation_gives_its_hand_computed_example(entry: dict[str, Any]) -> None:
    """The fault's value in the catalogue (computed by hand, the arithmetic beside it) is what the
    computation predicts at the paper's point, and what faulty.py's function answers; the paper's
    value is the reference's and faulty.py's paper_bleu."""
    example = entry["example"]
    hyps, refs = example["hyps"], example["refs"]
    assert _close(corpus_bleu(hyps, refs).score, example["paper_value"])
    assert _close(faulty.paper_bleu(hyps, refs), example["paper_value"])
    predicted = by_id()[entry["id"]].compute(make_options(), hyps, refs)
    independent = faulty.FAULTS[entry["id"]]
    if isinstance(example["fault_value"], float):
        assert isinstance(predicted, float)
        assert _close(predicted, example["fault_value"])
        assert _close(independent(hyps, refs), example["fault_value"])
    else:
        error = RAISES.fullmatch(example["fault_value"])
        assert error is not None
        assert predicted == ERROR
        with pytest.raises(Exception) as raised:  # noqa: PT011 -- the exception's name is checked
            independent(hyps, refs)
        assert type(raised.value).__name__ == error.group(1)


def test_faulty_self_test(capsys: pytest.CaptureFixture[str]) -> None:
    """faulty.py's own examples (its hand values, and the paper's Example 1) all hold."""
    faulty.self_test()
    assert "ok:" in capsys.readouterr().out


def test_faulty_py_examples_are_the_catalogues() -> None:
    """faulty.py's hand values and the catalogue's are the same numbers (two hand computations)."""
    for entry in ENTRIES:
        mine, theirs = faulty.EXAMPLES[entry["id"]], entry["example"]
        assert _close(float(mine["paper"]), theirs["paper_value"]), entry["id"]
        if isinstance(theirs["fault_value"], float):
            assert not isinstance(mine["fault"], type)
            assert _close(float(mine["fault"]), theirs["fault_value"]), entry["id"]
        else:
            assert isinstance(mine["fault"], type), entry["id"]


TOKENS = st.sampled_from(["a", "b", "c", "d"])
SENTENCE = st.lists(TOKENS, max_size=8)


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[list[str]], list[list[list[str]]]]:
    """1 to 3 segments over a 4-word vocabulary (repeats, shared n-grams), 1 to 3 references each
    (the same number in every segment, or not), sentences of 0 to 8 tokens (empty ones too)."""
    segments = draw(st.integers(1, 3))
    hyps = draw(st.lists(SENTENCE, min_size=segments, max_size=segments))
    width = draw(st.integers(1, 3))
    counts = draw(
        st.one_of(
            st.just([width] * segments), st.lists(st.integers(1, 3), min_size=segments, max_size=segments)
        )
    )
    refs = [draw(st.lists(SENTENCE, min_size=k, max_size=k)) for k in counts]
    return hyps, refs


@pytest.mark.parametrize("fault", IDS)
@hypothesis_settings(max_examples=40)
@given(corpus=corpora(), order=st.integers(1, 4))
def test_each_computation_equals_faulty_py(
    fault: str, corpus: tuple[list[list[str]], list[list[list[str]]]], order: int
) -> None:
    """The computation at the paper's point with N = ``order`` against faulty.py's function with the
    same N, on generated corpora. How a prediction is compared: a score to within 1e-9; ERROR (the
    faulty code raises) against faulty.py raising; None (the fault says nothing there: a BP fault at
    c = 0) is not compared. FAULT-EMPTY-SHIFT on hypotheses all empty is left out: it drops them
    all, and what an empty corpus scores is a choice outside BLEU's domain (EC-012: faulty.py's
    paper_bleu scores it 0, the reference at the paper's point refuses it), not the fault's."""
    hyps, refs = corpus
    if fault == "FAULT-EMPTY-SHIFT" and not any(hyps):
        return
    predicted = by_id()[fault].compute(make_options(max_order=order), hyps, refs)
    if predicted is None:
        return
    try:
        answer: float | None = faulty.FAULTS[fault](hyps, refs, order)  # type: ignore[call-arg]
    except Exception:
        answer = None
    if predicted == ERROR:
        assert answer is None, f"faulty.py answered {answer}, the computation predicts an error"
    else:
        assert isinstance(predicted, float)
        assert answer is not None, "faulty.py raised, the computation predicts a score"
        assert _close(predicted, answer), (predicted, answer)


def test_the_guide_lists_every_fault_with_its_meaning() -> None:
    """docs/faults.md's catalogue table has one row per entry, in the catalogue's order: its ID and
    its meaning, as catalogue.json says them (a ``|`` in it escaped, as Markdown tables need)."""
    page = (PATH.parents[2] / "docs" / "faults.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| `FAULT-")]
    assert [row.split("`")[1] for row in rows] == IDS
    for row, entry in zip(rows, ENTRIES, strict=True):
        cells = re.split(r"(?<!\\) \| ", row)
        assert cells[1].replace("\\|", "|") == entry["meaning"], entry["id"]
