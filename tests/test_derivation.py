"""The derivation tool (spec CONF-VECTORS): ``python -m conformance.suite.derivation`` checks the
vectors' decimal values against their hand derivations as numbers within each vector's tolerance,
writes only with ``--write``, and then changes nothing but the values it fills in."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.suite.derivation import agrees, main
from conformance.suite.loader import VECTOR_DIR

VECTOR_FILES = sorted(p for p in VECTOR_DIR.glob("*.json") if p.name != "schema.json")


def test_the_tracked_vectors_agree_with_their_derivations(capsys: pytest.CaptureFixture[str]) -> None:
    # conv-019, conv-021 and conv-022 write "1" where the derivation's value prints as "1.0":
    # the same number, which the tool once reported as five disagreements.
    before = {p: p.read_bytes() for p in VECTOR_FILES}
    assert len(before) == 6
    assert main([str(p) for p in VECTOR_FILES]) == 0
    assert capsys.readouterr().err == ""
    assert {p: p.read_bytes() for p in VECTOR_FILES} == before  # checking never writes


def test_write_leaves_complete_vector_files_byte_for_byte(tmp_path: Path) -> None:
    copies = []
    for path in VECTOR_FILES:
        copy = tmp_path / path.name
        copy.write_bytes(path.read_bytes())
        copies.append(copy)
    assert main(["--write", *map(str, copies)]) == 0
    for path, copy in zip(VECTOR_FILES, copies, strict=True):
        assert copy.read_bytes() == path.read_bytes(), path.name


def test_values_are_compared_as_numbers_within_the_tolerance() -> None:
    assert agrees("1", "exp(0)", "1e-30")
    assert agrees("1.0", "1", "1e-30")
    assert agrees("0.5", "1/4 + 1/4", "0")  # exactly equal: even a zero tolerance holds
    # 1/3 - 0.333...3 (k threes) = 1/(3 * 10^k): 3.3e-32 for k = 31 (within 1e-30), 3.3e-30 for k = 29.
    assert agrees("0." + "3" * 31, "1/3", "1e-30")
    assert not agrees("0." + "3" * 29, "1/3", "1e-30")
    assert not agrees("0.5", "1/3", "1e-30")


def vector_file(expected: str, *, compact: bool = False) -> str:
    """A vector file with one test whose ``expected`` members are ``expected`` (JSON text)."""
    if compact:
        return '{"tests": [{"id": "t-001", "expected": {' + expected + "}}]}\n"
    return '{\n "tests": [\n  {\n   "id": "t-001",\n   "expected": {\n' + expected + "\n   }\n  }\n ]\n}\n"


MEMBERS = (
    '    "brevity_penalty": "1.0",\n'
    '    "brevity_penalty_derivation": "1",\n'
    '    "score_derivation": "1/4 + 1/4",\n'
    '    "tolerance": "1e-30"'
)


def test_a_missing_value_is_reported_and_filled_in_only_with_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "v.json"
    path.write_text(vector_file(MEMBERS), encoding="utf-8")
    assert main([str(path)]) == 1
    assert "t-001: score missing, derivation gives 0.5" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == vector_file(MEMBERS)
    assert main(["--write", str(path)]) == 0
    # 1/4 + 1/4 = 0.5, written on a line of its own just before its derivation, same indentation.
    filled = MEMBERS.replace('    "score_derivation"', '    "score": "0.5",\n    "score_derivation"')
    assert path.read_text(encoding="utf-8") == vector_file(filled)
    assert main([str(path)]) == 0


def test_a_compact_layout_is_kept_when_a_value_is_filled_in(tmp_path: Path) -> None:
    members = '"score_derivation": "1/4 + 1/4", "tolerance": "1e-30"'
    path = tmp_path / "v.json"
    path.write_text(vector_file(members, compact=True), encoding="utf-8")
    assert main(["--write", str(path)]) == 0
    expected = vector_file(
        '"score": "0.5", "score_derivation": "1/4 + 1/4", "tolerance": "1e-30"', compact=True
    )
    assert path.read_text(encoding="utf-8") == expected


def test_a_value_that_disagrees_is_reported_and_never_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    members = MEMBERS.replace('"score_derivation"', '"score": "0.4",\n    "score_derivation"')
    path = tmp_path / "v.json"
    path.write_text(vector_file(members), encoding="utf-8")
    assert main(["--write", str(path)]) == 1
    assert capsys.readouterr().err == "t-001: score 0.4 but derivation gives 0.5 (tolerance 1e-30)\n"
    assert path.read_text(encoding="utf-8") == vector_file(members)


@pytest.mark.parametrize(
    ("text", "message"),
    [('{"$schema": "x"}', 'not a vector file (no "tests" list)'), ("{", "not JSON")],
)
def test_a_file_that_is_not_a_vector_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    path = tmp_path / "schema.json"
    path.write_text(text, encoding="utf-8")
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert message in err
    assert path.read_text(encoding="utf-8") == text
