"""Each profile is its tool: the reference at a profile's point gives the tool's own statistics
and number on the shared test sets (spec CONV-PROFILES, chapter 13).

The oracles are the tools themselves, run here at pinned versions: sacrebleu 2.6.0, nltk
3.10.4, bleuscore 0.2.0, torchmetrics 1.9.0, pytorch-ignite 0.5.5, pycocoevalcap 1.2 and
fast-bleu 0.0.90 (the last four from the ``zoo`` and ``torchmetrics`` extras that CI installs).
The Perl script multi-bleu.perl and tensorflow/nmt's ``compute_bleu`` are not ours to ship:
their figures were produced by running them (commands below) and are recorded as facts.

Scores agree to 1e-13 relative where the tool computes in binary64 (CONV-ARITH: a tool's own
order of operations is a few units in the last place away from the canonical one) and to
1e-6 in binary32; statistics and printed digits agree exactly. Multi-reference corpora are
made by taking other systems' outputs as extra references, so that the reference length
rules and ties differ between tools.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import math
import subprocess
import warnings
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from reference_bleu import corpus_bleu, sentence_bleu
from reference_bleu.cli.main import main
from reference_bleu.conventions.profiles import resolve
from reference_bleu.errors import BleuError
from reference_bleu.text.tokenizers import tokenize_line
from tests.test_real_data import MULTEVAL, MULTEVAL_SYSTEMS, WMT17, WMT17_SYSTEMS, lines

Corpus = tuple[list[list[str]], list[list[list[str]]]]
REL = 1e-13


@cache
def tokens(
    path: str,
    tokenize: str = "none",
    lowercase: str = "none",
    split: str = "unicode",
    case_order: str = "before",
) -> list[list[str]]:
    return [
        tokenize_line(line, tokenize, lowercase, split, case_order) for line in lines(WMT17.parent / path)
    ]


def corpus(system: str, refs: tuple[str, ...], profile: str = "paper", size: int | None = None) -> Corpus:
    """The tokens of ``system`` and ``refs`` (paths relative to the data folder) under the profile's text."""
    text = resolve(profile).text
    hyps = tokens(system, **text)[:size]
    streams = [tokens(r, **text)[:size] for r in refs]
    return hyps, [list(rs) for rs in zip(*streams, strict=True)]


def rel(path: Any) -> str:
    return f"{path.parent.name}/{path.name}"


WMT_REF = rel(WMT17 / "ref.de")
MULTEVAL_REF = rel(MULTEVAL / "ref.en")
#: Four "references" for a system: the real one and three other systems' outputs.
WMT_MULTI = (WMT_REF, *(rel(s) for s in WMT17_SYSTEMS[1:4]))
MULTEVAL_MULTI = (MULTEVAL_REF, *(rel(s) for s in MULTEVAL_SYSTEMS[3:6]))


def close(a: float, b: float, tolerance: float = REL) -> bool:
    return math.isclose(a, b, rel_tol=tolerance, abs_tol=1e-300)


# --- sacrebleu ------------------------------------------------------------------------------------


def sacrebleu_metric(**kwargs: Any) -> Any:
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    return BLEU(**kwargs)


@pytest.mark.parametrize("system", WMT17_SYSTEMS, ids=lambda p: p.name)
def test_sacrebleu_profile_prints_what_sacrebleu_prints(system: Any) -> None:
    # `sacrebleu ref.de -i hyp -b` prints score.format(width=1, score_only=True).
    theirs = sacrebleu_metric().corpus_score(lines(system), [lines(WMT17 / "ref.de")])
    ours = corpus_bleu(*corpus(rel(system), (WMT_REF,), "sacrebleu"), profile="sacrebleu")
    assert ours.matches == tuple(theirs.counts)
    assert ours.totals == tuple(theirs.totals)
    assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert ours.reported_text == theirs.format(width=1, score_only=True)
    assert close(ours.reported, theirs.score)


SACREBLEU_VARIANTS = [
    ("sacrebleu[lc=true]", {"lowercase": True}),
    ("sacrebleu[tokenize=intl]", {"tokenize": "intl"}),
    ("sacrebleu[tokenize=char,width=2]", {"tokenize": "char"}),
    ("sacrebleu[smooth=none]", {"smooth_method": "none"}),
    ("sacrebleu[smooth=floor,value=0.01]", {"smooth_method": "floor", "smooth_value": 0.01}),
    ("sacrebleu[smooth=add-k,value=2]", {"smooth_method": "add-k", "smooth_value": 2}),
]


@pytest.mark.parametrize(("profile", "kwargs"), SACREBLEU_VARIANTS, ids=[v[0] for v in SACREBLEU_VARIANTS])
@pytest.mark.parametrize("refs", [(WMT_REF,), WMT_MULTI], ids=["1ref", "4refs"])
def test_sacrebleu_variants_are_parameters_of_the_profile(
    profile: str, kwargs: dict[str, Any], refs: tuple[str, ...]
) -> None:
    system = WMT17_SYSTEMS[-1]
    width = int(resolve(profile).options["round_digits"])
    theirs = sacrebleu_metric(**kwargs).corpus_score(lines(system), [lines(WMT17.parent / r) for r in refs])
    ours = corpus_bleu(*corpus(rel(system), refs, profile), profile=profile)
    # add-k adds k to the counts and totals it reports for n >= 2 (bleu.py:264-266, in place).
    k = int(kwargs.get("smooth_value", 0)) if kwargs.get("smooth_method") == "add-k" else 0
    unsmoothed = [
        (m - k * (n > 0), t - k * (n > 0))
        for n, (m, t) in enumerate(zip(theirs.counts, theirs.totals, strict=True))
    ]
    assert list(zip(ours.matches, ours.totals, strict=True)) == unsmoothed
    assert ours.reported_text == theirs.format(width=width, score_only=True)
    assert close(ours.reported, theirs.score)


def test_sacrebleu_sentence_profile_is_the_mean_of_sentence_scores() -> None:
    metric = sacrebleu_metric(effective_order=True)
    hyps, refs = lines(WMT17_SYSTEMS[0])[:300], lines(WMT17 / "ref.de")[:300]
    mean = math.fsum(metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)) / 300
    ours = corpus_bleu(
        *corpus(rel(WMT17_SYSTEMS[0]), (WMT_REF,), "sacrebleu-sentence", 300), profile="sacrebleu-sentence"
    )
    assert close(ours.reported, mean, 1e-12)


# --- sacrebleu 1.5.1, in its own environment ---------------------------------------------------------

#: Made by .ci/run: sacrebleu 1.5.1 cannot be installed beside 2.6.0.
SACREBLEU_1 = Path(__file__).resolve().parent.parent / ".venv-sacrebleu1" / "bin" / "python"
#: Run there: each case's score (x100, as 1.5.1 reports it), statistics and printed score, or the
#: name of what it raised. Settings through 1.x's argparse namespace (sacrebleu/compat.py:30-34).
_SACREBLEU_1_SCRIPT = """
import json, sys
from argparse import Namespace
from sacrebleu.metrics.bleu import BLEU
out = []
for case in json.load(sys.stdin):
    settings = Namespace(smooth_method=case["smooth"], smooth_value=case["value"], force=True,
                         short=False, lc=case["lc"], tokenize=case["tokenize"])
    try:
        r = BLEU(settings).corpus_score(case["hyps"], case["refs"])
        # the score as 1.5.1's format() prints it ('{sc:.{w}f}', width 1; format() itself
        # divides by ref_len, which an empty corpus makes 0)
        out.append([r.score, r.counts, r.totals, r.sys_len, r.ref_len, "{:.1f}".format(r.score)])
    except BaseException as error:
        out.append(type(error).__name__)
print(json.dumps(out))
"""


def sacrebleu_1(cases: list[dict[str, Any]]) -> list[Any]:
    """sacrebleu 1.5.1's answers on ``cases``, run in its environment (skipped where it is absent)."""
    if not SACREBLEU_1.exists():
        pytest.skip("sacrebleu 1.5.1's environment (.venv-sacrebleu1, made by .ci/run) is absent")
    done = subprocess.run(
        [str(SACREBLEU_1), "-c", _SACREBLEU_1_SCRIPT],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
    )
    answers: list[Any] = json.loads(done.stdout)
    return answers


def _sacrebleu_1_case(
    hyps: list[str], refs: list[list[str | None]], smooth: str = "exp", value: float | None = None
) -> dict[str, Any]:
    return {"hyps": hyps, "refs": refs, "smooth": smooth, "value": value, "lc": False, "tokenize": "13a"}


SACREBLEU_1_SMOOTHING = [("exp", None), ("none", None), ("floor", 0.1), ("add-k", 1.0)]


@pytest.mark.slow  # sacrebleu 1.5.1 run in its own environment: 24 s
def test_sacrebleu_1_5_profile_prints_what_sacrebleu_1_5_prints() -> None:
    # Four WMT17 systems with exp smoothing and one reference; one system with every smoothing,
    # with one and four references; 1.5.1's own 13a. One run of 1.5.1 for all cases.
    plan: list[tuple[Any, str, float | None, tuple[str, ...]]]
    plan = [(system, "exp", None, (WMT_REF,)) for system in WMT17_SYSTEMS[::4]]
    plan += [
        (WMT17_SYSTEMS[-1], smooth, value, refs)
        for smooth, value in SACREBLEU_1_SMOOTHING
        for refs in ((WMT_REF,), WMT_MULTI)
    ]
    cases = [
        _sacrebleu_1_case(lines(system), [list(lines(WMT17.parent / r)) for r in refs], smooth, value)
        for system, smooth, value, refs in plan
    ]
    for (system, smooth, value, refs), theirs in zip(plan, sacrebleu_1(cases), strict=True):
        profile = f"sacrebleu-1.5[smooth={smooth}" + (f",value={value}]" if value is not None else "]")
        ours = corpus_bleu(*corpus(rel(system), refs, profile), profile=profile)
        score, counts, totals, sys_len, ref_len, printed = theirs
        if (
            smooth != "add-k"
        ):  # add-k adds k to what 1.5.1 reports (sacrebleu/metrics/bleu.py:193-195, in place)
            assert (list(ours.matches), list(ours.totals)) == (counts, totals)
        assert (ours.hyp_len, ours.ref_len) == (sys_len, ref_len)
        assert ours.reported_text == printed, profile
        assert close(ours.reported, score)


def test_sacrebleu_1_5_profile_answers_where_sacrebleu_1_5_and_2_differ() -> None:
    # Hand-made segments on the three points where 1.5.1's source differs from 2.x: nothing
    # matches (1.5.1 smooths from order 1: 100 * (1/10 * 1/16 * 1/24 * 1/32)^(1/4) by hand,
    # p_n = 1/(2^n * l_n) with l_n = 5, 4, 3, 2: 100 * (1/10 * 1/16 * 1/24 * 1/32)^(1/4) = 5.3411),
    # an empty reference beside a longer one (dropped: r = 12, not 0), a reference that is
    # only empty (none left: EOFError), an empty corpus (0) and a segment without references.
    inputs: list[tuple[list[str], list[list[str | None]]]] = [
        (["a b c d e"], [["v w x y z"]]),
        (["a b c d e"], [["x y a b c d e z w v u t"], [""]]),
        (["a b"], [[""]]),
        ([], [[]]),
        (["a b c d", "x y"], [["a b c d", None]]),
    ]
    answers = sacrebleu_1([_sacrebleu_1_case(h, r) for h, r in inputs])
    assert math.isclose(answers[0][0], 100 * (1 / 10 * 1 / 16 * 1 / 24 * 1 / 32) ** 0.25, rel_tol=1e-12)
    for (hyps, streams), theirs in zip(inputs, answers, strict=True):
        refs = [[r.split() for r in rs if r is not None] for rs in zip(*streams, strict=True)] or []
        try:
            ours: Any = corpus_bleu([h.split() for h in hyps], refs, profile="sacrebleu-1.5").reported
        except BleuError as error:
            ours = resolve("sacrebleu-1.5").raises.get(error.spec_id, f"BleuError {error.spec_id}")
        assert ours == theirs if isinstance(theirs, str) else close(ours, theirs[0]), (hyps, streams)


# --- nltk -----------------------------------------------------------------------------------------


def nltk_corpus(method: int, hyps: list[list[str]], refs: list[list[list[str]]], **kwargs: Any) -> float:
    from nltk.translate import bleu_score  # noqa: PLC0415

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        smoothing = getattr(bleu_score.SmoothingFunction(), f"method{method}")
        return float(bleu_score.corpus_bleu(refs, hyps, smoothing_function=smoothing, **kwargs))


@pytest.mark.parametrize("method", range(8))
@pytest.mark.parametrize("refs", [(MULTEVAL_REF,), MULTEVAL_MULTI], ids=["1ref", "4refs"])
def test_nltk_profile_gives_nltks_corpus_bleu(method: int, refs: tuple[str, ...]) -> None:
    hyps, references = corpus(rel(MULTEVAL_SYSTEMS[0]), refs, "nltk", 800)
    ours = corpus_bleu(hyps, references, profile=f"nltk[method={method}]")
    assert close(ours.score, nltk_corpus(method, hyps, references))


@pytest.mark.parametrize("method", [0, 1, 3, 4])
def test_nltk_sentence_profile_is_the_mean_of_nltks_sentence_bleu(method: int) -> None:
    from nltk.translate import bleu_score  # noqa: PLC0415

    hyps, refs = corpus(rel(MULTEVAL_SYSTEMS[1]), (MULTEVAL_REF,), "nltk", 300)
    smoothing = getattr(bleu_score.SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = [
            bleu_score.sentence_bleu(r, h, smoothing_function=smoothing)
            for h, r in zip(hyps, refs, strict=True)
        ]
    total = 0.0
    for s in scores:  # the mean a user computes: a left-to-right sum, divided once
        total += s
    ours = corpus_bleu(hyps, refs, profile=f"nltk-sentence[method={method}]")
    assert close(ours.score, total / len(scores))


def test_nltk_auto_reweigh_profile_on_short_segments() -> None:
    hyps, refs = corpus(rel(MULTEVAL_SYSTEMS[2]), (MULTEVAL_REF,), "nltk", 2000)
    short = [(h[:2], r) for h, r in zip(hyps, refs, strict=True) if h][:1]
    for h, r in short:
        ours = corpus_bleu([h], [r], profile="nltk[auto_reweigh=true,method=1]")
        assert close(ours.score, nltk_corpus(1, [h], [r], auto_reweigh=True))


# --- bleuscore, torchmetrics ----------------------------------------------------------------------


@pytest.mark.parametrize("smooth", [False, True])
@pytest.mark.parametrize("refs", [(WMT_REF,), WMT_MULTI], ids=["1ref", "4refs"])
def test_bleuscore_profile_gives_bleuscores_number(smooth: bool, refs: tuple[str, ...]) -> None:
    import bleuscore  # noqa: PLC0415

    system = WMT17_SYSTEMS[5]
    streams = [lines(WMT17.parent / r) for r in refs]
    theirs = bleuscore.compute([list(rs) for rs in zip(*streams, strict=True)], lines(system), 4, smooth)
    profile = f"bleuscore[smooth={str(smooth).lower()}]"
    ours = corpus_bleu(*corpus(rel(system), refs, profile), profile=profile)
    assert (ours.hyp_len, ours.ref_len) == (theirs["translation_length"], theirs["reference_length"])
    assert close(ours.score, float(theirs["bleu"]))  # type: ignore[arg-type]


@pytest.mark.parametrize("smooth", [False, True])
@pytest.mark.parametrize("refs", [(WMT_REF,), WMT_MULTI], ids=["1ref", "4refs"])
def test_torchmetrics_profile_gives_torchmetrics_float32_number(smooth: bool, refs: tuple[str, ...]) -> None:
    text = pytest.importorskip(
        "torchmetrics.functional.text", reason="the torchmetrics extra is not installed"
    )
    system, size = WMT17_SYSTEMS[7], 1000
    streams = [lines(WMT17.parent / r)[:size] for r in refs]
    theirs = float(
        text.bleu_score(lines(system)[:size], [list(rs) for rs in zip(*streams, strict=True)], smooth=smooth)
    )
    profile = f"torchmetrics[smooth={str(smooth).lower()}]"
    ours = corpus_bleu(*corpus(rel(system), refs, profile, size), profile=profile)
    assert close(ours.score, theirs, 1e-6)


# --- ignite, pycocoevalcap, fast-bleu -------------------------------------------------------------

IGNITE = [(s, a) for s in ("no_smooth", "smooth1", "nltk_smooth2", "smooth2") for a in ("macro", "micro")]


@pytest.mark.parametrize(("smooth", "average"), IGNITE)
def test_ignite_profile_gives_ignites_number(smooth: str, average: str) -> None:
    nlp = pytest.importorskip("ignite.metrics.nlp", reason="the zoo extra is not installed")
    hyps, refs = corpus(rel(MULTEVAL_SYSTEMS[4]), MULTEVAL_MULTI, "paper", 600)
    metric = nlp.Bleu(ngram=4, smooth=smooth, average=average)
    metric.update((hyps, refs))
    ours = corpus_bleu(hyps, refs, profile=f"ignite[smooth={smooth},average={average}]")
    assert close(ours.score, float(metric.compute()))


@pytest.mark.parametrize("refs", [(MULTEVAL_REF,), MULTEVAL_MULTI], ids=["1ref", "4refs"])
def test_coco_profile_gives_pycocoevalcaps_bleu_4(refs: tuple[str, ...]) -> None:
    module = pytest.importorskip("pycocoevalcap.bleu.bleu", reason="the zoo extra is not installed")
    hyps, references = corpus(rel(MULTEVAL_SYSTEMS[5]), refs, "coco", 600)
    gts = {i: [" ".join(r) for r in rs] for i, rs in enumerate(references)}
    res = {i: [" ".join(h)] for i, h in enumerate(hyps)}
    with contextlib.redirect_stdout(io.StringIO()):  # it prints its totals
        scores, _ = module.Bleu(4).compute_score(gts, res)
    assert close(corpus_bleu(hyps, references, profile="coco").score, scores[3])


@pytest.mark.parametrize("smoothing", [0, 1])
def test_fast_bleu_profile_gives_fast_bleus_sentence_scores(smoothing: int) -> None:
    fast_bleu = pytest.importorskip("fast_bleu", reason="the zoo extra is not installed")
    hyps, _ = corpus(rel(MULTEVAL_SYSTEMS[3]), (MULTEVAL_REF,), "paper", 60)
    reference_set = tokens(MULTEVAL_REF)[:60]
    theirs = fast_bleu.BLEU(reference_set, {"bleu": (0.25, 0.25, 0.25, 0.25)}, smoothing_func=smoothing)
    scores = theirs.get_score(hyps)["bleu"]
    profile = f"fast-bleu[smoothing={smoothing}]"
    for h, score in zip(hyps, scores, strict=True):
        assert close(sentence_bleu(h, reference_set, profile=profile).score, score)


# --- multi-bleu.perl and tensorflow/nmt: recorded runs ----------------------------------------------

# `perl multi-bleu.perl [-lc] REF < HYP` (moses-smt/mosesdecoder@34452895f3, scripts/generic),
# run on 2026-11-23; first line of its output.
MULTI_BLEU_RUNS = [
    (
        "multeval-example-newstest2010/hyp.baseline.opt0.en",
        "multeval-example-newstest2010/ref.en",
        False,
        "18.54",
    ),
    (
        "multeval-example-newstest2010/hyp.sys1.opt2.en",
        "multeval-example-newstest2010/ref.en",
        False,
        "18.98",
    ),
    ("multeval-example-newstest2010/hyp.sys1.opt2.en", "multeval-example-newstest2010/ref.en", True, "18.98"),
    ("wmt17-en-de/hyp.uedin-nmt.4722.de", "wmt17-en-de/ref.de", False, "23.39"),
    # -lc lower-cases bytes, A-Z only: Unicode lower-casing would give 23.99 (Ä, Ö, Ü stay).
    ("wmt17-en-de/hyp.uedin-nmt.4722.de", "wmt17-en-de/ref.de", True, "23.98"),
]


@pytest.mark.parametrize(("hyp", "ref", "lc", "printed"), MULTI_BLEU_RUNS)
def test_multi_bleu_profile_prints_what_multi_bleu_printed(
    hyp: str, ref: str, lc: bool, printed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = f"multi-bleu[lc={str(lc).lower()}]"
    data = WMT17.parent
    assert main(["score", "--profile", profile, "-r", str(data / ref), "-i", str(data / hyp), "-q"]) == 0
    # The profile prints multi-bleu.perl's own line (spec CONV-MULTI-BLEU): the score first.
    assert capsys.readouterr().out.startswith(f"BLEU = {printed}, ")


def test_ascii_lower_casing_is_what_separates_multi_bleu_lc_from_unicode_lc(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = WMT17.parent
    args = [
        "score",
        "-r",
        str(data / "wmt17-en-de/ref.de"),
        "-i",
        str(data / "wmt17-en-de/hyp.uedin-nmt.4722.de"),
    ]
    assert main([*args, "--profile", "multi-bleu", "--case", "unicode", "-q"]) == 0
    assert capsys.readouterr().out.startswith("BLEU = 23.99")


# `perl mteval-v13a.pl -r ref.sgm -s src.sgm -t tst.sgm -b [-c]` and `perl mteval-v14.pl ...
# --international-tokenization` (moses-smt/mosesdecoder@34452895f3, scripts/generic; XML::Twig and
# Sort::Naturally from Debian), run on 2026-11-23. Each plain-text file was wrapped as one SGML
# document, one <seg> per line, with &, < and > escaped (the reference file as the source too).
MTEVAL_RUNS = [
    ("FBK.4870", ("0.2688", "0.2633", "0.2713", "0.2656")),
    ("uedin-nmt.4722", ("0.2892", "0.2830", "0.2914", "0.2850")),
    ("online-A.0", ("0.2238", "0.2080", "0.2251", "0.2086")),
]
MTEVAL_PROFILES = ("mteval-13a", "mteval-13a[c=true]", "mteval-14-intl", "mteval-14-intl[c=true]")


@pytest.mark.parametrize(("system", "printed"), MTEVAL_RUNS)
def test_mteval_profiles_print_what_mteval_printed(
    system: str, printed: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    data = WMT17.parent / "wmt17-en-de"
    for profile, figure in zip(MTEVAL_PROFILES, printed, strict=True):
        args = ["score", "-b", "-q", "--profile", profile, "-r", str(data / "ref.de")]
        assert main([*args, "-i", str(data / f"hyp.{system}.de")]) == 0
        assert capsys.readouterr().out.strip() == figure, profile


# Three lines that mteval-v13a.pl scored 0.4754 (lower-cased, the default): it replaces the entity
# "&quot;" (lower case only) before it lower-cases, so "&QUOT;" is three tokens there, where folding
# first (sacrebleu's order) would make it the quote it escapes.
CASE_ORDER_LINES = (
    [
        "He said &QUOT;Yes&QUOT; to the plan today .",
        "Das ist &AMP; gut so , sagte er .",
        "The İstanbul office opened in 2019 .",
    ],
    [
        'he said " yes " to the plan today .',
        "das ist & gut so , sagte er .",
        "the istanbul office opened in 2019 .",
    ],
)


# Lines with literal entities, scored by mteval-v13a.pl (without and with -c) and mteval-v14.pl
# --international-tokenization (the same commands): hypothesis lines, reference lines, the figures.
SGML_RUNS = [
    (
        ["a &lt;b&gt; c &quot;d&quot; e &amp; f &apos;g&apos; h <i> j", "x &amp;lt; y &lt; z . &QUOT;"],
        ["a < b > c \" d \" e & f ' g ' h < i > j", 'x & lt ; y < z . "'],
        ("0.3202", "0.3202", "0.4708"),
    ),
    (
        ["he said &quot;yes&quot; to the plan today ."],
        ['he said " yes " to the plan today .'],
        ("0.3161", "0.3161", "0.3161"),
    ),
    (list(CASE_ORDER_LINES[0]), list(CASE_ORDER_LINES[1]), ("0.4754", "0.4280", "0.4754")),
]


@pytest.mark.parametrize(("hyps", "refs", "printed"), SGML_RUNS)
def test_mteval_profiles_read_literal_entities_as_mteval_reads_sgml(
    hyps: list[str],
    refs: list[str],
    printed: tuple[str, str, str],
    tmp_path: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(hyps) + "\n", encoding="utf-8")
    ref.write_text("\n".join(refs) + "\n", encoding="utf-8")
    for profile, figure in zip(("mteval-13a", "mteval-13a[c=true]", "mteval-14-intl"), printed, strict=True):
        assert main(["score", "-b", "-q", "--profile", profile, "-r", str(ref), "-i", str(hyp)]) == 0
        assert capsys.readouterr().out.strip() == figure, profile
    # 13a on plain text (sacrebleu's) unescapes the literal &quot;: not what mteval printed.
    args = [
        "score",
        "-b",
        "-q",
        "--profile",
        "mteval-13a",
        "--tokenize",
        "13a",
        "-r",
        str(ref),
        "-i",
        str(hyp),
    ]
    assert main(args) == 0
    assert (capsys.readouterr().out.strip() == printed[0]) == ("&quot;" not in "".join(hyps))


# Two lines that mteval-v13a.pl and mteval-v14.pl --international-tokenization both scored 0.2797
# (lower-cased, the default): they replace the entity "&lt;" (lower case only) before they
# lower-case, so "&LT;" is three tokens there, where folding first makes it the "<" it escapes
# (1.0000 against these references).
CASE_ORDER_ENTITY_LINES = (
    ["Use &LT;b&GT; for bold text here .", "The tag &LT;i&GT; is for italics ."],
    ["use < b > for bold text here .", "the tag < i > is for italics ."],
)


def test_case_order_is_what_separates_mteval_from_folding_first(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(CASE_ORDER_ENTITY_LINES[0]) + "\n", encoding="utf-8")
    ref.write_text("\n".join(CASE_ORDER_ENTITY_LINES[1]) + "\n", encoding="utf-8")
    for profile in ("mteval-13a", "mteval-14-intl"):
        args = ["score", "-b", "-q", "--profile", profile, "-r", str(ref), "-i", str(hyp)]
        assert main(args) == 0
        assert capsys.readouterr().out.strip() == "0.2797"
        assert main([*args, "--case-order", "before"]) == 0
        assert capsys.readouterr().out.strip() == "1.0000"


# --- torchmetrics' SacreBLEUScore: sacrebleu's tokenizers, then lower-casing ------------------------


@pytest.mark.parametrize("tokenize", ["13a", "intl", "char"])
@pytest.mark.parametrize("lc", [False, True])
def test_torchmetrics_sacrebleu_profile_gives_its_number(tokenize: str, lc: bool) -> None:
    text = pytest.importorskip(
        "torchmetrics.functional.text", reason="the torchmetrics extra is not installed"
    )
    system, size = WMT17_SYSTEMS[2], 400 if tokenize == "char" else 1000
    hyps, refs = lines(system)[:size], lines(WMT17 / "ref.de")[:size]
    theirs = float(text.sacre_bleu_score(hyps, [[r] for r in refs], tokenize=tokenize, lowercase=lc))
    profile = f"torchmetrics-sacrebleu[tokenize={tokenize},lc={str(lc).lower()}]"
    ours = corpus_bleu(*corpus(rel(system), (WMT_REF,), profile, size), profile=profile)
    assert close(ours.score, theirs, 1e-6)


def test_torchmetrics_folds_case_after_tokenizing_and_sacrebleu_before() -> None:
    # The lines above: torchmetrics lower-cases 13a's output, so "&QUOT;" stays "& quot ;" and
    # "İ" stays one token; sacrebleu -lc folds first and scores them higher. Each profile gives
    # its own tool's number, and the case order alone moves torchmetrics' profile off it.
    text = pytest.importorskip(
        "torchmetrics.functional.text", reason="the torchmetrics extra is not installed"
    )
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    hyps, refs = CASE_ORDER_LINES
    tm = float(text.sacre_bleu_score(hyps, [[r] for r in refs], lowercase=True))
    sb = BLEU(lowercase=True).corpus_score(hyps, [refs]).score
    assert tm != pytest.approx(sb / 100)

    def ours(profile: str, case_order: str | None = None) -> float:
        chosen = resolve(profile)
        order = case_order or chosen.case_order
        text_options = {**chosen.text, "case_order": order}
        h = [tokenize_line(x, **text_options) for x in hyps]
        r = [[tokenize_line(x, **text_options)] for x in refs]
        return corpus_bleu(h, r, profile=profile).reported

    assert close(ours("torchmetrics-sacrebleu[lc=true]"), tm, 1e-6)
    assert close(ours("sacrebleu[lc=true]"), sb)
    assert not close(ours("torchmetrics-sacrebleu[lc=true]", "before"), tm, 1e-6)


# --- what each tool does outside BLEU's domain: an empty corpus, no reference, c = 0 --------------


def _tool_outcome(call: Any) -> str | float:
    """The tool's answer: its score as a float, or the name of what it raised."""
    try:
        return float(call())
    except BaseException as error:  # bleuscore raises a PanicException, a BaseException
        if isinstance(error, (KeyboardInterrupt, pytest.skip.Exception)):  # not the tool's answer
            raise
        return type(error).__name__


def _profile_outcome(profile: str, hyps: list[list[str]], refs: list[list[list[str]]]) -> str | float:
    """The profile's answer: its score, or the exception its ``raises`` names for the spec ID raised."""
    try:
        return corpus_bleu(hyps, refs, profile=profile).score
    except BleuError as error:
        return resolve(profile).raises.get(error.spec_id, f"BleuError {error.spec_id}")


def _ignite(average: str) -> Any:
    nlp = pytest.importorskip("ignite.metrics.nlp", reason="the zoo extra is not installed")

    def score(hyps: list[list[str]], refs: list[list[list[str]]]) -> Any:
        metric = nlp.Bleu(ngram=4, average=average)
        metric.update((hyps, refs))
        return metric.compute()

    return score


def _coco() -> Any:
    module = pytest.importorskip("pycocoevalcap.bleu.bleu", reason="the zoo extra is not installed")

    def score(hyps: list[list[str]], refs: list[list[list[str]]]) -> Any:
        gts = {i: [" ".join(r) for r in rs] for i, rs in enumerate(refs)}
        res = {i: [" ".join(h)] for i, h in enumerate(hyps)}
        with contextlib.redirect_stdout(io.StringIO()):
            return module.Bleu(4).compute_score(gts, res)[0][3]

    return score


def _sacrebleu() -> Any:
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    def score(hyps: list[list[str]], refs: list[list[list[str]]]) -> Any:
        streams = [
            [" ".join(rs[k]) if k < len(rs) else None for rs in refs]
            for k in range(max(map(len, refs), default=1))
        ]
        return BLEU(tokenize="none").corpus_score([" ".join(h) for h in hyps], streams).score / 100  # type: ignore[arg-type]

    return score


def _torchmetrics() -> Any:
    text = pytest.importorskip(
        "torchmetrics.functional.text", reason="the torchmetrics extra is not installed"
    )
    return lambda h, r: text.bleu_score([" ".join(x) for x in h], [[" ".join(y) for y in rs] for rs in r])


def _nltk() -> Any:
    from nltk.translate.bleu_score import corpus_bleu as nltk_bleu  # noqa: PLC0415

    return lambda h, r: nltk_bleu(r, h)


def _bleuscore() -> Any:
    import bleuscore  # noqa: PLC0415

    return lambda h, r: bleuscore.compute(
        [[" ".join(x) for x in rs] for rs in r], [" ".join(x) for x in h], 4, False
    )["bleu"]


#: Each profile's tool, imported when asked for: an optional tool that is not installed skips the
#: test with the extra to install, before the tool is run (so the skip is never taken for the
#: tool's own error by ``_tool_outcome``, which records whatever the tool raises).
TOOLS: dict[str, Any] = {
    "nltk": _nltk,
    "sacrebleu[tokenize=none]": _sacrebleu,
    "bleuscore": _bleuscore,
    "torchmetrics": _torchmetrics,
    "ignite": lambda: _ignite("macro"),
    "ignite[average=micro]": lambda: _ignite("micro"),
    "coco": _coco,
}


BOUNDARY_INPUTS: dict[str, Corpus] = {
    "an empty corpus (EC-012)": ([], []),
    "a segment without references (EC-006)": (
        [["a", "b", "c", "d"], ["x", "y"]],
        [[["a", "b", "c", "d"]], []],
    ),
    "an empty candidate (EC-004)": ([[]], [[["a", "b"]]]),
    "empty references only (EC-004, r = 0)": ([["a", "b"]], [[[]]]),
}


@pytest.mark.parametrize("case", BOUNDARY_INPUTS)
@pytest.mark.parametrize(
    "profile",
    [
        "nltk",
        "sacrebleu[tokenize=none]",
        "bleuscore",
        "torchmetrics",
        "ignite",
        "ignite[average=micro]",
        "coco",
    ],
)
def test_each_profile_answers_outside_the_domain_as_its_tool_does(profile: str, case: str) -> None:
    # The oracle is the tool, run here: a score, or the exception it raises (observed; the
    # profile's `raises` names it for the spec ID where the reference raises a BleuError).
    hyps, refs = BOUNDARY_INPUTS[case]
    tool = TOOLS[profile]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _tool_outcome(lambda: tool(hyps, refs))
    ours = _profile_outcome(profile, hyps, refs)
    if isinstance(theirs, float):
        assert isinstance(ours, float)
        assert close(ours, theirs, 1e-6)
    else:
        assert ours == theirs


@pytest.mark.parametrize("smoothing", [0, 1])
def test_fast_bleu_profile_answers_outside_the_domain_as_fast_bleu_does(smoothing: int) -> None:
    # fast-bleu scores one sentence at a time: the one-segment boundary inputs, and a hypothesis
    # with no reference at all, each against the tool run here.
    fast_bleu = pytest.importorskip("fast_bleu", reason="the zoo extra is not installed")
    weights = {"bleu": (0.25, 0.25, 0.25, 0.25)}
    cases: list[Corpus] = [
        ([["a", "b", "c", "d"]], [[]]),
        ([[]], [[]]),
        BOUNDARY_INPUTS["an empty candidate (EC-004)"],
        BOUNDARY_INPUTS["empty references only (EC-004, r = 0)"],
    ]
    for hyps, refs in cases:
        theirs = fast_bleu.BLEU(refs[0], weights, smoothing_func=smoothing).get_score(hyps)["bleu"][0]
        ours = sentence_bleu(hyps[0], refs[0], profile=f"fast-bleu[smoothing={smoothing}]").score
        assert close(ours, theirs), (hyps, refs)


def test_nmt_divides_by_c_and_r() -> None:
    # nmt/scripts/bleu.py:103-108: ratio = translation_length / reference_length raises
    # ZeroDivisionError for r = 0, and bp = exp(1 - 1 / ratio) for c = 0 (ratio 0.0) too.
    for hyps, refs in (
        BOUNDARY_INPUTS["an empty candidate (EC-004)"],
        BOUNDARY_INPUTS["empty references only (EC-004, r = 0)"],
    ):
        assert _profile_outcome("nmt", hyps, refs) == "ZeroDivisionError"
        assert _profile_outcome("bleuscore", hyps, refs) == 0.0  # its Rust floats give inf and exp(-inf)


# `compute_bleu(reference_corpus, translation_corpus, 4, smooth)` of tensorflow/nmt@0be8642
# (nmt/scripts/bleu.py), run on 2026-11-23 with references and hypotheses split on whitespace.
NMT_RUNS = [
    ("multeval-example-newstest2010/hyp.baseline.opt0.en", False, 0.18538888654535743),
    ("multeval-example-newstest2010/hyp.baseline.opt0.en", True, 0.18540744479624433),
    ("multeval-example-newstest2010/hyp.sys1.opt2.en", False, 0.18979487120007896),
    ("multeval-example-newstest2010/hyp.sys1.opt2.en", True, 0.18981302558264052),
]


@pytest.mark.parametrize(("hyp", "smooth", "value"), NMT_RUNS)
def test_nmt_profile_gives_the_recorded_compute_bleu(hyp: str, smooth: bool, value: float) -> None:
    profile = f"nmt[smooth={str(smooth).lower()}]"
    assert close(corpus_bleu(*corpus(hyp, (MULTEVAL_REF,), profile), profile=profile).score, value)


def test_nmt_profile_on_the_recorded_toy_with_shortest_references_and_absent_orders() -> None:
    # compute_bleu printed 0.9146912192286945 (smooth=False) and 0.9277192279045802 (True).
    # By hand: c = 8, r = 3 + 1 + 3 (shortest) = 7, so BP = 1; p = 7/8, 4/5, 3/3, 2/2 and
    # smoothed (m + 1) / (l + 1) = 8/9, 5/6, 4/4, 3/3.
    refs = [
        [["a", "b", "c"], ["a", "b", "c", "d", "e", "f"]],
        [["a", "b", "c", "d"], ["x"]],
        [["p", "q", "r"]],
    ]
    hyps = [["a", "b", "c", "d", "e"], ["a", "q"], ["p"]]
    assert close(corpus_bleu(hyps, refs, profile="nmt").score, 0.9146912192286945)
    assert close(corpus_bleu(hyps, refs, profile="nmt[smooth=true]").score, 0.9277192279045802)
    assert close((7 / 8 * 4 / 5) ** 0.25, 0.9146912192286945)
    assert close((8 / 9 * 5 / 6) ** 0.25, 0.9277192279045802)


# --- attribution: profiles differ only through their axes ------------------------------------------

ATTRIBUTED = [
    "paper",
    "sacrebleu[tokenize=none]",
    "nltk",
    "nmt[smooth=true]",
    "torchmetrics",
    "ignite",
    "coco",
]


@pytest.mark.parametrize("target", ATTRIBUTED[1:])
def test_the_difference_between_two_profiles_is_carried_by_the_axes_where_they_differ(target: str) -> None:
    # From `paper`, set the target's options one axis at a time (all text axes agree here: the
    # data is tokenized, every profile splits on whitespace). The walk ends exactly at the
    # target's number, and every step that moves the number is an axis where they differ.
    hyps, refs = corpus(rel(MULTEVAL_SYSTEMS[0]), MULTEVAL_MULTI, "paper", 800)
    goal = corpus_bleu(hyps, refs, profile=target)
    options: dict[str, Any] = {}
    previous = corpus_bleu(hyps, refs).reported
    moved = []
    for axis, value in resolve(target).options.items():
        options[axis] = value
        now = corpus_bleu(hyps, refs, **options).reported
        if now != previous:
            moved.append(axis)
        previous = now
    assert previous == goal.reported
    assert moved, f"{target} gives the paper's number on this corpus"
    assert set(moved) <= set(resolve(target).options)
