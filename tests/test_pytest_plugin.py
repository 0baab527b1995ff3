"""The pytest plugin (conformance.runner.pytest_plugin, spec CONF-RUNNER): each check a test, in a user's own CI.

Each case runs pytest in a fresh process in an empty folder, as a user would, with this
repository on PYTHONPATH so that ``tests.targets.conform`` imports.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
T = "tests.targets.conform:"


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "-rA",
            "--bleu-examples",
            "10",
            *args,
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.slow  # a pytest run of the whole runner: 7-10 s each
def test_a_correct_target_passes_every_check(tmp_path: Path) -> None:
    run = _pytest(tmp_path, "--bleu-target", T + "independent_bleu")
    assert run.returncode == 0, run.stdout[-3000:]
    assert "PASSED bleu::DIFF-CORPUS" in run.stdout
    assert "PASSED bleu::FP-REF-LENGTH" in run.stdout
    # No statistics, no sentence entry point: skipped with the reason, not passed.
    assert "SKIPPED" in run.stdout
    assert "target exposes no statistics" in run.stdout


@pytest.mark.slow  # a pytest run of the whole runner: 7-10 s each
def test_a_broken_target_fails_with_ids_and_counterexample(tmp_path: Path) -> None:
    run = _pytest(tmp_path, "--bleu-target", T + "no_clip")
    assert run.returncode == 1
    assert "FAILED bleu::DIFF-CORPUS" in run.stdout
    assert "DIFF-CORPUS [BLEU-EVAL] FAIL" in run.stdout
    assert "counterexample:" in run.stdout
    assert "Traceback" not in run.stdout
    # the verdict's failure names the bug (spec CONF-DIAGNOSIS): counts never clipped
    assert "FAILED bleu::VERDICT" in run.stdout
    assert "diagnosis: no clipping: every candidate n-gram that occurs in some reference" in run.stdout
    assert "FAULT-NO-CLIP: " in run.stdout  # the diagnosis section: the fault's mutation


@pytest.mark.slow  # a pytest run of the whole runner: 7-10 s each
def test_a_peer_divergence_fails_naming_it(tmp_path: Path) -> None:
    # nltk's zero behaviour is a registry point (FP-ZERO passes, naming it); the verdict against the
    # paper fails, naming nltk's registered divergence on the axis (spec 10)
    run = _pytest(tmp_path, "--bleu-target", "nltk")
    assert run.returncode == 1
    assert "FAILED bleu::VERDICT" in run.stdout
    assert "DIV-NLTK-002" in run.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bleu-target", "nosuchmodule_xyz:f"], "cannot import"),
        (["--bleu-target", "nltk", "--bleu-command", "perl x.pl"], "one of --bleu-target"),
        (["--bleu-target", "nltk", "--bleu-examples", "0"], "--bleu-examples must be >= 1"),
    ],
)
def test_a_target_that_cannot_run_is_a_usage_error(tmp_path: Path, args: list[str], message: str) -> None:
    run = _pytest(tmp_path, *args)
    assert run.returncode == pytest.ExitCode.USAGE_ERROR
    assert message in run.stderr
    assert "spec CONF-RUNNER" in run.stderr


def test_without_the_option_the_plugin_adds_nothing(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text("def test_x():\n    pass\n", encoding="utf-8")
    run = _pytest(tmp_path)
    assert run.returncode == 0
    assert "1 passed" in run.stdout
    assert "bleu::" not in run.stdout


#: A BLEU written here, as a user's module: the paper's, but a tie between two references equally
#: close to the candidate's length goes to the longer one (EC-001's closest-longer, not the paper's
#: shorter): "a b c" against "a b" and "a b c d" takes r = 4.
TIE_TO_LONGER = """
import math
from collections import Counter


def _grams(tokens, n):
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def bleu(hyps, refs):
    if not hyps:
        raise ValueError("empty corpus")
    matches, totals, c, r = [0] * 4, [0] * 4, 0, 0
    for hyp, segment in zip(hyps, refs):
        if not segment:
            raise ValueError("no reference")
        c += len(hyp)
        r += min((abs(len(x) - len(hyp)), -len(x)) for x in segment)[1] * -1
        for n in range(1, 5):
            for gram, count in _grams(hyp, n).items():
                matches[n - 1] += min(count, max(_grams(x, n)[gram] for x in segment))
                totals[n - 1] += count
    if not all(matches):
        return 0.0
    log = sum(0.25 * math.log(m / t) for m, t in zip(matches, totals))
    return (1.0 if c >= r else math.exp(1 - r / c)) * math.exp(log)
"""


@pytest.mark.slow
def test_the_verdict_test_fails_a_bleu_that_breaks_ties_to_the_longer_reference(tmp_path: Path) -> None:
    """Spec CONF-VERDICT through the plugin: ``bleu::VERDICT`` fails naming the axis (ref_length,
    EC-001) against the paper, and passes once ``--bleu-accept`` adds that value."""
    (tmp_path / "tie_longer.py").write_text(TIE_TO_LONGER, encoding="utf-8")
    run = _pytest(tmp_path, "--bleu-target", "tie_longer:bleu")
    assert run.returncode == 1, run.stdout[-3000:]
    assert "FAILED bleu::VERDICT" in run.stdout
    assert "ref_length=closest-longer (EC-001; expected closest)" in run.stdout
    run = _pytest(tmp_path, "--bleu-target", "tie_longer:bleu", "--bleu-accept", "ref_length=closest-longer")
    assert run.returncode == 0, run.stdout[-3000:]
    assert "PASSED bleu::VERDICT" in run.stdout


def test_a_bad_expectation_is_a_usage_error(tmp_path: Path) -> None:
    run = _pytest(tmp_path, "--bleu-target", "nltk", "--bleu-accept", "colour=blue")
    assert run.returncode == pytest.ExitCode.USAGE_ERROR
    assert "--accept takes AXIS=VALUE" in run.stderr
