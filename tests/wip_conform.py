# Work in progress, not collected yet (see the closing note of stop 8): run with
# `python -m pytest tests/wip_conform.py`. Known red: FP-ZERO distinctness (a pair of
# smoothing conventions coincides on the diagnostics) and slow robustness cases.
"""The conformance runner (spec CONF-RUNNER): fingerprints, verdicts on good and broken targets of
every kind (built-in, module:attr, --command in Perl), robustness, reports and exit codes."""

from __future__ import annotations

import json
import shutil
from itertools import combinations
from typing import Any

import jsonschema
import pytest

from conformance.client import ProtocolTarget, python_command
from conformance.conform import main, run_target
from conformance.fingerprint import POINTS, agrees, fingerprint
from conformance.harness import answer, resolve
from conformance.protocol import load_schema

PERL = ["perl", "conformance/examples/bleu.pl"]
T = "tests.conform_targets:"


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main(["--json", "-q", "-n", "15", "--timeout", "2", *args])
    return code, json.loads(capsys.readouterr().out)


def _statuses(report: dict[str, object]) -> dict[str, str]:
    target: Any = report["targets"][0]  # type: ignore[index]
    return {c["id"]: c["status"] for c in target["checks"]}


@pytest.mark.parametrize("point", POINTS, ids=lambda p: p.id)
def test_diagnostics_tell_spec_conventions_apart(point: object) -> None:
    """Under the default conventions, no two spec conventions of a point predict the same answers."""
    conventions = [c for c in point.conventions({}) if not c.divergence]  # type: ignore[attr-defined]
    predictions = {c.name: [c.predict({}, d.corpus) for d in point.diagnostics] for c in conventions}  # type: ignore[attr-defined]
    # The same formula under two names: epsilon / l_n for a zero count (SMOOTH-CC1, SMOOTH-FLOOR),
    # and (m_n + 1) / (l_n + 1) from bigrams on (SMOOTH-CC2, SMOOTH-ADD-K with its default k = 1).
    same = [{"smoothing chen-cherry-1", "smoothing floor"}, {"smoothing chen-cherry-2", "smoothing add-k"}]
    same += [{"smoothing add-k", "smoothing add-one"}, {"smoothing chen-cherry-2", "smoothing add-one"}]
    for (a, pa), (b, pb) in combinations(predictions.items(), 2):
        if {a, b} in same:
            assert all(map(agrees, pa, pb))
            continue
        assert not all(map(agrees, pa, pb)), f"{point.id}: {a} and {b} predict the same answers"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        # Hand-checked against the peers' sources (spec 10): nltk replaces log 0 by its sentinel
        # (DIV-NLTK-002); sacrebleu's default exp smoothing returns 0 early when nothing matches
        # (DIV-SACREBLEU-001) and reports percent; bleuscore's brevity penalty uses the shortest
        # reference (compute's reference length is the minimum length over references).
        ("nltk", {"FP-ZERO": "nltk method0", "FP-REF-LENGTH": "closest, ties to the shorter"}),
        ("sacrebleu", {"FP-SCALE": "percent: 100 x BLEU", "FP-ZERO": "sacrebleu exp"}),
        ("bleuscore", {"FP-REF-LENGTH": "shortest reference", "FP-ZERO": "limit: a zero precision gives 0"}),
        (
            "reference[ref_length=average,smoothing=add-k,smoothing_value=0.25]",
            {"FP-REF-LENGTH": "average reference length", "FP-ZERO": "smoothing add-k, k = 0.25"},
        ),
    ],
)
def test_fingerprints_of_peers(spec: str, expected: dict[str, str]) -> None:
    target = ProtocolTarget(python_command(spec))
    try:
        found = {
            f.point.id: f.convention.name if f.convention else None for f in fingerprint(target).findings
        }
    finally:
        target.close()
    for point, name in expected.items():
        assert found[point] == name, (point, found[point])


def test_nltk_divergences_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _report(capsys, "-t", "nltk")
    assert code == 1
    target: Any = report["targets"][0]  # type: ignore[index]
    zero = next(c for c in target["checks"] if c["id"] == "FP-ZERO")
    assert zero["status"] == "explained"
    assert "DIV-NLTK-002" in zero["explained_by"]


@pytest.mark.parametrize(
    "args",
    [
        ["-t", "reference"],
        ["-t", T + "independent_bleu"],
        ["-t", T + "adapter"],
        ["-t", T + "text_bleu", "--input", "text"],
        ["-t", T + "percent_bleu", "--scale", "percent"],
        ["--command", " ".join(PERL)],
    ],
    ids=["builtin", "callable", "adapter", "text", "percent", "perl"],
)
def test_correct_targets_are_conformant(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    if args[0] == "--command" and shutil.which("perl") is None:
        pytest.skip("perl is not installed (the example harness needs it)")
    code, report = _report(capsys, *args)
    bad = {k: v for k, v in _statuses(report).items() if v not in ("pass", "n/a")}
    assert not bad, bad
    assert code == 0


@pytest.mark.parametrize(
    ("args", "failing"),
    [
        (["-t", T + "no_clip"], "DIFF-CORPUS"),
        (["-t", T + "raises"], "ROB-ERROR"),
        (["-t", T + "nan"], "ROB-NAN"),
        (["-t", T + "out_of_range"], "ROB-OUT-OF-RANGE"),
        (["-t", T + "wrong_type"], "ROB-WRONG-TYPE"),
        (["-t", T + "hangs"], "ROB-TIMEOUT"),
        (["-t", T + "crashes"], "ROB-CRASH"),
        (["-t", T + "mutates"], "ROB-MUTATION"),
        (["-t", T + "independent_bleu", "--scale", "percent"], "FP-SCALE-DECLARED"),
        (["--command", "perl conformance/examples/bleu.pl --break noclip"], "DIFF-CORPUS"),
    ],
    ids=lambda a: a if isinstance(a, str) else a[1].split(":")[-1],
)
def test_broken_targets_are_caught(capsys: pytest.CaptureFixture[str], args: list[str], failing: str) -> None:
    if args[0] == "--command" and shutil.which("perl") is None:
        pytest.skip("perl is not installed (the example harness needs it)")
    code, report = _report(capsys, *args)
    assert code == 1
    assert _statuses(report)[failing] == "fail"


def test_macro_average_is_fingerprinted_as_macro(capsys: pytest.CaptureFixture[str]) -> None:
    _code, report = _report(capsys, "-t", T + "macro")
    target: Any = report["targets"][0]  # type: ignore[index]
    aggregation = next(c for c in target["checks"] if c["id"] == "FP-AGGREGATION")
    assert aggregation["detail"].startswith("macro")


def test_same_seed_same_report(capsys: pytest.CaptureFixture[str]) -> None:
    first = _report(capsys, "-t", T + "no_clip", "--seed", "7")
    second = _report(capsys, "-t", T + "no_clip", "--seed", "7")
    assert first == second


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-t", "nosuchmodule:f"]) == 2
    assert main(["-t", T + "NOT_CALLABLE"]) == 2
    assert main(["-t", "nltk[method=9]"]) == 2
    assert main(["--command", "/nonexistent/program"]) == 2
    assert main(["-n", "0", "-t", "reference"]) == 2
    assert main(["--bogus"]) == 2
    assert "spec CONF-RUNNER" in capsys.readouterr().err


def test_unavailable_peer_is_a_column_not_a_failure() -> None:
    report = run_target("torchmetrics", python_command("torchmetrics"), 5, 0, 2.0, None, False)
    if report.available:
        pytest.skip("torchmetrics is installed here")
    assert "not installed" in report.unavailable
    assert "pip install" in report.unavailable


def test_protocol_schema_accepts_the_harness_messages() -> None:
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    served = resolve("reference")
    message = answer(
        served, {"type": "score", "seq": 1, "level": "corpus", "hypotheses": [["a"]], "references": [[["a"]]]}
    )
    jsonschema.validate(message, schema)
    jsonschema.validate({"type": "hello", "protocol": "bleu-conform", "version": 1}, schema)
