"""The zoo's data, command and report (spec CONF-ZOO), without running a real implementation: the
data against its schema, every entry pinned and its adapter present, the truth compared with a
runner's report written here by hand, the JSON report against its schema, and the page's structure
read with an HTML parser. The zoo tier (tests/test_zoo_tier.py) runs the implementations."""

from __future__ import annotations

import ast
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conformance.runner.html import changes_to, page
from conformance.zoo.command import main
from conformance.zoo.entries import ADAPTERS, SCHEMA, Entry, ZooDataError, load, load_document, select
from conformance.zoo.report import zoo_document
from conformance.zoo.running import REPORTS, Settings, runner_command
from conformance.zoo.truth import convention_differences, verdict_differences

ROOT = Path(__file__).resolve().parent.parent
REPORT_SCHEMA = ROOT / "conformance" / "runner" / "report.schema.json"
ZOO_REPORT_SCHEMA = ROOT / "conformance" / "zoo" / "report.schema.json"
#: The nine of CONF-ZOO before the zoo was data (tests/test_conform.py's ZOO, and sacrebleu 1.5.1).
FIRST_NINE = {
    "nltk-method4",
    "sacrebleu-floor",
    "bleuscore",
    "torchmetrics-smooth",
    "ignite",
    "ignite-smooth1-micro",
    "pycocoevalcap",
    "fast-bleu",
    "sacrebleu-1.5",
}


def _schema(path: Path) -> Draft202012Validator:
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_the_data_validates_against_its_schema() -> None:
    errors = sorted(_schema(SCHEMA).iter_errors(load_document()), key=str)
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


def test_at_least_34_implementations_the_first_nine_among_them() -> None:
    names = {e.name for e in load()}
    assert len(names) >= 34
    assert names >= FIRST_NINE


def _extras_pins() -> set[str]:
    """Every exact pin of pyproject.toml's extras (read as text: tomllib is Python 3.11's)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return {pin.lower() for pin in re.findall(r'^\s*"([A-Za-z0-9._-]+==[^"]+)",', text, re.MULTILINE)}


@pytest.mark.parametrize("entry", load(), ids=lambda e: e.name)
def test_each_entry_is_pinned_in_its_environment(entry: Entry) -> None:
    """The pinned version is what the environment installs: an exact pin of its requirements, or for
    the project's environment, of the project's extras."""
    environment = entry.environment
    if environment.kind == "project":
        assert f"{entry.package}=={entry.version}".lower() in _extras_pins()
    else:
        mark = "@" if environment.kind == "npm" else "=="
        pins = {r.lower().replace("_", "-") for r in environment.requirements}
        assert f"{entry.package}{mark}{entry.version}".lower().replace("_", "-") in pins
    for requirement in environment.requirements:
        assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*(==|@)[0-9][A-Za-z0-9.+!-]*", requirement), (
            requirement
        )


@pytest.mark.parametrize("entry", load(), ids=lambda e: e.name)
def test_each_truth_has_its_source_behind_every_named_convention(entry: Entry) -> None:
    """A truth written from the source: each convention the runner must name has a source line
    (file:line) in the pinned version, or the entry's profile, whose evidence is the tool's."""
    if entry.truth.profile:
        assert entry.truth.point == entry.truth.profile
        return
    by_axis = {e.axis: e.evidence for e in entry.truth.evidence}
    for axis in entry.truth.conventions:
        if axis in ("tokenize", "lowercase", "split"):  # a text rule: the tool's code, or a wrapped tool's
            assert axis in by_axis, axis
            continue
        assert re.search(r"\.(py|pl|js|rs|cpp|h)[^:]*:\d", by_axis.get(axis, "")), (axis, by_axis.get(axis))


def test_one_adapter_file_per_entry_that_is_not_a_builtin() -> None:
    adapters = [e.adapter for e in load() if e.adapter]
    files = sorted(
        p.name for p in ADAPTERS.iterdir() if p.suffix in (".py", ".js") and not p.name.startswith("_")
    )
    assert sorted(adapters) == files
    for name in files:
        if name.endswith(".py"):  # parsed, never imported: its package lives in the entry's environment
            tree = ast.parse((ADAPTERS / name).read_text(encoding="utf-8"))
            assigned = {
                t.id
                for node in tree.body
                if isinstance(node, ast.Assign)
                for t in node.targets
                if isinstance(t, ast.Name)
            }
            assert "ADAPTER" in assigned, name


def test_the_runner_is_run_as_a_user_runs_it() -> None:
    by_name = {e.name: e for e in load()}
    cache = Path("/cache")
    builtin = runner_command(by_name["nltk-method4"], cache, Settings(examples=30))
    assert builtin[1:5] == ["-m", "conformance.runner.conform", "--json", "--quiet"]
    assert builtin[5:7] == ["--target", "nltk[method=4]"]
    assert "30" in builtin
    adapter = runner_command(by_name["compare-mt"], cache, Settings())
    served = adapter[adapter.index("--command") + 1]
    assert served.startswith("/cache/envs/metrics-")
    assert served.endswith(
        "/bin/python -m conformance.runner.harness conformance.zoo.adapters.compare_mt:ADAPTER"
    )
    assert adapter[-2:] == ["--references", "one"]
    node = runner_command(by_name["bleu-score-npm"], cache, Settings())
    assert node[node.index("--command") + 1].startswith("node ")
    assert by_name["bleu-score-npm"].environment.variables(cache)["NODE_PATH"].endswith("/node_modules")


def test_an_unknown_name_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ZooDataError, match="no zoo entry nope"):
        select(["nope"])
    assert main(["run", "nope"]) == 2
    assert "no zoo entry nope" in capsys.readouterr().err


def test_zoo_list_shows_every_entry_with_its_pin_and_truth(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for entry in load():
        assert f"{entry.name}: {entry.package}=={entry.version} " in out
    assert out.count("    truth: ") == len(load())


# --- the truth against a runner's report --------------------------------------------------------

#: A runner's target as conform --json writes it (report.schema.json), written here by hand: placed
#: at nmt, naming the shortest reference and an error where c or r is 0.
NMT_TARGET: dict[str, Any] = {
    "target": "conformance.zoo.adapters.bleu_mp:ADAPTER",
    "name": "bleu-mp 0.0.1 compute_bleu",
    "available": True,
    "unavailable": "",
    "conformant": False,
    "reference_options": {"ref_length": "shortest", "zero_length": "error"},
    "versions": {"python": "3.11.7"},
    "runner_error": "",
    "checks": [
        {
            "id": "FP-REF-LENGTH",
            "title": "which reference length?",
            "status": "pass",
            "detail": "shortest",
            "spec_ids": ["EC-001"],
            "counterexample": None,
            "explained_by": [],
            "compared": "score",
            "family": "fingerprint",
            "fault": "",
            "target_value": None,
            "expected_value": None,
            "expected_by": "",
        },
        {
            "id": "INV-IDENTITY",
            "title": "a hypothesis equal to a reference scores 1",
            "status": "fail",
            "detail": "score 0.75 < 1",
            "spec_ids": ["INV-IDENTITY"],
            "counterexample": [[["a", "b", "c", "d"]], [[["a", "b", "c", "d"]]]],
            "explained_by": [],
            "compared": "score",
            "family": "invariant",
            "fault": "",
            "target_value": 0.75,
            "expected_value": 1.0,
            "expected_by": "the invariant",
        },
    ],
    "verdict": {
        "level": "variant",
        "expected": "paper",
        "point": "nmt",
        "matched": ["nmt"],
        "differs": [{"axis": "ref_length", "expected": "closest", "found": "shortest", "spec": "EC-001"}],
        "choices": [{"axis": "zero_length", "expected": "limit", "found": "error", "spec": "EC-004"}],
        "unaccounted": [],
        "ambiguous": [],
        "unobservable": [],
        "accounted": [],
        "battery": 58,
        "questions": [],
        "text": None,
    },
}


def _entry(name: str) -> Entry:
    return select([name])[0]


def test_a_report_that_matches_the_truth_has_no_difference() -> None:
    entry = _entry("bleu-mp")  # truth: variant at nmt, ref_length=shortest and zero_length=error
    assert verdict_differences(entry, NMT_TARGET) == []
    assert convention_differences(entry, NMT_TARGET) == []


def test_a_changed_behaviour_is_named_axis_by_axis() -> None:
    entry = _entry("bleu-mp")
    changed = json.loads(json.dumps(NMT_TARGET))
    changed["verdict"]["point"] = "the fingerprint's point"
    changed["verdict"]["differs"][0]["found"] = "longest"
    changed["verdict"]["choices"] = []
    assert verdict_differences(entry, changed) == [
        "point: the runner says \"the fingerprint's point\", the truth 'nmt'"
    ]
    assert convention_differences(entry, changed) == [
        "ref_length: the runner says longest, the truth shortest",
        "zero_length: the runner says the paper's value, the truth error",
    ]
    changed["verdict"]["level"] = "not conformant"
    assert (
        verdict_differences(entry, changed)[0]
        == "level: the runner says 'not conformant', the truth 'variant'"
    )
    assert verdict_differences(entry, None) == ["not run (reference-bleu zoo run NAME)"]


def test_a_profile_named_where_no_profile_is_the_point_is_a_difference() -> None:
    entry = _entry("mindspore")  # torchmetrics' conventions in binary64: no profile is that point
    assert not entry.truth.point
    named = json.loads(json.dumps(NMT_TARGET))
    named["verdict"]["point"] = "torchmetrics"
    assert verdict_differences(entry, named) == [
        "point: the runner names the profile 'torchmetrics', but no profile is this point"
    ]
    named["verdict"]["point"] = "paper with ref_length=closest-first"
    assert verdict_differences(entry, named) == []


def test_what_it_would_take_to_be_the_paper_or_sacrebleu() -> None:
    # From spec 13's profiles: sacrebleu is 13a, an early return on no match, exp smoothing and
    # log 0 as -9999999999; a tool with the shortest reference moves that axis back too.
    assert changes_to({"ref_length": "shortest"}, "paper") == [
        ("ref_length", "shortest", "closest", "EC-001")
    ]
    to_sacrebleu = {
        axis: wanted for axis, _, wanted, _ in changes_to({"ref_length": "shortest"}, "sacrebleu")
    }
    assert to_sacrebleu == {
        "tokenize": "13a",
        "ref_length": "closest",
        "early_return": "no-match",
        "zero_precision": "log-constant(-9999999999)",
        "smoothing": "exp",
    }


# --- the JSON report and the page ---------------------------------------------------------------


def _report(*targets: dict[str, Any]) -> dict[str, Any]:
    """A runner's JSON report (report.schema.json) of ``targets``."""
    head = {"format": "reference-bleu-conform", "version": 1, "seed": 0, "examples": 30, "conformant": False}
    return head | {"versions": {"reference-bleu": "0.1.0"}, "targets": list(targets)}


def _keep(cache: Path, entry: Entry, target: dict[str, Any]) -> None:
    report = _report(target)
    kept = {
        "entry": entry.name,
        "digest": entry.digest,
        "date": "2026-11-28T00:00:00+00:00",
        "seconds": 12.5,
        "exit": 1,
        "command": ["reference-bleu", "conform"],
        "report": report,
        "error": "",
    }
    (cache / REPORTS).mkdir(parents=True, exist_ok=True)
    (cache / REPORTS / f"{entry.name}.json").write_text(json.dumps(kept), encoding="utf-8")


def test_the_hand_written_target_is_a_valid_runner_report() -> None:
    report = _report(NMT_TARGET)
    errors = list(_schema(REPORT_SCHEMA).iter_errors(report))
    assert not errors, [e.message for e in errors]


def test_the_zoo_report_validates_against_its_schema(tmp_path: Path) -> None:
    entries = list(load())
    _keep(tmp_path, _entry("bleu-mp"), NMT_TARGET)
    document = zoo_document(entries, tmp_path)
    errors = sorted(_schema(ZOO_REPORT_SCHEMA).iter_errors(document), key=str)
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    by_name = {e["name"]: e for e in document["entries"]}
    assert by_name["bleu-mp"]["differences"] == {"verdict": [], "conventions": []}
    assert by_name["bleu-mp"]["run"]["stale"] is False
    assert by_name["ignite"]["run"] is None
    assert document["date"] == "2026-11-28T00:00:00+00:00"


class _Anchors(HTMLParser):
    """The page read as a browser would find its structure: ids, internal links, rows, resources."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.rows: list[str] = []
        self.loads: list[str] = []
        self.selects: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if tag == "tr" and "entry" in (found.get("class") or ""):
            self.rows.append(str(found.get("id")))
        if tag in ("script", "img", "link", "iframe") and (found.get("src") or found.get("href")):
            self.loads.append(str(found.get("src") or found.get("href")))
        if tag == "select":
            self.selects.append(str(found.get("id")))


def test_the_zoo_page_has_a_row_per_entry_and_every_link_resolves(tmp_path: Path) -> None:
    from conformance.zoo.report import write_zoo_page  # noqa: PLC0415

    _keep(tmp_path, _entry("bleu-mp"), NMT_TARGET)
    path = write_zoo_page(list(load()), tmp_path, tmp_path / "page")
    text = path.read_text(encoding="utf-8")
    parsed = _Anchors()
    parsed.feed(text)
    assert len(parsed.rows) == len(load())
    assert not parsed.loads  # self-contained: nothing loaded from anywhere
    assert all(link.startswith("#") for link in parsed.links)
    assert {link[1:] for link in parsed.links} <= parsed.ids
    assert parsed.selects == ["filter-language", "filter-verdict", "filter-axes"]
    # the run's row and section: the runner's verdict, the truth agreeing, the counterexample
    assert 'id="impl-bleu-mp"' in text
    assert "The runner agrees with the truth." in text
    assert "counterexample" in text
    assert 'href="#spec-INV-IDENTITY"' in text
    assert "not run here: reference-bleu zoo run ignite" in text


def test_the_page_of_a_conform_report_escapes_what_a_target_says() -> None:
    hostile = json.loads(json.dumps(NMT_TARGET))
    hostile["name"] = "<script>alert(1)</script>"
    text = page(_report(hostile))
    assert "<script>alert(1)" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    with pytest.raises(ValueError, match="not a reference-bleu-conform report"):
        page({"format": "something else", "targets": []})


@pytest.mark.slow
def test_conform_html_writes_the_page_of_its_targets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``conform --html FILE`` (spec CONF-REPORT): the run's page beside its usual report."""
    from conformance.runner.conform import main as conform  # noqa: PLC0415

    path = tmp_path / "report.html"
    assert conform(["--quiet", "--examples", "5", "--target", "reference", "--html", str(path)]) == 0
    assert "reference" in capsys.readouterr().out  # the matrix is printed as without --html
    parsed = _Anchors()
    parsed.feed(path.read_text(encoding="utf-8"))
    assert parsed.rows == ["row-reference"]
    assert {link[1:] for link in parsed.links} <= parsed.ids
    assert not parsed.loads
