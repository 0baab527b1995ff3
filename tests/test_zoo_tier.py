"""The zoo tier (``pytest -m zoo``, after ``reference-bleu zoo run``; spec CONF-ZOO): every real
implementation's kept run against its truth, and the zoo's page in a real browser.

Each entry has two checks: its **verdict** (level, and point) and, where the truth places it at a
point, the **conventions** the runner names. A difference fails with the difference, axis by axis:
a tool that changed behaviour, or a runner that did. Where today's runner is known to disagree with
the truth, the entry's ``gaps`` in zoo.json say why, and the check is an expected failure, strict:
it turns red the day the runner is fixed, and the gap is then removed from the data. The truth is
never the runner's answer.

The runs are read from the zoo's cache (``--cache``'s default: ``$REFERENCE_BLEU_ZOO_CACHE``, else
``.zoo``); a missing or stale run fails with the command that makes it. The page is loaded from
``file://`` in Debian's headless Chromium, driven by selenium through chromedriver: no console
error, one matrix row per entry, a filter that hides rows, every internal link resolving, and a
screenshot written beside the page.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from conformance.zoo.entries import Entry, load
from conformance.zoo.environments import cache_folder
from conformance.zoo.report import write_zoo_page
from conformance.zoo.running import kept_run
from conformance.zoo.truth import PLACED, convention_differences, verdict_differences

pytestmark = pytest.mark.zoo

CACHE = cache_folder(None)
CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")


def _param(entry: Entry, check: str) -> Any:
    gap = entry.gaps.get(check)
    # raises=AssertionError: only the check's own assertion is the expected failure (a missing or stale
    # run fails the test all the same)
    known = pytest.mark.xfail(strict=True, raises=AssertionError, reason=f"known gap of the runner: {gap}")
    marks = [known] if gap else []
    return pytest.param(entry, id=entry.name, marks=marks)


def _target(entry: Entry) -> dict[str, Any] | None:
    kept = kept_run(CACHE, entry.name)
    if kept is None:
        pytest.fail(f"{entry.name} was not run: reference-bleu zoo run {entry.name} (cache {CACHE})")
    if kept.digest != entry.digest:
        pytest.fail(
            f"{entry.name}'s run is stale (its entry changed since): reference-bleu zoo run {entry.name}"
        )
    return kept.target


@pytest.mark.parametrize("entry", [_param(e, "verdict") for e in load()])
def test_verdict_against_its_truth(entry: Entry) -> None:
    differences = verdict_differences(entry, _target(entry))
    assert not differences, f"{entry.name}: {'; '.join(differences)}"


@pytest.mark.parametrize("entry", [_param(e, "conventions") for e in load() if e.truth.level in PLACED])
def test_conventions_against_its_truth(entry: Entry) -> None:
    """Only for a truth the runner places at a point: a tool it cannot place has no conventions named
    (its truth's conventions are shown on the page, and its verdict is checked above)."""
    differences = convention_differences(entry, _target(entry))
    assert not differences, f"{entry.name}: {'; '.join(differences)}"


def _browser(user_data: Path) -> Any:
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason="selenium (the browser extra) is not installed"
    )
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={user_data}",
        "--window-size=1600,1000",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=str(CHROMEDRIVER))
    return webdriver.Chrome(options=options, service=service)


@pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="Debian's chromium and chromium-driver are not installed (.ci/run installs them)",
)
def test_the_page_in_a_browser() -> None:
    from selenium.webdriver.common.by import By  # noqa: PLC0415 -- the browser extra
    from selenium.webdriver.support.ui import Select  # noqa: PLC0415

    entries = list(load())
    page = write_zoo_page(entries, CACHE, CACHE / "page")
    with tempfile.TemporaryDirectory(prefix="zoo-chromium-") as profile:
        browser = _browser(Path(profile))
        try:
            browser.get(page.as_uri())
            rows = browser.find_elements(By.CSS_SELECTOR, "#matrix tbody tr.entry")
            assert len(rows) == len(entries)
            # a filter hides rows: the verdict "variant" leaves every other verdict out
            levels = [r.find_element(By.CSS_SELECTOR, "td:nth-of-type(2)").text for r in rows]
            Select(browser.find_element(By.ID, "filter-verdict")).select_by_value("variant")
            shown = [r for r in rows if r.is_displayed()]
            assert 0 < len(shown) == levels.count("variant") < len(rows)
            assert browser.find_element(By.ID, "shown").text == f"{len(shown)} of {len(rows)} shown"
            Select(browser.find_element(By.ID, "filter-verdict")).select_by_value("")
            assert all(r.is_displayed() for r in rows)
            # every internal link resolves to an element of the page
            targets = browser.execute_script(
                "return Array.from(document.querySelectorAll('a[href^=\"#\"]'))"
                ".map(a => [a.getAttribute('href'), !!document.getElementById(a.getAttribute('href').slice(1))]);"
            )
            assert targets
            assert all(found for _, found in targets), [h for h, found in targets if not found]
            browser.save_screenshot(str(page.with_name("page.png")))
            errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
            assert not errors, errors
        finally:
            browser.quit()
    assert page.with_name("page.png").stat().st_size > 10_000


def test_the_zoo_report_of_the_runs_validates_against_its_schemas() -> None:
    """``zoo report --json`` of the kept runs: the zoo report's schema, and each run's target the
    runner's report schema (the target of conformance/runner/report.schema.json)."""
    from jsonschema import Draft202012Validator  # noqa: PLC0415

    from conformance.zoo.report import zoo_document  # noqa: PLC0415

    root = Path(__file__).resolve().parent.parent
    zoo_schema = json.loads((root / "conformance/zoo/report.schema.json").read_text(encoding="utf-8"))
    runner_schema = json.loads((root / "conformance/runner/report.schema.json").read_text(encoding="utf-8"))
    document = zoo_document(list(load()), CACHE)
    assert not list(Draft202012Validator(zoo_schema).iter_errors(document))
    runner = Draft202012Validator(runner_schema)
    for entry in document["entries"]:
        assert entry["run"] is not None, f"{entry['name']} was not run"
        report = {"format": "reference-bleu-conform", "version": 1, "seed": entry["run"]["seed"]}
        report |= {"examples": entry["run"]["examples"], "versions": {}, "conformant": False}
        errors = list(runner.iter_errors(report | {"targets": [entry["run"]["target"]]}))
        assert not errors, (entry["name"], [e.message for e in errors[:3]])
