"""The conformance runner (spec CONF-RUNNER): fingerprints, verdicts on good and broken targets of
every kind (built-in, module:attr, --command in Perl), robustness, reports and exit codes."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conformance.runner.client import ProtocolTarget, python_command
from conformance.runner.conform import main
from conformance.runner.expectation import DOMAIN_AXES
from conformance.runner.fingerprint import POINTS, fingerprint
from conformance.runner.fingerprint.base import BINARY32_TOLERANCE, Answer, Corpus, Point, agrees
from conformance.runner.harness import answer, resolve
from conformance.runner.placement import generated_corpora
from conformance.runner.protocol import load_schema
from conformance.runner.report import matrix, report_json
from conformance.runner.run import RunSettings, run_target
from conformance.suite.invariants import same_score
from conformance.suite.resolution import IN_FULL
from reference_bleu.conventions.profiles import resolve as profile_of_name
from tests.once import once

PERL = ["perl", "conformance/runner/examples/bleu.pl"]
# A test that runs the whole runner on a target (_report) takes 8 to 25 s of CPU: each is marked
# slow (the slow tier, README "Tests"); the tests of its parts stay in the default tier.
T = "tests.targets.conform:"


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    """The exit code and JSON report of a run with ``args``, run once per test session (tests/once.py):
    a run is a function of its arguments (test_same_seed_same_report runs one twice to check it)."""
    code, report = once(repr(args), lambda: _run(capsys, *args))
    return code, report


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    # The runner's default per-call timeout: a healthy answer must never be cut short on a loaded
    # machine. Only targets that hang by design get a short one (their hang is the outcome).
    code = main(["--json", "-q", "-n", "15", *args])
    return code, json.loads(capsys.readouterr().out)


def _statuses(report: dict[str, object]) -> dict[str, str]:
    target: Any = report["targets"][0]  # type: ignore[index]
    return {c["id"]: c["status"] for c in target["checks"]}


LISTED = [p for p in POINTS if all(c.rank == 0 for c in p.conventions({}))]
SEARCHED = [p for p in POINTS if p not in LISTED]


@pytest.mark.parametrize("point", LISTED, ids=lambda p: p.id)
def test_diagnostics_tell_spec_conventions_apart(point: Point) -> None:
    """Under the default conventions, no two spec conventions of a listed point predict the same
    answers, not even to a binary32 target's precision (BINARY32_TOLERANCE)."""
    conventions = [c for c in point.conventions({}) if not c.divergence]
    predictions = {c.name: [c.predict({}, d.corpus) for d in point.diagnostics] for c in conventions}
    for (a, pa), (b, pb) in combinations(predictions.items(), 2):
        close = all(agrees(x, y, BINARY32_TOLERANCE, IN_FULL) for x, y in zip(pa, pb, strict=True))
        assert not close, f"{point.id}: {a} and {b} predict the same answers"


#: Corpora beyond a searched point's diagnostics, on which two registry points its diagnostics do not
#: tell apart must give the same score (small vocabularies: every order matches and misses, short
#: segments without 3- and 4-grams).
BEYOND = generated_corpora(7, 12)
#: For a point on axes outside BLEU's domain, the same corpora with an empty candidate, an empty
#: reference, a segment without references, and the empty corpus.
EMPTY: Corpus = ([], [])
NO_REFERENCE: list[list[str]] = []
ONE_EMPTY_REFERENCE: list[list[str]] = [[]]
BEYOND_DOMAIN: list[Corpus] = [
    *BEYOND,
    *(([*h, []], [*r, [["a", "b"]]]) for h, r in BEYOND[:4]),
    *(([*h, ["a", "b"]], [*r, [[], ["a"]]]) for h, r in BEYOND[:4]),
    *(([*h, ["a"]], [*r, ONE_EMPTY_REFERENCE]) for h, r in BEYOND[:4]),
    *(([*h, ["a", "b"]], [*r, NO_REFERENCE]) for h, r in BEYOND[:4]),
    EMPTY,
]


def _agreeing(predictions: list[tuple[Answer, ...]]) -> list[set[int]]:
    """For each point, the points whose predictions agree with its own on every diagnostic (itself
    included), to a binary32 target's precision: a sweep over the diagnostic with the most values."""
    column = max(range(len(predictions[0])), key=lambda k: len({p[k] for p in predictions}))
    agreeing: list[set[int]] = [{i} for i in range(len(predictions))]
    pairs: list[tuple[int, int]] = []
    errors: dict[str, list[int]] = {}
    numbers = []
    for i, p in enumerate(predictions):
        value = p[column]
        if isinstance(value, str):
            errors.setdefault(value, []).append(i)
        else:
            numbers.append((value, i))
    for group in errors.values():
        pairs += combinations(group, 2)
    numbers.sort()
    for k, (value, i) in enumerate(numbers):
        for other, j in numbers[k + 1 :]:
            if other > value + BINARY32_TOLERANCE * abs(other) + 1e-300:
                break
            pairs.append((i, j))
    for a, b in pairs:
        if all(
            agrees(x, y, BINARY32_TOLERANCE, IN_FULL)
            for x, y in zip(predictions[a], predictions[b], strict=True)
        ):
            agreeing[a].add(b)
            agreeing[b].add(a)
    return agreeing


@pytest.mark.slow  # every one of 4,992 registry points: 40 s of CPU
@pytest.mark.parametrize("point", SEARCHED, ids=lambda p: p.id)
def test_diagnostics_tell_apart_every_registry_point_that_scores_differently(point: Point) -> None:
    """A point searched over the registry (FP-ZERO) stops at the fewest axes moved that predict every
    answer (CONF-FINGERPRINT). That places a target computing any registry point where it is only if,
    of the points of no higher rank its diagnostics cannot tell from it (to a binary32 target's
    precision), those of the lowest rank (the ones the search returns) give its score on 12 further
    corpora too: the same BLEU under two spellings (SMOOTH-FLOOR is SMOOTH-CC1, an early return when
    nothing matches is one when no unigram matches, an early return on any zero leaves nothing to
    smooth). A point answering "error" to every diagnostic shows nothing (the robustness and
    differential checks judge it)."""
    conventions = point.conventions({})
    assert len({c.name for c in conventions}) == len(conventions)
    assert {c.rank for c in conventions} == set(range(len(point.axes) + 1))
    on_diagnostics = [tuple(c.predict({}, d.corpus) for d in point.diagnostics) for c in conventions]
    beyond: dict[int, list[Answer]] = {}
    corpora = BEYOND_DOMAIN if set(point.axes) & set(DOMAIN_AXES) else BEYOND

    def further(k: int) -> list[Answer]:
        if k not in beyond:
            beyond[k] = [conventions[k].predict({}, corpus) for corpus in corpora]
        return beyond[k]

    wrong = []
    for m, agreeing in enumerate(_agreeing(on_diagnostics)):
        if all(isinstance(p, str) for p in on_diagnostics[m]):
            continue
        lowest = min(conventions[k].rank for k in agreeing)
        for f in sorted(k for k in agreeing if conventions[k].rank == lowest and k != m):
            if not all(
                agrees(x, y, BINARY32_TOLERANCE, IN_FULL) for x, y in zip(further(m), further(f), strict=True)
            ):
                wrong.append(f"{conventions[m].name} is placed at {conventions[f].name}")
    assert not wrong, f"{point.id}: the diagnostics do not tell apart:\n" + "\n".join(wrong[:20])


#: FP-ZERO's name for the paper's own zero precision (the registry's meaning, spec EC-002).
PAPER_ZERO = "zero_precision=limit: BLEU is 0, the limit of the geometric mean (the paper)"


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        # Hand-checked against the peers' sources (spec 10): nltk replaces log 0 by its sentinel
        # (DIV-NLTK-002); sacrebleu's default exp smoothing returns 0 early when nothing matches
        # (sacrebleu/metrics/bleu.py:258) and reports percent; bleuscore's brevity penalty uses the shortest
        # reference (compute's reference length is the minimum length over references).
        (
            "nltk",
            {
                "FP-ZERO": "zero_precision=sentinel(2.225074e-308), early_return=no-unigram-match, "
                "denominator=max1-segment",
                "FP-REF-LENGTH": "the closest length, ties to the shorter (the paper, as mteval)",
            },
        ),
        # (exp is SMOOTH-CC3; returning 0 when nothing matches is returning 0 when no unigram does)
        (
            "sacrebleu",
            {
                "FP-SCALE": "percent: 100 x BLEU",
                "FP-ZERO": "smoothing=chen-cherry-3, early_return=no-unigram-match",
            },
        ),
        (
            "bleuscore",
            {"FP-REF-LENGTH": "the shortest reference", "FP-ZERO": PAPER_ZERO},
        ),
        # torchmetrics 1.9.0, functional/text/bleu.py: counts in float32 tensors (the default
        # dtype), r = target_len_list[diffs.index(min(diffs))] (the first of the closest),
        # 0 when min(numerator) == 0.
        (
            "torchmetrics",
            {
                "FP-PRECISION": "binary32: within 1e-5 only (float32 arithmetic)",
                "FP-REF-LENGTH": "the closest length, ties to the first reference given",
                "FP-ZERO": PAPER_ZERO,
            },
        ),
        # FP-PRECISION's precisions probe: p_n rounded to binary32, the rest binary64 (ignite's
        # counts are float32 tensors), 2.5e-8 from the exact score, which BP alone never shows.
        (
            "reference[arithmetic=binary32-precisions]",
            {"FP-PRECISION": "binary32 precisions: p_n rounded to binary32, the rest binary64"},
        ),
        # the smoothing parameter is solved for (FP-ZERO's solver): 1e-13, as
        # tests.targets.conform.tiny_epsilon_bleu adds it (to every count: the zero counts show it)
        (
            T + "tiny_epsilon_bleu",
            {
                "FP-ZERO": "smoothing=chen-cherry-1=1e-13: add epsilon to a zero count (Chen and Cherry 2014, method 1)"
            },
        ),
        (
            "reference[ref_length=average,smoothing=add-k,smoothing_value=0.25]",
            {
                "FP-REF-LENGTH": "the mean of the reference lengths",
                "FP-ZERO": "smoothing=add-k=0.25: k added to matches and totals from order 2 (sacrebleu's add-k)",
            },
        ),
    ],
)
def test_fingerprints_of_peers(spec: str, expected: dict[str, str]) -> None:
    if spec == "torchmetrics" and importlib.util.find_spec("torchmetrics") is None:
        pytest.skip("torchmetrics is an optional extra: pip install '.[torchmetrics]' (.ci/run does)")
    target = ProtocolTarget(python_command(spec))
    try:
        found = {
            f.point.id: f.convention.name if f.convention else None for f in fingerprint(target).findings
        }
    finally:
        target.close()
    for point, name in expected.items():
        assert found[point] == name, (point, found[point])


@pytest.mark.slow
def test_nltk_divergences_are_named(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _report(capsys, "-t", "nltk")
    assert code == 1
    target: Any = report["targets"][0]  # type: ignore[index]
    # nltk's zero behaviour is a registry point (FP-ZERO's search finds it); the verdict places the
    # target at nltk's profile and names nltk's registered divergence on each axis it moves (spec 10)
    zero = next(c for c in target["checks"] if c["id"] == "FP-ZERO")
    assert zero["status"] == "pass"
    assert zero["detail"].startswith("zero_precision=sentinel(2.225074e-308), early_return=no-unigram-match")
    verdict = target["verdict"]
    assert (verdict["level"], verdict["point"]) == ("variant", "nltk")
    specs = {d["axis"]: d["spec"] for d in verdict["differs"]}
    assert specs == {
        "denominator": "EC-015, DIV-NLTK-001",
        "early_return": "EC-016, DIV-NLTK-003",
        "zero_precision": "EC-002, DIV-NLTK-002",
    }


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "failing"),
    [
        (["-t", T + "no_clip"], "DIFF-CORPUS"),
        (["-t", T + "raises"], "ROB-ERROR"),
        (["-t", T + "nan"], "ROB-NAN"),
        (["-t", T + "out_of_range"], "ROB-OUT-OF-RANGE"),
        (["-t", T + "wrong_type"], "ROB-WRONG-TYPE"),
        (["-t", T + "hangs", "--timeout", "2"], "ROB-TIMEOUT"),
        (["-t", T + "crashes"], "ROB-CRASH"),
        (["-t", T + "mutates"], "ROB-MUTATION"),
        (["-t", T + "independent_bleu", "--scale", "percent"], "FP-SCALE-DECLARED"),
        (["--command", "perl conformance/runner/examples/bleu.pl --break noclip"], "DIFF-CORPUS"),
        (["--command", "perl conformance/runner/examples/bleu.pl --break garbage"], "ROB-PROTOCOL"),
        (["--command", "perl conformance/runner/examples/bleu.pl --break die"], "ROB-CRASH"),
    ],
    ids=lambda a: a if isinstance(a, str) else a[1].split(":")[-1],
)
def test_broken_targets_are_caught(capsys: pytest.CaptureFixture[str], args: list[str], failing: str) -> None:
    if args[0] == "--command" and shutil.which("perl") is None:
        pytest.skip("perl is not installed (the example harness needs it)")
    code, report = _report(capsys, *args)
    assert code == 1
    assert _statuses(report)[failing] == "fail"


@pytest.mark.slow
def test_macro_average_is_a_named_convention(capsys: pytest.CaptureFixture[str]) -> None:
    """EC-009's macro average is a spec convention; its float sums, a few ulp off under
    INV-CORPUS-DUP, are the same score within SCORE_TOLERANCE (spec CONF-JUDGE). It is not
    the paper's BLEU: a variant of it, conformant once accepted (spec CONF-VERDICT)."""
    code, report = _report(capsys, "-t", T + "macro")
    target: Any = report["targets"][0]  # type: ignore[index]
    aggregation = next(c for c in target["checks"] if c["id"] == "FP-AGGREGATION")
    assert aggregation["detail"].startswith("aggregation=macro: ")
    assert not {k: v for k, v in _statuses(report).items() if v not in ("pass", "n/a")}
    assert code == 1
    assert target["verdict"]["level"] == "variant"
    assert [d["axis"] for d in target["verdict"]["differs"]] == ["aggregation"]
    code, report = _report(capsys, "-t", T + "macro", "--accept", "aggregation=macro")
    assert code == 0


VARIANTS = [
    (["-t", "reference[ref_length=closest-first]"], "ref_length", "closest-first", "EC-001"),
    (["-t", "reference[ref_length=longest]"], "ref_length", "longest", "EC-001"),
    # the arithmetic axis is defined by CONV-ARITH (spec 13; the registry names each axis by its entry)
    (["-t", T + "binary32"], "arithmetic", "binary32", "CONV-ARITH"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("args", "axis", "value", "spec"), VARIANTS, ids=[v[2] for v in VARIANTS])
def test_a_documented_alternative_is_a_variant_until_accepted(
    capsys: pytest.CaptureFixture[str], args: list[str], axis: str, value: str, spec: str
) -> None:
    code, report = _report(capsys, *args)
    verdict: Any = report["targets"][0]["verdict"]  # type: ignore[index]
    assert code == 1
    assert verdict["level"] == "variant"
    assert verdict["differs"] == [
        {
            "axis": axis,
            "spec": spec,
            "expected": {"ref_length": "closest", "arithmetic": "binary64"}[axis],
            "found": value,
        }
    ]
    code, report = _report(capsys, *args, "--accept", f"{axis}={value}")
    assert code == 0
    assert report["targets"][0]["verdict"]["level"] == "conformant"  # type: ignore[index]


SPEC_CONVENTIONS = [
    ("ref_length=average", "ref_length=average"),
    ("smoothing=chen-cherry-5", "smoothing=chen-cherry-5"),
    ("undefined_precision=error", "undefined_precision=error"),
    ("zero_precision=skip", "zero_precision=skip"),
    ("effective_order=true", "undefined_precision=effective"),
    ("aggregation=macro", "aggregation=macro"),
    ("ref_length=closest-longer", "ref_length=closest-longer"),
    ("smoothing=floor", "smoothing=floor"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("option", "accept"), SPEC_CONVENTIONS, ids=[c[0] for c in SPEC_CONVENTIONS])
def test_the_reference_under_a_spec_convention_is_conformant_once_it_is_accepted(
    capsys: pytest.CaptureFixture[str], option: str, accept: str
) -> None:
    # Spec CONF-VERDICT: the runner must not fail its own reference under the conventions the
    # spec offers (a rational r sent as a double, scores above 1 under method 5, the error
    # EC-003 asks for), and must name each as a variant of the paper until it is accepted.
    code, report = _report(capsys, "-t", f"reference[{option}]", "--accept", accept)
    verdict: Any = report["targets"][0]["verdict"]  # type: ignore[index]
    assert (verdict["level"], code) == ("conformant", 0), verdict


@pytest.mark.slow
def test_a_peer_is_placed_at_its_profile_and_conformant_to_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = _report(capsys, "-t", "nltk")
    verdict: Any = report["targets"][0]["verdict"]  # type: ignore[index]
    assert code == 1
    assert (verdict["level"], verdict["point"]) == ("variant", "nltk")
    assert {"denominator", "zero_precision"} <= {d["axis"] for d in verdict["differs"]}
    # Explanations name the target's own conventions only: nltk's, not sacrebleu's.
    assert not [m for m in verdict["matched"] if "sacrebleu" in m]
    code, report = _report(capsys, "-t", "nltk", "--expect", "nltk")
    assert code == 0
    assert report["targets"][0]["verdict"]["level"] == "conformant"  # type: ignore[index]


# The zoo: real implementations, each with the point written from its source (spec 13's
# profiles, and CONF-ZOO's table with the file and line behind every value). The runner must
# place each there and, expecting that profile, call it conformant.
ZOO = [
    ("nltk[method=4]", "nltk[method=4]", "nltk"),
    # served on the runner's space-joined tokens with tokenize="none" (FP-TEXT finds it so)
    ("sacrebleu[smooth=floor]", "sacrebleu[smooth=floor,tokenize=none]", "sacrebleu"),
    ("bleuscore", "bleuscore", "bleuscore"),
    ("torchmetrics[smooth=true]", "torchmetrics[smooth=true]", "torchmetrics"),
    ("ignite", "ignite", "ignite"),
    ("ignite[smooth=smooth1,average=micro]", "ignite[average=micro,smooth=smooth1]", "ignite"),
    pytest.param(
        "coco",
        "coco",
        "pycocoevalcap",
        marks=pytest.mark.xfail(
            strict=True,
            raises=AssertionError,
            reason="a known gap of the runner: FP-UNDEFINED's c = r = 0 question meets coco's ratio BP, "
            "0 there, which FP-BP cannot see (its questions have r > 0), so no convention on FP-UNDEFINED's "
            "axes with the paper's BP predicts the 0 coco answers (recorded in conformance/zoo/zoo.json)",
        ),
    ),
    # sentence level only: its corpus questions are skipped, never read as errors
    ("fast-bleu", "fast-bleu", "fast_bleu"),
]


def _zoo_id(member: Any) -> str:
    return str(member.values[0] if hasattr(member, "values") else member[0])


#: sacrebleu 1.5.1 lives in an environment of its own (.ci/run makes it): the runner starts the
#: harness there as a --command target, as it would a tool in another language.
SACREBLEU_1 = Path(__file__).resolve().parent.parent / ".venv-sacrebleu1" / "bin" / "python"


@pytest.mark.slow
@pytest.mark.parametrize(("target", "point", "module"), ZOO, ids=[_zoo_id(z) for z in ZOO])
def test_the_runner_places_each_zoo_member_at_its_profile(
    capsys: pytest.CaptureFixture[str], target: str, point: str, module: str
) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (the torchmetrics and zoo extras; CI installs them)")
    code, report = _report(capsys, "-t", target, "--expect", point)
    verdict: Any = report["targets"][0]["verdict"]  # type: ignore[index]
    assert (verdict["level"], verdict["point"]) == ("conformant", point), verdict
    assert code == 0
    # Every row passes, is n/a, or is explained by the target's own point: the point itself, or a
    # registered divergence of the same tool (never another tool's peer model).
    tool = profile_of_name(point).tool.upper()
    checks: Any = report["targets"][0]["checks"]  # type: ignore[index]
    assert all(c["status"] in ("pass", "n/a", "explained") for c in checks), _statuses(report)
    for check in checks:
        for why in check["explained_by"]:
            assert why == f"the point {point}" or why.startswith(f"DIV-{tool}-"), (check["id"], why)


@pytest.mark.slow
def test_sacrebleu_1_5_is_placed_at_its_profile_and_is_a_variant_of_sacrebleu_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A false "not conformant" once given: a tool that drops empty references and raises when none
    # remain. Expected from sacrebleu 1.5.1's source (spec CONF-ZOO): empty references dropped,
    # no early return before smoothing, an empty corpus 0.
    if not SACREBLEU_1.exists():
        pytest.skip("sacrebleu 1.5.1's environment (.venv-sacrebleu1, made by .ci/run) is absent")
    command = f"{SACREBLEU_1} -m conformance.runner.harness sacrebleu"
    code, report = _report(capsys, "--command", command, "--expect", "sacrebleu-1.5[tokenize=none]")
    verdict: Any = report["targets"][0]["verdict"]  # type: ignore[index]
    assert (verdict["level"], verdict["point"], code) == ("conformant", "sacrebleu-1.5[tokenize=none]", 0)
    assert set(_statuses(report).values()) <= {"pass", "n/a"}, _statuses(report)
    code, report = _report(capsys, "--command", command, "--expect", "sacrebleu[tokenize=none]")
    verdict = report["targets"][0]["verdict"]  # type: ignore[index]
    assert (verdict["level"], code) == ("variant", 1)
    assert {d["axis"] for d in verdict["differs"]} == {"empty_references", "early_return"}
    # An empty corpus scored 0 is a choice outside BLEU's domain: acceptable, reported (CONF-VERDICT).
    assert {d["axis"]: d["found"] for d in verdict["choices"]} == {"empty_corpus": "zero"}


@pytest.mark.slow
def test_a_sentence_only_target_is_placed_by_its_sentence_answers(capsys: pytest.CaptureFixture[str]) -> None:
    # No corpus entry point: its skipped corpus questions are not read as answers (spec
    # CONF-VERDICT); its sentence answers place it at nltk's sentence_bleu with method 1.
    code, report = _report(capsys, "-t", T + "sentence_only", "--expect", "nltk-sentence[method=1]")
    verdict: Any = report["targets"][0]["verdict"]  # type: ignore[index]
    assert (verdict["level"], verdict["point"]) == ("conformant", "nltk-sentence[method=1]"), verdict
    assert code == 0


@pytest.mark.slow
def test_a_bug_is_not_conformant_whatever_is_expected(capsys: pytest.CaptureFixture[str]) -> None:
    for expect in ("paper", "nltk", "sacrebleu"):
        code, report = _report(capsys, "-t", T + "no_clip", "--expect", expect)
        verdict: Any = report["targets"][0]["verdict"]  # type: ignore[index]
        assert code == 1
        assert verdict["level"] == "not conformant"
        assert "DIFF-CORPUS" in verdict["unaccounted"]


@pytest.mark.slow
def test_rows_show_the_target_value_the_expected_value_and_the_convention(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # CONF-REPORT: the DIFF-CORPUS row of a target that does not clip counts carries, on its
    # counterexample, the target's answer (no_clip itself, recomputed here) and the expected
    # value (independent_bleu, the floating-point BLEU written from the paper in
    # tests/targets/conform.py, an oracle that is not the reference).
    from tests.targets.conform import independent_bleu, no_clip  # noqa: PLC0415

    _code, report = _report(capsys, "-t", T + "no_clip")
    row = next(c for c in report["targets"][0]["checks"] if c["id"] == "DIFF-CORPUS")  # type: ignore[index]
    hyps, refs = row["counterexample"]
    assert row["target_value"] == pytest.approx(no_clip(hyps, refs), rel=1e-12)
    assert row["expected_value"] == pytest.approx(independent_bleu(hyps, refs), rel=1e-12)
    assert row["target_value"] != pytest.approx(row["expected_value"])
    assert row["expected_by"].startswith("the reference at the fingerprinted point")
    main(["-q", "-n", "15", "-t", T + "no_clip"])
    text = capsys.readouterr().out
    assert (
        f"target {row['target_value']:.12g}; expected {row['expected_value']:.12g}, from the reference"
        in text
    )


def test_a_rust_panic_is_the_targets_error_answer_and_an_exit_is_a_crash() -> None:
    # PyO3 raises a panic as pyo3_runtime.PanicException, a BaseException (bleuscore does on a
    # segment without references): the harness answers "error", as for any Exception.
    from conformance.runner.harness import Served  # noqa: PLC0415

    panic = type("PanicException", (BaseException,), {"__module__": "pyo3_runtime"})

    def raising(kind: type[BaseException]) -> Served:
        def score(level: str, hyps: list[Any], refs: list[list[Any]]) -> float:
            raise kind("called `Option::unwrap()` on a `None` value")

        return Served("panics", "tokens", ["corpus"], False, score)

    request = {"type": "score", "seq": 1, "level": "corpus", "hypotheses": [["a"]], "references": [[]]}
    line = json.dumps(request)
    result = answer(raising(panic), request, line)
    assert (result["status"], result["error"].split(":")[0]) == ("error", "PanicException")
    with pytest.raises(SystemExit):
        answer(raising(SystemExit), request, line)


@pytest.mark.slow
def test_a_sentence_only_targets_skipped_questions_are_never_evidence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Spec CONF-VERDICT: a point whose every diagnostic needs several segments is not asked of a
    # target without a corpus entry point: n/a, "no evidence", never "error"; every other point
    # is settled on its one-segment diagnostics, asked at the sentence level.
    _code, report = _report(capsys, "-t", T + "sentence_only", "--expect", "nltk-sentence[method=1]")
    checks = {c["id"]: c for c in report["targets"][0]["checks"]}  # type: ignore[index]
    for point in ("FP-AGGREGATION", "FP-EMPTY-CORPUS"):
        assert (checks[point]["status"], checks[point]["detail"].split(":")[0]) == ("n/a", "no evidence")
    for point in ("FP-REF-LENGTH", "FP-ZERO", "FP-UNDEFINED", "FP-EMPTY-HYPOTHESIS", "FP-NO-REFERENCE"):
        assert checks[point]["status"] in ("pass", "explained"), checks[point]
    assert checks["VECTORS"]["status"] != "fail", checks["VECTORS"]


def test_a_bad_expectation_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-t", "reference", "--expect", "moses"]) == 2
    assert "unknown profile" in capsys.readouterr().err
    assert main(["-t", "reference", "--accept", "colour=blue"]) == 2
    assert "--accept takes AXIS=VALUE" in capsys.readouterr().err
    assert main(["-t", "reference", "--accept", "ref_length=nearest"]) == 2


@pytest.mark.slow
def test_a_fault_is_shrunk_once_and_named_by_later_checks(capsys: pytest.CaptureFixture[str]) -> None:
    """``crashes`` dies on exactly two segments: the ROB-CRASH counterexample is shrunk to two
    empty segments, and later checks the crash fails point to that row instead of shrinking."""
    # Shrinking takes a restart per crashing question: more than the default --max-restarts.
    _code, report = _report(capsys, "-t", T + "crashes", "--max-restarts", "1000")
    checks = {c["id"]: c for c in report["targets"][0]["checks"]}  # type: ignore[index]
    hyps, refs = checks["ROB-CRASH"]["counterexample"]
    assert hyps == [[], []]
    assert refs == [[[]], [[]]]
    pointing = [c for c in checks.values() if "shrunk under ROB-CRASH" in c["detail"]]
    assert pointing
    assert all(len(c["counterexample"][0]) == 2 for c in pointing if c["id"].startswith("DIFF"))


def test_scores_are_compared_exactly_unless_the_target_declares_a_tolerance() -> None:
    class Exact:
        pass

    class Loose:
        score_tolerance = 1e-11

    a = 0.47062422564614886
    b = 0.4706242256461488  # one ulp below: a float sum in another order
    assert not same_score(Exact(), a, b)  # type: ignore[arg-type]
    assert same_score(Loose(), a, b)  # type: ignore[arg-type]
    assert not same_score(Loose(), a, a * (1 + 1e-9))  # type: ignore[arg-type]
    assert not same_score(Loose(), 0.0, 1e-300 * 2)  # type: ignore[arg-type]


@pytest.mark.slow
def test_json_report_follows_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    schema = json.loads(Path("conformance/runner/report.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    for args in (["-t", T + "nan"], ["-t", "nltk"]):
        _code, report = _report(capsys, *args)
        jsonschema.validate(report, schema)
    # A matrix column for a peer that is not installed (a name no package has, to be sure).
    missing = run_target("nosuchpeer:f", python_command("nosuchpeer_module:f"), RunSettings(examples=5))
    matrix = json.loads(report_json([missing], 0, 5))
    jsonschema.validate(matrix, schema)
    assert matrix["targets"][0]["available"] is False
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**report, "format": "other"}, schema)


@pytest.mark.slow
def test_binary32_arithmetic_is_named_and_judged_at_its_precision(capsys: pytest.CaptureFixture[str]) -> None:
    """Right conventions in float32 arithmetic: FP-PRECISION is explained by EC-013 (not
    conformant), and every other check passes at BINARY32_TOLERANCE instead of failing."""
    code, report = _report(capsys, "-t", T + "binary32")
    statuses = _statuses(report)
    assert code == 1
    assert statuses.pop("FP-PRECISION") == "explained"
    assert not {k: v for k, v in statuses.items() if v not in ("pass", "n/a")}
    assert statuses["DIFF-CORPUS"] == "pass"


@pytest.mark.slow
def test_same_seed_same_report(capsys: pytest.CaptureFixture[str]) -> None:
    first = _run(capsys, "-t", T + "nan", "--seed", "7")  # run twice, never shared (_report)
    second = _run(capsys, "-t", T + "nan", "--seed", "7")
    assert first == second
    checks = first[1]["targets"][0]["checks"]  # type: ignore[index]
    rob = next(c for c in checks if c["id"] == "ROB-NAN")
    assert rob["status"] == "fail"
    assert rob["counterexample"] is not None  # shrunk, and shrunk the same way twice


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-t", "nosuchmodule:f"]) == 2
    assert main(["-t", T + "NOT_CALLABLE"]) == 2
    assert main(["-t", "nltk[method=9]"]) == 2
    assert main(["--command", "/nonexistent/program"]) == 2
    assert main(["-n", "0", "-t", "reference"]) == 2
    assert main(["--bogus"]) == 2
    assert "spec CONF-RUNNER" in capsys.readouterr().err


def test_unavailable_peer_is_a_column_not_a_failure() -> None:
    """A built-in peer that does not import is reported with the extra to install (here torchmetrics
    is hidden from the harness's process, whether or not it is installed)."""
    hidden = (
        "import sys; sys.modules['torchmetrics'] = None; from conformance.runner.harness import main; "
        "sys.exit(main(['torchmetrics']))"
    )
    report = run_target("torchmetrics", [sys.executable, "-c", hidden], RunSettings(examples=5))
    assert not report.available
    assert "not installed" in report.unavailable
    assert "pip install 'reference-bleu[torchmetrics]'" in report.unavailable
    assert "not installed" in matrix([report], markdown=False)


def test_protocol_schema_accepts_the_harness_messages() -> None:
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    served = resolve("reference")
    question = {"type": "score", "seq": 1, "level": "corpus", "hypotheses": [["a"]], "references": [[["a"]]]}
    message = answer(served, question, json.dumps(question))
    jsonschema.validate(message, schema)
    jsonschema.validate({"type": "hello", "protocol": "bleu-conform", "version": 2}, schema)
    capabilities = {"type": "capabilities", "protocol": "bleu-conform", "name": "t", "input": "tokens"}
    for version in (1, 2):  # a version-1 target is still understood
        jsonschema.validate(
            {**capabilities, "version": version, "levels": ["corpus"], "statistics": False}, schema
        )


def test_failures_are_grouped_by_root_cause() -> None:
    """CONF-REPORT: checks shrunk to the same input are one cause under one headline; the line that shows
    a long counterexample stays valid JSON."""
    from conformance.runner.judge.base import Check  # noqa: PLC0415
    from conformance.runner.report import abbreviated, details  # noqa: PLC0415
    from conformance.runner.run import TargetReport, causes  # noqa: PLC0415

    same = [[["the", "the"]], [[["the"]]]]
    checks = [
        Check("VECTORS", "vectors", "fail", "2 of 29 differ", ("CONF-VECTORS",)),
        Check("DIFF-CORPUS", "corpus", "fail", "target 1.0 != reference 0.5", ("BLEU-EVAL",), same),
        Check("INV-CLIP", "clip", "pass", "", ("INV-CLIP",)),
        Check("DIFF-SENTENCE", "sentence", "fail", "sentence 1.0 != 0.5", ("EC-009",), same),
        Check("INV-RANGE", "range", "fail", "score 2.0", ("INV-RANGE",), [[["a"]], [[["b"]]]]),
    ]
    grouped = [(head.id, [c.id for c in others]) for head, others in causes(checks)]
    assert grouped == [("VECTORS", []), ("DIFF-CORPUS", ["DIFF-SENTENCE"]), ("INV-RANGE", [])]
    report = TargetReport("t", "t", True, False, checks, {}, {})
    text = details(report, markdown=False)
    assert "the same input also fails (same cause): DIFF-SENTENCE" in text
    assert "DIFF-SENTENCE [" not in text  # listed under its cause, not as a row of its own
    assert report.as_json()["causes"][1] == {"headline": "DIFF-CORPUS", "also": ["DIFF-SENTENCE"]}
    long = [[["w" * 50] * 40], [[["v" * 50] * 40]]]
    shown, whole = abbreviated(long)
    assert not whole
    assert len(shown) <= 600
    # 40 strings of 50 characters per list: 12 or 6 kept items (about 54 characters each, twice) pass
    # 600; 3 items cut to 30 characters plus "... (50 characters)" fit: 3 kept, 37 more
    assert json.loads(shown)[0][0][-1] == "... 37 more"
    assert json.loads(shown)[0][0][0] == "w" * 30 + "... (50 characters)"


@pytest.mark.slow
def test_a_text_target_is_placed_by_its_tokenizer_and_case_folding(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """FP-TEXT (EC-010): a text target lower-casing and tokenizing as 13a (sacrebleu's own tokenizer, an
    independent implementation) is found so; against the paper (whitespace, no folding) it is a
    variant on exactly those two axes, and conformant once they are accepted."""
    args = ["-t", T + "lowercase_13a_bleu", "--input", "text"]
    code, report = _report(capsys, *args)
    target: Any = report["targets"][0]  # type: ignore[index]
    text = next(c for c in target["checks"] if c["id"] == "FP-TEXT")
    assert text["status"] == "pass"
    assert "tokenize 13a, case unicode" in text["detail"]
    assert code == 1
    assert target["verdict"]["level"] == "variant"
    rename = next(c for c in target["checks"] if c["id"] == "INV-RENAME")  # "The" and "the" merge: n/a
    assert (rename["status"], rename["detail"]) == (
        "n/a",
        "does not hold for a text target with tokenize 13a, case unicode (FP-TEXT)",
    )
    assert {d["axis"]: (d["expected"], d["found"]) for d in target["verdict"]["differs"]} == {
        "tokenize": ("none", "13a"),
        "lowercase": ("none", "unicode"),
    }
    code, report = _report(capsys, *args, "--accept", "tokenize=13a", "--accept", "lowercase=unicode")
    assert code == 0
    assert report["targets"][0]["verdict"]["level"] == "conformant"  # type: ignore[index]


@pytest.mark.slow
def test_a_character_level_text_target_is_judged_on_the_characters_it_sees(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A text target that scores characters (char_bleu: the paper's BLEU on characters, spaces
    dropped, written without reference_bleu) is sent space-joined words; once FP-TEXT has found
    `tokenize char`, every later question is asked and predicted on the characters it sees
    (spec CONF-FINGERPRINT), so every point settles, no check fails, and against the paper it is
    a variant on the tokenizer alone."""
    args = ["-t", T + "char_bleu", "--input", "text"]
    code, report = _report(capsys, *args)
    target: Any = report["targets"][0]  # type: ignore[index]
    statuses = _statuses(report)
    assert statuses["FP-TEXT"] == "pass"
    assert all(status in ("pass", "n/a") for status in statuses.values()), statuses
    assert (code, target["verdict"]["level"]) == (1, "variant")
    assert [(d["axis"], d["found"]) for d in target["verdict"]["differs"]] == [("tokenize", "char")]
    code, report = _report(capsys, *args, "--accept", "tokenize=char")
    assert (code, report["targets"][0]["verdict"]["level"]) == (0, "conformant")  # type: ignore[index]


@pytest.mark.slow
def test_a_text_target_with_an_unknown_tokenizer_is_not_conformant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = _report(capsys, "-t", T + "vowel_split_bleu", "--input", "text")
    target: Any = report["targets"][0]  # type: ignore[index]
    assert next(c for c in target["checks"] if c["id"] == "FP-TEXT")["status"] == "fail"
    assert code == 1
    assert target["verdict"]["level"] == "not conformant"
    assert "FP-TEXT" in target["verdict"]["unaccounted"]  # besides the generated inputs, which hold "e"s


@pytest.mark.slow
def test_a_target_that_rounds_its_scores_is_judged_at_its_declared_digits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CONF-PROTOCOL version 2, ``digits``: scores printed to 2 decimals (x100) are compared to within one
    unit of their last decimal, 1e-2 / 100 on [0, 1]; declared digits win over the rounding the
    runner infers (CONF-FINGERPRINT; inferred: tests/test_conform_scale.py), and the report says so."""
    args = ["-t", T + "rounded_percent_bleu", "--scale", "percent"]
    code, report = _report(capsys, *args, "--digits", "2")
    bad = {k: v for k, v in _statuses(report).items() if v not in ("pass", "n/a")}
    assert not bad, bad
    assert code == 0
    scale = next(c for c in report["targets"][0]["checks"] if c["id"] == "FP-SCALE")  # type: ignore[index]
    assert scale["detail"] == "percent, rounded to 2 decimals (declared): 100 x BLEU"
    assert main(["-t", "reference", "--digits", "18"]) == 2


def test_protocol_versions_one_and_two_are_spoken() -> None:
    """A version-1 target (no ``digits``) is still accepted; ``digits`` needs version 2 and a bound."""
    from conformance.runner.protocol import ProtocolViolationError, check_capabilities  # noqa: PLC0415

    base = {"type": "capabilities", "protocol": "bleu-conform", "name": "t", "levels": ["corpus"]}
    check_capabilities({**base, "version": 1})
    check_capabilities({**base, "version": 2, "digits": 2})
    for bad in ({"version": 1, "digits": 2}, {"version": 2, "digits": 18}, {"version": 2, "digits": "2"}):
        with pytest.raises(ProtocolViolationError):
            check_capabilities({**base, **bad})
    with pytest.raises(ProtocolViolationError):
        check_capabilities({**base, "version": 3})


def test_separating_questions_tell_apart_points_the_battery_left_together() -> None:
    # Two points that differ only in how ties between reference lengths are broken: on corpora
    # with several references of lengths equally far from c they predict different scores.
    # A target that is the first one answers the first question it is asked as the first
    # predicts, so the second is dropped; one question suffices.
    from conformance.runner.expectation import Candidate  # noqa: PLC0415
    from conformance.runner.placement import generated_corpora, separate  # noqa: PLC0415

    shorter = Candidate("ties to the shorter", {"ref_length": "closest"})
    longer = Candidate("ties to the longer", {"ref_length": "closest-longer"})
    pool = generated_corpora(99, 96)
    asked: list[Any] = []

    def target(corpus: Any) -> float | str:
        asked.append(corpus)
        return shorter.predict(corpus)

    remaining, questions = separate([shorter, longer], target, pool, 1e-9, IN_FULL)
    assert [p.name for p in remaining] == ["ties to the shorter"]
    assert len(questions) == 1 == len(asked)
    (question,) = questions
    predictions = dict(question.predictions)
    assert question.answer == predictions["ties to the shorter"] != predictions["ties to the longer"]


def test_points_no_question_separates_stay_an_honest_ambiguity() -> None:
    # Dropping empty references changes nothing on corpora that have none: the generated pool
    # never separates the two points, so no question is asked and both remain.
    from conformance.runner.expectation import Candidate  # noqa: PLC0415
    from conformance.runner.placement import generated_corpora, separate  # noqa: PLC0415

    kept = Candidate("kept", {})
    dropped = Candidate("dropped", {"empty_references": "drop"})
    pool = generated_corpora(99, 24)
    assert all(r for _, refs in pool for rs in refs for r in rs)
    remaining, questions = separate([kept, dropped], kept.predict, pool, 1e-9, IN_FULL)
    assert [p.name for p in remaining] == ["kept", "dropped"]
    assert questions == ()
