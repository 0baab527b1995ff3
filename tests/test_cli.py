"""The command line: score and explain, and exit code 2 with one line for bad input (spec CLI)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from reference_bleu.cli.main import main

C1 = "it is a guide to action which ensures that the military always obeys the commands of the party"
C2 = "it is to insure the troops forever hearing the activity guidebook that party direct"
R1 = "it is a guide to action that ensures that the military will forever heed party commands"
R2 = "it is the guiding principle which guarantees the military forces always being under the command of the party"
R3 = "it is the practical guide for the army always to heed the directions of the party"


@pytest.fixture
def paper_files(tmp_path: Path) -> dict[str, str]:
    files = {"hyp": [C1, C2], "r1": [R1, R1], "r2": [R2, R2], "r3": [R3, R3]}
    paths = {}
    for name, lines in files.items():
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths[name] = str(path)
    return paths


def test_score_prints_the_papers_corpus_bleu(
    paper_files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["score", "-i", paper_files["hyp"], "-r", paper_files["r1"], paper_files["r2"], paper_files["r3"]]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "BLEU = 0.3043537261305561" in out  # the paper's example 1 as a corpus (PAPER.md)
    assert "25/32 11/30 7/28 4/26" in out
    assert "c = 32  r = 34" in out
    assert "nrefs:3|case:mixed|tok:none|N:4|w:uniform|r:closest|smooth:none" in out


def test_score_json(paper_files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    main(
        [
            "score",
            "--json",
            "-i",
            paper_files["hyp"],
            "-r",
            paper_files["r1"],
            paper_files["r2"],
            paper_files["r3"],
        ]
    )
    data = json.loads(capsys.readouterr().out)["systems"][0]
    assert data["score"] == 0.3043537261305561
    assert data["matches"] == [25, 11, 7, 4]
    assert data["totals"] == [32, 30, 28, 26]
    assert (data["hyp_len"], data["ref_len"]) == (32, 34)
    assert data["precisions"] == ["25/32", "11/30", "1/4", "2/13"]
    assert data["ratio"] == "16/17"
    assert data["score_decimal"].startswith("0.30435372613055611627217918377829083819")


def test_score_reads_the_hypotheses_from_stdin(paper_files: dict[str, str]) -> None:
    hyp = Path(paper_files["hyp"]).read_text(encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "reference_bleu",
            "score",
            "-r",
            paper_files["r1"],
            paper_files["r2"],
            paper_files["r3"],
            "-N",
            "2",
        ],
        input=hyp,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    # N = 2: exp(1 - 34/32) · (25/32 · 11/30)^(1/2) = 0.5027...
    assert "matches/totals = 25/32 11/30" in done.stdout


def test_score_options_mirror_the_api(
    paper_files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "score",
            "-i",
            paper_files["hyp"],
            "-r",
            paper_files["r1"],
            "--smoothing",
            "floor",
            "--smoothing-value",
            "1/5",
            "--weights",
            "1/2",
            "1/2",
            "--ref-length",
            "shortest",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert "N:2|w:uniform|r:shortest|smooth:floor[epsilon=1/5]" in data["signature"]


def test_explain_prints_the_hand_table(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["explain", "the the the the the the the", "the cat is on the mat", "there is a cat on the mat"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "1-gram  Count  Max_Ref_Count  Count_clip" in out
    assert "the         7              2           2" in out
    assert "p_1 = 2/7" in out
    assert "p_2 = 0/6" in out
    assert "c = 7; reference lengths 6, 7; r = 7" in out
    assert "BLEU = BP · exp(Σ w_n log p_n) = 0" in out


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reference_bleu", *args], capture_output=True, text=True, check=False
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, lines  # one line, never the usage text (spec CLI)
    return lines[0]


def test_mismatched_line_counts_exit_2(paper_files: dict[str, str], tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text(R1 + "\n", encoding="utf-8")
    line = one_line_error(run_cli("score", "-i", paper_files["hyp"], "-r", str(short)))
    assert "line counts differ" in line


def test_line_count_errors_name_both_files_and_both_counts(tmp_path: Path) -> None:
    """A hypothesis with one blank line too many: both files and both counts, and the blank line named,
    not the reference blamed for ending early (CLI-FILES)."""
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("a b\nc d\n", encoding="utf-8")
    hyp.write_text("a b\nc d\n\n", encoding="utf-8")
    line = one_line_error(run_cli("score", "-r", str(ref), "-i", str(hyp)))
    assert line == (
        f"reference-bleu: error: line counts differ: {hyp} has 3, {ref} has 2 lines ({hyp}: the extra lines "
        "are blank; a blank line at the end?) (spec CLI-FILES)"
    )
    hyp.write_text("a b\n", encoding="utf-8")
    line = one_line_error(run_cli("score", "-r", str(ref), "-i", str(hyp), "-q"))
    assert (
        line == f"reference-bleu: error: line counts differ: {hyp} has 1, {ref} has 2 lines (spec CLI-FILES)"
    )


def test_quiet_hides_notes_and_never_a_warning_about_the_data(tmp_path: Path) -> None:
    """-q hides the note on the paper's defaults, not a warning about the files (CLI-INPUT)."""
    ref = tmp_path / "ref.txt"
    ref.write_bytes("\ufeffa b c\n".encode())
    done = run_cli("score", "-r", str(ref), "-i", str(ref), "-q")
    assert done.returncode == 0
    warnings = done.stderr.strip().splitlines()
    assert len(warnings) == 3  # the mark, read twice (as the hypothesis, as the reference), and itself
    assert all("byte-order mark" in w for w in warnings[:2])
    assert "scores itself" in warnings[2]
    loud = run_cli("score", "-r", str(ref), "-i", str(ref))
    assert loud.stderr.strip().splitlines()[:3] == warnings
    assert "note: the paper's defaults" in loud.stderr


def test_score_help_fits_100_columns_and_lists_the_refused_flags_in_one_line() -> None:
    done = run_cli("score", "-h")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert len(lines) < 150
    refused = [line for line in lines if "--test-set/-t" in line]
    assert len(refused) == 1
    assert "spm" not in done.stdout  # a tokenizer that is refused is not offered


def test_non_utf8_input_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"caf\xe9\n")
    assert "not valid UTF-8" in one_line_error(run_cli("score", "-i", str(bad), "-r", str(bad)))


def test_missing_file_exits_2(tmp_path: Path) -> None:
    assert "cannot read" in one_line_error(
        run_cli("score", "-i", str(tmp_path / "none"), "-r", str(tmp_path / "none"))
    )


def test_empty_input_exits_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert "EC-012" in one_line_error(run_cli("score", "-i", str(empty), "-r", str(empty)))


def test_empty_files_score_0_under_a_profile_whose_tool_scores_an_empty_corpus_0(tmp_path: Path) -> None:
    # EC-012, empty_corpus="zero": torchmetrics returns 0 on no segment (its profile's evidence,
    # checked against the tool in tests/test_profiles.py); files with no line are that corpus.
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    done = run_cli("score", "--profile", "torchmetrics", "-b", "-i", str(empty), "-r", str(empty))
    assert (done.returncode, done.stdout.strip()) == (0, "0.0")


def test_bad_option_values_exit_2(paper_files: dict[str, str]) -> None:
    assert "BLEU-WEIGHTS" in one_line_error(
        run_cli("score", "-i", paper_files["hyp"], "-r", paper_files["r1"], "--weights", "1", "2")
    )
    assert "invalid choice" in one_line_error(
        run_cli("score", "-i", paper_files["hyp"], "-r", paper_files["r1"], "-s", "foo")
    )


def test_usage_errors_exit_2() -> None:
    assert run_cli().returncode == 2
    assert run_cli("score").returncode == 2


# --- profiles (spec CONV-PROFILES) ----------------------------------------------------------------


def test_profiles_lists_every_profile_on_every_axis(capsys: pytest.CaptureFixture[str]) -> None:
    from reference_bleu.conventions.profiles import PROFILES  # noqa: PLC0415

    assert main(["profiles"]) == 0
    out = capsys.readouterr().out
    entries = [line.split(" (")[0] for line in out.split("\n\n")[0].splitlines() if not line.startswith(" ")]
    assert entries == list(PROFILES)
    assert "\nmulti-bleu (" in out
    assert "zero_precision=log-constant(-9999999999)" in out
    assert max(len(line) for line in out.splitlines()) <= 100  # fits a terminal (was 421 columns)


def test_profiles_with_a_name_shows_its_evidence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles", "nltk[method=4]"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("nltk[method=4]: nltk 3.10.4")
    assert "smoothing: nltk-4" in out
    assert "bleu_score.py:659" in out


def test_score_with_a_profile_prints_as_the_tool_prints(
    paper_files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    refs = [paper_files["r1"], paper_files["r2"], paper_files["r3"]]
    assert main(["score", "-i", paper_files["hyp"], "-r", *refs, "--profile", "multi-bleu"]) == 0
    out = capsys.readouterr().out
    # multi-bleu.perl's own line (spec CONV-MULTI-BLEU): 100 x 0.3043537261305561 (the paper's corpus
    # BLEU: no zero, so log 0 never matters) to 2 decimals; 100 x 25/32, 11/30, 7/28, 4/26 to one;
    # BP = exp(1 - 34/32) = 0.9394 and c/r = 32/34 = 0.9412 to three
    assert out == "BLEU = 30.44, 78.1/36.7/25.0/15.4 (BP=0.939, ratio=0.941, hyp_len=32, ref_len=34)\n"
    # An option beside the profile leaves its point: this project's report, with its signature.
    assert main(["score", "-i", paper_files["hyp"], "-r", *refs, "--profile", "multi-bleu", "-w", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("BLEU = 30.435  (multi-bleu)")
    assert "profile:multi-bleu|overridden:round_digits|" in out
    assert "split:ascii" in out


def test_an_option_beside_a_profile_overrides_it_and_the_signature_says_so(
    paper_files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    refs = [paper_files["r1"], paper_files["r2"], paper_files["r3"]]
    args = ["score", "-i", paper_files["hyp"], "-r", *refs, "--profile", "multi-bleu", "--round-digits", "4"]
    assert main([*args, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    data = report["systems"][0]
    assert data["reported_text"] == "30.4354"
    assert data["overridden"] == ["round_digits"]
    assert "|overridden:round_digits|" in report["signature"]


def test_explain_takes_a_profile(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "--profile", "sacrebleu", "The cat, sat.", "The cat sat."]) == 0
    out = capsys.readouterr().out
    # 13a split off the comma and the period: the profile's tokenizer was applied
    assert "candidate (5 tokens): The cat , sat ." in out
    assert "profile" not in out or "early_return:no-match" in out


def test_an_unknown_profile_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles", "moses"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "unknown profile 'moses'" in err
    assert "CONV-PROFILES" in err
    assert main(["profiles", "nltk[method=9]"]) == 2
    assert "must be one of" in capsys.readouterr().err


def test_a_byte_order_mark_is_kept_and_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\ufeffa b\n", encoding="utf-8")
    ref.write_text("a b\n", encoding="utf-8")
    assert main(["score", "-i", str(hyp), "-r", str(ref), "-N", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["systems"][0]["matches"] == [1]  # "\ufeffa" does not match "a"
    assert "byte-order mark" in captured.err


def test_score_prints_the_smoothed_precisions_that_make_the_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CLI-OUTPUT. Chen and Cherry's method 6 (alpha = 5) on "z" against "y" and "a b c d" against
    itself: p_1 = 4/5, p_2 = 3/3, p_3 = (2 + 5 (3/3)^2 / (4/5)) / (2 + 5) = 33/28, p_4 =
    (1 + 5 (33/28)^2 / 1) / (1 + 5) = 6229/4704, c = r = 5; BLEU = (4/5 * 33/28 * 6229/4704)^(1/4)
    = 1.05706 above 1, which the unsmoothed p_n (all but p_1 equal to 1) cannot explain."""
    (tmp_path / "hyp.txt").write_text("z\na b c d\n", encoding="utf-8")
    (tmp_path / "ref.txt").write_text("y\na b c d\n", encoding="utf-8")
    args = ["score", "-q", "-i", str(tmp_path / "hyp.txt"), "-r", str(tmp_path / "ref.txt")]
    assert main([*args, "--smoothing", "chen-cherry-6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("BLEU = 1.0570")
    assert float(lines[0].split()[2]) == pytest.approx((4 / 5 * 33 / 28 * 6229 / 4704) ** 0.25, rel=1e-12)
    assert lines[1].split() == ["p_1=0.8000", "p_2=1.0000", "p_3=1.0000", "p_4=1.0000"]
    assert lines[2].split() == ["smoothed", "p_1=0.8000", "p_2=1.0000", "p_3=1.1786", "p_4=1.3242"]
    assert main(args) == 0  # without smoothing the line is not printed
    assert "smoothed" not in capsys.readouterr().out
