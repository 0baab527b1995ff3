"""Real test sets (shipped in conformance/data, see its README): the reference's file scoring gives exactly
sacrebleu's statistics on every system, for every tokenizer and case folding (spec 11, CLI-FILES).

sacrebleu (2.6.0) is the oracle: ``BLEU(tokenize=..., lowercase=...).corpus_score`` on the same
lines. Statistics must be equal as integers; the score under sacrebleu's own default smoothing
(exp) must agree within the relative 1e-13 of the differential tests, and so the ranking of
the systems must be the same.
"""

from __future__ import annotations

import json
import logging
import math
from functools import cache
from pathlib import Path

import pytest
from sacrebleu.metrics.bleu import BLEU

from conformance.data import plain_root
from reference_bleu.cli.main import main
from reference_bleu.conventions.options import make_options
from reference_bleu.conventions.space import Point
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.files import Counting, file_statistics
from reference_bleu.scoring.score import score

DATA = plain_root()  # the shipped test sets, decompressed (conformance/data/README.md)
WMT17 = DATA / "wmt17-en-de"
MULTEVAL = DATA / "multeval-example-newstest2010"
WMT17_SYSTEMS = sorted(WMT17.glob("hyp.*.de"))
MULTEVAL_SYSTEMS = sorted(MULTEVAL.glob("hyp.*.en"))
# (tokenize, lowercase) as the reference names them; sacrebleu's lowercase is True for "unicode".
SETTINGS = [("13a", "none"), ("13a", "unicode"), ("intl", "none"), ("none", "none"), ("zh", "none")]


def lines(path: Path) -> list[str]:
    # sacrebleu's CLI reads files with newline="\n"; the last line ends with "\n".
    text = path.read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


@cache
def sacrebleu_result(system: Path, ref: Path, tokenize: str, lowercase: str) -> tuple[tuple[int, ...], float]:
    score = sacrebleu_metric(ref, tokenize, lowercase).corpus_score(lines(system), None)
    return (*score.counts, *score.totals, score.sys_len, score.ref_len), score.score / 100


@cache
def sacrebleu_metric(ref: Path, tokenize: str, lowercase: str) -> BLEU:
    """sacrebleu's BLEU with the reference given once: sacrebleu tokenizes and counts it once for all
    systems (its own cache, ``BLEU(references=...)``; 16 WMT17 systems under 13a: 8.2 s of CPU, 14.5 s
    with the reference given to each ``corpus_score``)."""
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    return BLEU(tokenize=tokenize, lowercase=lowercase == "unicode", force=True, references=[lines(ref)])


def ours(system: Path, ref: Path, tokenize: str, lowercase: str) -> Statistics:
    (stats,), count = file_statistics(str(system), [str(ref)], Counting(4, "closest", tokenize, lowercase))
    assert count == len(lines(system))
    return stats


def flat(stats: Statistics) -> tuple[int, ...]:
    return (*stats.matches, *stats.totals, stats.hyp_len, int(stats.ref_len))


def test_the_shared_data_is_there() -> None:
    assert len(WMT17_SYSTEMS) == 16, f"expected the 16 WMT17 systems in {WMT17} (conformance/data)"
    assert len(MULTEVAL_SYSTEMS) == 6


@pytest.mark.slow  # 12-27 s of CPU per setting (16 systems of 3,004 segments through both)
@pytest.mark.parametrize(("tokenize", "lowercase"), SETTINGS)
def test_wmt17_every_system_has_sacrebleus_statistics_and_score(tokenize: str, lowercase: str) -> None:
    ranking_ours, ranking_theirs = [], []
    for system in WMT17_SYSTEMS:
        stats = ours(system, WMT17 / "ref.de", tokenize, lowercase)
        expected, their_score = sacrebleu_result(system, WMT17 / "ref.de", tokenize, lowercase)
        assert flat(stats) == expected, system.name
        our_score = score(Point.of(make_options(smoothing="exp")), [stats]).score
        assert math.isclose(our_score, their_score, rel_tol=1e-13), system.name
        ranking_ours.append((our_score, system.name))
        ranking_theirs.append((their_score, system.name))
    assert [n for _, n in sorted(ranking_ours)] == [n for _, n in sorted(ranking_theirs)]


def test_multeval_every_system_has_sacrebleus_statistics_untokenized() -> None:
    # Already tokenized and lower-cased text: "none" is the natural setting (MANIFEST).
    for system in MULTEVAL_SYSTEMS:
        stats = ours(system, MULTEVAL / "ref.en", "none", "none")
        expected, _ = sacrebleu_result(system, MULTEVAL / "ref.en", "none", "none")
        assert flat(stats) == expected, system.name


def test_char_tokenization_on_two_systems() -> None:
    for system in WMT17_SYSTEMS[:2]:
        expected, _ = sacrebleu_result(system, WMT17 / "ref.de", "char", "none")
        assert flat(ours(system, WMT17 / "ref.de", "char", "none")) == expected


def test_the_cli_scores_several_systems_as_sacrebleu_does(capsys: pytest.CaptureFixture[str]) -> None:
    systems = [str(s) for s in WMT17_SYSTEMS[:3]]
    code = main(["score", "--json", "-q", "-r", str(WMT17 / "ref.de"), "-i", *systems, "-tok", "13a", "-lc"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["signature"].startswith("nrefs:1|case:lc|tok:13a|N:4|")
    for system, document in zip(WMT17_SYSTEMS[:3], report["systems"], strict=True):
        expected, _ = sacrebleu_result(system, WMT17 / "ref.de", "13a", "unicode")
        got = (*document["matches"], *document["totals"], document["hyp_len"], document["ref_len"])
        assert got == expected


def test_statistics_saved_in_parts_and_merged_give_exactly_one_runs_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    system, ref = lines(WMT17_SYSTEMS[0]), lines(WMT17 / "ref.de")
    half = len(system) // 2
    parts = []
    for k, (hyp_part, ref_part) in enumerate([(system[:half], ref[:half]), (system[half:], ref[half:])]):
        (tmp_path / f"h{k}").write_text("\n".join(hyp_part) + "\n", encoding="utf-8")
        (tmp_path / f"r{k}").write_text("\n".join(ref_part) + "\n", encoding="utf-8")
        assert (
            main(["stats", "-q", "-tok", "13a", "-i", str(tmp_path / f"h{k}"), "-r", str(tmp_path / f"r{k}")])
            == 0
        )
        (tmp_path / f"s{k}.json").write_text(capsys.readouterr().out, encoding="utf-8")
        parts.append(str(tmp_path / f"s{k}.json"))
    assert main(["score", "--json", "--stats", *parts]) == 0
    merged = json.loads(capsys.readouterr().out)["systems"][0]
    assert (
        main(
            ["score", "--json", "-q", "-tok", "13a", "-i", str(WMT17_SYSTEMS[0]), "-r", str(WMT17 / "ref.de")]
        )
        == 0
    )
    whole = json.loads(capsys.readouterr().out)["systems"][0]
    assert merged["score_decimal"] == whole["score_decimal"]
    assert merged["matches"] == whole["matches"]
    assert merged["segments"] == whole["segments"] == len(system)


def test_several_processes_give_the_same_statistics() -> None:
    counting = Counting(5, "closest", "13a", "none")
    one = file_statistics(str(WMT17_SYSTEMS[1]), [str(WMT17 / "ref.de")], counting)
    two = file_statistics(str(WMT17_SYSTEMS[1]), [str(WMT17 / "ref.de")], counting, jobs=2)
    assert one == two
