"""Output a person can read: the conform matrix and ``profiles`` within 100 columns, the matrix's
legend, ``conform --explain ID``, the Quick start's exit status, and ``explain --profile`` showing
each order as the profile computes it (spec CONF-REPORT, CONV-PROFILES, CLI)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reference_bleu.cli.main import main

pytest.importorskip("hypothesis", reason="the conform runner needs the conform extra (hypothesis)")

from conformance.runner.fingerprint import BY_ID
from conformance.runner.judge.base import Check
from conformance.runner.legend import column_widths, fitted, table
from conformance.runner.report import details, matrix
from conformance.runner.run import TargetReport

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 100


def _report(name: str, statuses: dict[str, str]) -> TargetReport:
    """A target's report with the long cells real runs print (FP details, divergences)."""
    fingerprint = "fingerprint"
    checks = [
        Check(
            "FP-PRECISION",
            "",
            "pass",
            "binary64: within 1e-9 of the exact score",
            ("CONV-ARITH",),
            family=fingerprint,
        ),
        Check("FP-REF-LENGTH", "", "pass", "closest, ties to the shorter", ("EC-001",), family=fingerprint),
        Check(
            "FP-ZERO",
            "",
            statuses.get("FP-ZERO", "pass"),
            "nltk method0 (equally: nltk method1)",
            ("EC-002",),
            explained_by=("DIV-NLTK-001", "DIV-NLTK-002"),
            family=fingerprint,
        ),
        Check(
            "FP-UNDEFINED",
            "",
            "pass",
            "zero: an order without n-grams counts as p_n = 0",
            ("EC-003",),
            family=fingerprint,
        ),
        Check(
            "INV-EMPTY-SEGMENT",
            "",
            statuses.get("INV", "pass"),
            "",
            ("INV-EMPTY-SEGMENT",),
            family="invariant",
        ),
        Check("INV-CLIP", "", "n/a", "", ("INV-CLIP",), family="invariant"),
        Check("ROB-TIMEOUT", "", "pass", "412 calls", ("CONF-ROBUST",), family="robustness", fault="timeout"),
    ]
    return TargetReport(f"{name}-target", name, True, False, checks, {}, {})


NAMES = ["reference", "nltk[method=0]", "sacrebleu[smooth=exp]", "bleuscore", "torchmetrics[n_gram=4]"]


def test_the_matrix_of_five_targets_fits_100_columns() -> None:
    reports = [_report(n, {"FP-ZERO": "explained", "INV": "explained"}) for n in NAMES]
    text = matrix(reports, markdown=False)
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    assert text.count("\nFP-ZERO ") == 1
    assert text.count("\nverdict ") == 1


def test_a_wrapped_table_keeps_every_cell_in_its_column() -> None:
    rows = [
        ["check", *NAMES],
        ["FP-ZERO", *(["DIVERGES: nltk method0 (DIV-NLTK-001, DIV-NLTK-002)"] * 5)],
        ["FP-PRECISION", *(["pass: binary64"] * 5)],
        ["verdict", "conformant", "VARIANT", "VARIANT", "NOT CONFORMANT", "INSUFFICIENT EVIDENCE"],
    ]
    lines = table(rows)
    widths = column_widths(rows)
    assert max(len(line) for line in lines) <= WIDTH
    starts = [sum(widths[:k]) + 2 * k for k in range(len(widths))]
    blocks: list[list[str]] = []
    for line in lines:
        if line[: widths[0]].strip():
            blocks.append([])
        blocks[-1].append(line)
    assert len(blocks) == len(rows)
    for row, block in zip(rows, blocks, strict=True):
        for k, cell in enumerate(row):
            pieces = [line[starts[k] : starts[k] + widths[k]] for line in block]
            assert "".join(pieces).replace(" ", "") == cell.replace(" ", ""), (row[0], k)


def test_the_legend_says_what_the_ids_levels_and_words_mean() -> None:
    text = matrix([_report("reference", {})], markdown=False)
    legend = " ".join(text.split("\n\n", 1)[1].split())
    for family in ("FP-", "INV-", "VECTORS", "DIFF-", "ROB-", "EC-", "DIV-"):
        assert family in legend, family
    for word in (
        "pass",
        "FAIL",
        "DIVERGES",
        "INSUFFICIENT",
        "n/a",
        "conformant",
        "VARIANT",
        "NOT CONFORMANT",
    ):
        assert word in legend, word
    assert "the fingerprint's point" in legend
    assert "--explain ID" in legend
    assert "exit 1" in legend


def _explain(capsys: pytest.CaptureFixture[str], ident: str) -> str:
    assert main(["conform", "--explain", ident]) == 0
    return " ".join(capsys.readouterr().out.split())


def _spec_section(chapter: str, ident: str) -> str:
    """The section's text, read here from the spec file (the explanation must carry it)."""
    text = (ROOT / "spec" / chapter).read_text(encoding="utf-8")
    body = text.split(f"\n## {ident}", 1)[1].split("\n", 1)[1].split("\n## ", 1)[0]
    return " ".join(body.split())


@pytest.mark.parametrize(
    ("ident", "chapter"),
    [
        ("INV-CLIP", "09-invariants.md"),
        ("EC-001", "06-edge-cases.md"),
        ("DIV-NLTK-001", "10-divergences.md"),
        ("SIG-PAIRED-AR", "14-command-line.md"),
    ],
)
def test_explain_prints_a_spec_ids_section(
    ident: str, chapter: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _spec_section(chapter, ident)[:300] in _explain(capsys, ident)


def test_explain_prints_a_fingerprint_points_question_and_spec_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for ident, point in BY_ID.items():
        out = _explain(capsys, ident)
        assert point.question in out
        assert all(spec_id in out for spec_id in point.ec)


@pytest.mark.parametrize("ident", ["ROB-TIMEOUT", "VECTORS", "DIFF-STATS", "FP-SCALE-DECLARED"])
def test_explain_prints_the_spec_text_defining_a_check_row(
    ident: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _explain(capsys, ident)
    assert f"`{ident}`" in out
    assert "spec/12-conform.md" in out


def test_explain_of_an_unknown_id_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", "--explain", "NO-SUCH-ID"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "NO-SUCH-ID" in err[0]


def test_profiles_fits_100_columns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= WIDTH


def test_the_quick_start_says_what_exit_1_means() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = " ".join(readme.split("## Quick start", 1)[1].split("\n## ", 1)[0].split())
    assert "exits 1 when some installed implementation is not conformant" in quick
    assert "--explain ID" in quick


# --- explain --profile: the profile's own view of each order ---------------------------------------

SENTENCES = [
    ("the cat", ["the cat sat"]),  # no 3- or 4-grams: nltk counts 0/1
    ("the cat sat on the mat", ["the cat is on the mat", "there is a cat on the mat"]),
    ("a b", ["a b c d", "x"]),
]


@pytest.mark.parametrize(("hypothesis", "references"), SENTENCES)
def test_explain_under_nltk_shows_nltks_own_modified_precision(
    hypothesis: str, references: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The oracle: nltk's modified_precision, run here: Fraction(m, max(1, l_n), _normalize=False)."""
    from nltk.translate.bleu_score import modified_precision  # noqa: PLC0415

    assert main(["explain", "--profile", "nltk", hypothesis, *references]) == 0
    out = capsys.readouterr().out
    for n in range(1, 5):
        theirs = modified_precision([r.split() for r in references], hypothesis.split(), n)
        block = out.split(f"order n = {n}\n", 1)[1].split("\norder n =", 1)[0]
        views = re.findall(rf"as these options compute it: p_{n} = (\d+)/(\d+)", block)
        paper = re.findall(rf"^p_{n} = (\d+)/(\d+)", block, re.MULTILINE)
        m, l_n = map(int, (views or paper)[0])
        assert (m, l_n) == (theirs.numerator, theirs.denominator), (n, block)
        assert "undefined" not in block.split("as these options compute it")[-1]


def test_an_early_return_says_the_order_is_not_reached(capsys: pytest.CaptureFixture[str]) -> None:
    """Hand computed: "a b" against "c d" matches nothing; sacrebleu returns 0 before smoothing (EC-016)."""
    assert main(["explain", "--profile", "sacrebleu", "a b", "c d"]) == 0
    out = capsys.readouterr().out
    assert out.count("not reached: BLEU is 0 first (early_return=no-match, EC-016)") == 4


def test_an_undefined_order_says_what_the_options_make_of_it(capsys: pytest.CaptureFixture[str]) -> None:
    """Hand computed: "the cat" has no 3-grams; the paper's default counts 0/0 as p_3 = 0 (EC-003),
    effective order drops the order (weight 0), sacrebleu takes log 0 as -9999999999 (EC-002)."""
    for args, expected in (
        ([], "0/0 (undefined_precision=zero, EC-003)"),
        (["--effective-order"], "left out: weight 0"),
        (["--profile", "sacrebleu"], "log p_3 taken as -9999999999"),
    ):
        assert main(["explain", *args, "the cat", "the cat sat"]) == 0
        block = capsys.readouterr().out.split("order n = 3\n", 1)[1].split("\norder n =", 1)[0]
        assert expected in block, (args, block)


def test_the_details_under_the_matrix_fit_100_columns_word_for_word() -> None:
    long = "a segment with empty candidate and reference changed the score " * 4
    failing = Check(
        "INV-EMPTY-SEGMENT",
        "",
        "explained",
        long,
        ("INV-EMPTY-SEGMENT",),
        counterexample=[[["the"] * 40], [[["the"] * 40]]],
        explained_by=("DIV-NLTK-001",),
        target_value=1.53197198912e-231,
        expected_value=1.82183198945e-231,
        expected_by="the target's own score before the change",
    )
    report = TargetReport("nltk", "nltk[method=0]", True, False, [failing], {}, {})
    text = details(report, markdown=False)
    assert max(len(line) for line in text.splitlines()) > WIDTH  # the case to fit
    shown = fitted(text)
    assert max(len(line) for line in shown.splitlines()) <= WIDTH
    assert shown.split() == text.split()  # the same words, only wrapped


def test_every_row_the_runner_can_print_is_explained() -> None:
    """Every point, invariant, fault kind and judge row the runner has: --explain knows it."""
    from conformance.runner.client import FAULT_KINDS  # noqa: PLC0415
    from conformance.runner.legend import explain_id  # noqa: PLC0415
    from conformance.suite.invariants import BY_ID as INVARIANTS  # noqa: PLC0415

    rows = [*BY_ID, *INVARIANTS, *(f"ROB-{k.upper()}" for k in FAULT_KINDS)]
    rows += ["VECTORS", "DIFF-CORPUS", "DIFF-SENTENCE", "DIFF-STATS", "FP-SCALE-DECLARED"]
    unexplained = [ident for ident in rows if explain_id(ident) is None]
    assert unexplained == []
