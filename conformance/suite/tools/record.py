"""Record the tool vectors of this folder by running the tools themselves (spec CONF-TOOL-VECTORS).

``python -m conformance.suite.tools.record [--moses DIR] [--python312 PYTHON] [TOOL ...]`` runs
sacrebleu 2.6.0 and nltk 3.10.4 (the ``test`` extra's pins, in this interpreter), the Perl scripts
multi-bleu.perl, mteval-v13a.pl and mteval-v14.pl of a mosesdecoder checkout at the pinned commit
(``--moses``, or the environment variable ``REFERENCE_BLEU_MOSES``), and, with ``--python312``,
sacrebleu again under CPython 3.12 or later, whose ``sum()`` of floats is compensated (spec
CONV-SACREBLEU, step S5). Every expected string of the files is what a tool printed or returned;
the statistics beside it are the tool's own where it exposes them (sacrebleu's, nltk's), else
counted by the reference under the profile's text conventions and labelled so. The tests never
run this module: they read the files it wrote (and, in the slow tier, run the scripts again where
a checkout is present).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from conformance.data import WMT17, plain_directory, plain_root

HERE = Path(__file__).resolve().parent
#: The mosesdecoder commit the Perl scripts are taken from (the profiles' evidence cites it).
MOSES_COMMIT = "34452895f350bf097b21ee514a529a1dc542243c"
MOSES_SCRIPTS = ("multi-bleu.perl", "mteval-v13a.pl", "mteval-v14.pl")
#: The shipped test set's files as the vectors name them (relative to conformance/data).
WMT17_REF = f"{WMT17.name}/ref.de"
WMT17_SYSTEMS = tuple(f"{WMT17.name}/{name}" for name in WMT17.systems)


def platform_text() -> str:
    """The interpreter, C library and machine the answers were computed on."""
    libc = " ".join(platform.libc_ver())
    return f"CPython {platform.python_version()}, {libc}, {platform.machine()}"


def data_lines(name: str) -> list[str]:
    """A shipped file's segments, as sacrebleu's command line reads them (split on ``\\n``)."""
    text = (plain_root() / name).read_text(encoding="utf-8")
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


# --- writing ------------------------------------------------------------------------------------------


def write(path: Path, header: dict[str, Any], tests: Sequence[dict[str, Any]]) -> None:
    """A vector file: the header's keys one per line, then every test on a line of its own."""
    lines = ["{"]
    for key, value in header.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    lines.append('  "tests": [')
    rows = [f"    {json.dumps(test, ensure_ascii=False)}" for test in tests]
    lines.append(",\n".join(rows))
    lines += ["  ]", "}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def numbered(prefix: str, tests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tests with their IDs, ``PREFIX-0001`` on, in order."""
    return [{"id": f"{prefix}-{k:04d}", **test} for k, test in enumerate(tests, 1)]


# --- sacrebleu ----------------------------------------------------------------------------------------

SACREBLEU_SETTINGS = [  # (tokenize, lowercase, smooth_method, smooth_value, effective_order)
    *[("13a", False, s, None, e) for s in ("exp", "floor", "add-k", "none") for e in (False, True)],
    ("13a", True, "floor", 0.01, True),
    ("intl", False, "add-k", 2, False),
    ("char", False, "exp", None, False),
]


def _sacrebleu_metric(tokenize: str, lc: bool, smooth: str, value: Any, eff: bool, *, order: int = 4) -> Any:
    import logging  # noqa: PLC0415

    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    return BLEU(
        tokenize=tokenize,
        lowercase=lc,
        smooth_method=smooth,
        smooth_value=value,
        effective_order=eff,
        max_ngram_order=order,
    )


def _sacrebleu_row(metric: Any, hyps: list[str], refs: list[list[str]]) -> dict[str, Any]:
    """sacrebleu's summed statistics of a corpus, before any smoothing touched them."""
    from sacrebleu.utils import sum_of_lists  # noqa: PLC0415

    stats = sum_of_lists(metric._extract_corpus_statistics(hyps, refs))  # type: ignore[no-untyped-call]
    n = metric.max_ngram_order
    return {"c": int(stats[0]), "r": int(stats[1]), "matches": stats[2 : 2 + n], "totals": stats[2 + n :]}


def _sacrebleu_expected(metric: Any, score: Any, signature: bool = True) -> dict[str, Any]:
    line = score.format(width=1, signature=metric.get_signature().format()) if signature else None
    expected = {
        "score": repr(score.score),
        "precisions": [repr(p) for p in score.precisions],
        "bp": repr(score.bp),
    }
    if line is not None:
        expected["line"] = line
    return expected


def _options(smooth: str, value: Any, eff: bool, order: int = 4) -> dict[str, Any]:
    return {"smooth_method": smooth, "smooth_value": value, "effective_order": eff, "max_ngram_order": order}


def sacrebleu_tests() -> list[dict[str, Any]]:
    """Corpus scores of the shipped WMT17 systems, sentence scores of its segments, scores of
    generated corpora, and ``compute_bleu`` on generated statistics."""
    tests: list[dict[str, Any]] = []
    refs = [data_lines(WMT17_REF)]
    for system in WMT17_SYSTEMS:
        hyps = data_lines(system)
        for tokenize, lc, smooth, value, eff in SACREBLEU_SETTINGS:
            metric = _sacrebleu_metric(tokenize, lc, smooth, value, eff)
            score = metric.corpus_score(hyps, refs)
            source = {"hypotheses": system, "references": [WMT17_REF], "tokenize": tokenize, "lowercase": lc}
            tests.append(
                {
                    "group": "wmt17",
                    "input": source,
                    "options": _options(smooth, value, eff),
                    "statistics": _sacrebleu_row(metric, hyps, refs),
                    "expected": _sacrebleu_expected(metric, score),
                }
            )
    rng = random.Random(38)  # noqa: S311 -- reproducible test data, not a secret
    uedin = data_lines(f"{WMT17.name}/hyp.uedin-nmt.4722.de")
    for index in sorted(rng.sample(range(len(uedin)), 100)):
        smooth, value, eff = rng.choice(
            [
                ("exp", None, True),
                ("floor", None, True),
                ("none", None, True),
                ("add-k", None, False),
                ("exp", None, False),
            ]
        )
        metric = _sacrebleu_metric("13a", False, smooth, value, eff)
        hyp, ref = uedin[index], refs[0][index]
        score = metric.sentence_score(hyp, [ref])
        tests.append(
            {
                "group": "wmt17-sentence",
                "input": {
                    "hypothesis": hyp,
                    "references": [ref],
                    "tokenize": "13a",
                    "lowercase": False,
                    "line": index + 1,
                },
                "options": _options(smooth, value, eff),
                "statistics": _sacrebleu_row(metric, [hyp], [[ref]]),
                "expected": _sacrebleu_expected(metric, score),
            }
        )
    words = ["a", "b", "c", "d", "e", "f", "g", "h"]
    for _ in range(150):
        order = rng.choice([2, 3, 4, 4, 4, 5])
        smooth, value = rng.choice(
            [
                ("exp", None),
                ("none", None),
                ("floor", None),
                ("floor", 0.01),
                ("floor", 0.25),
                ("add-k", None),
                ("add-k", 0.5),
                ("add-k", 2),
            ]
        )
        eff = rng.random() < 0.5
        segments = rng.randint(1, 6)
        nrefs = rng.randint(1, 3)
        hyps = [" ".join(rng.choices(words, k=rng.randint(1, 9))) for _ in range(segments)]
        streams = [
            [" ".join(rng.choices(words, k=rng.randint(1, 9))) for _ in range(segments)] for _ in range(nrefs)
        ]
        metric = _sacrebleu_metric("none", False, smooth, value, eff, order=order)
        score = metric.corpus_score(hyps, streams)
        tests.append(
            {
                "group": "generated",
                "input": {"hypotheses": hyps, "references": streams, "tokenize": "none", "lowercase": False},
                "options": _options(smooth, value, eff, order),
                "statistics": _sacrebleu_row(metric, hyps, streams),
                "expected": _sacrebleu_expected(metric, score, signature=False),
            }
        )
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    for _ in range(150):
        order = rng.choice([1, 2, 3, 4, 4, 4, 5, 6])
        smooth, value = rng.choice(
            [
                ("exp", None),
                ("none", None),
                ("floor", None),
                ("floor", 0.05),
                ("add-k", None),
                ("add-k", 0.25),
                ("add-k", 3),
            ]
        )
        eff = rng.random() < 0.5
        scale = rng.choice([10, 1000, 10**7])
        total = [rng.randint(0, scale)]
        for _n in range(order - 1):
            total.append(max(0, total[-1] - rng.randint(0, 3)))
        correct = [rng.randint(0, t) if rng.random() < 0.85 else 0 for t in total]
        sys_len, ref_len = total[0], rng.randint(0, int(total[0] * 1.5) + 1)
        score = BLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, smooth, value, eff, order)
        tests.append(
            {
                "group": "compute_bleu",
                "options": _options(smooth, value, eff, order),
                "statistics": {"c": sys_len, "r": ref_len, "matches": correct, "totals": total},
                "expected": {
                    "score": repr(score.score),
                    "precisions": [repr(p) for p in score.precisions],
                    "bp": repr(score.bp),
                },
            }
        )
    return numbered("sacrebleu", tests)


#: What CPython 3.12's interpreter runs to score the same statistics through sacrebleu there.
_PY312 = """
import json, sys
from sacrebleu.metrics.bleu import BLEU
out = []
for row in json.load(sys.stdin):
    o, s = row["options"], row["statistics"]
    score = BLEU.compute_bleu(list(s["matches"]), list(s["totals"]), s["c"], s["r"], o["smooth_method"],
                              o["smooth_value"], o["effective_order"], o["max_ngram_order"])
    out.append(repr(score.score))
json.dump([out, sys.version.split()[0]], sys.stdout)
"""


def python312_scores(python: str, tests: list[dict[str, Any]]) -> tuple[list[str], str]:
    """The scores sacrebleu gives the same statistics under another interpreter (3.12's ``sum()``)."""
    rows = [{"options": t["options"], "statistics": t["statistics"]} for t in tests]
    done = subprocess.run(  # noqa: S603 -- an argument list, never a shell
        [python, "-c", _PY312], input=json.dumps(rows), capture_output=True, text=True, check=True
    )
    scores, version = json.loads(done.stdout)
    return scores, version


SACREBLEU_CLI = [
    ["-b"],
    ["-w", "16", "-b"],
    ["-f", "text"],
    ["-f", "text", "-w", "4"],
    [],
    ["-lc", "-f", "text"],
    ["-tok", "intl", "-f", "text"],
    ["-s", "floor", "-sv", "0.01", "-f", "text"],
    ["-s", "add-k", "-f", "text"],
    ["-s", "none", "-f", "text", "-sh"],
    ["-w", "0"],
]


def sacrebleu_cli_tests() -> list[dict[str, Any]]:
    """The sacrebleu command on the shipped WMT17 reference and uedin-nmt system, as printed."""
    folder = plain_directory(WMT17)
    tests = []
    for argv in SACREBLEU_CLI:
        args = ["ref.de", "-i", "hyp.uedin-nmt.4722.de", *argv]
        done = subprocess.run(  # noqa: S603 -- an argument list, never a shell
            [sys.executable, "-m", "sacrebleu", *args],
            cwd=folder,
            capture_output=True,
            text=True,
            env={**os.environ, "NO_COLOR": "1"},
            check=False,
        )
        tests.append(
            {
                "group": "command line",
                "input": {"hypotheses": f"{WMT17.name}/hyp.uedin-nmt.4722.de", "references": [WMT17_REF]},
                "argv": ["sacrebleu", *args],
                "expected": {"stdout": done.stdout, "exit": done.returncode},
            }
        )
    return numbered("sacrebleu-cli", tests)


def record_sacrebleu(python312: str | None) -> None:
    import sacrebleu  # noqa: PLC0415

    tests = sacrebleu_tests()
    header: dict[str, Any] = {
        "tool": f"sacrebleu {sacrebleu.__version__}",
        "spec": "CONV-SACREBLEU",
        "platform": platform_text(),
        "recorded_by": "python -m conformance.suite.tools.record sacrebleu",
        "description": (
            "Each test: sacrebleu's summed statistics of a corpus (its own, before smoothing) and the "
            "options of BLEU(...); expected: repr() of BLEUScore.score, .precisions and .bp, and the -f "
            "text line at -w 1 (score.format(width=1, signature=...)). Groups: wmt17 (corpus_score of the "
            "shipped systems against conformance/data's reference), wmt17-sentence (sentence_score of "
            "single segments), generated (corpus_score of generated corpora), compute_bleu "
            "(BLEU.compute_bleu on generated statistics). python312: the score under a compensated sum(), "
            "where it differs."
        ),
    }
    if python312:
        scores, version = python312_scores(python312, tests)
        header["python312"] = f"sacrebleu {sacrebleu.__version__} on CPython {version}: BLEU.compute_bleu"
        for test, score in zip(tests, scores, strict=True):
            if score != test["expected"]["score"]:
                test["expected"]["score_python312"] = score
    write(HERE / "sacrebleu.json", header, [*tests, *sacrebleu_cli_tests()])


# --- nltk ---------------------------------------------------------------------------------------------


def _nltk_statistics(
    references: list[list[list[str]]], hypotheses: list[list[str]], order: int
) -> dict[str, Any]:
    """nltk's own corpus numerators, denominators (max(1, l_n) per segment) and lengths, and what its
    methods 5 to 7 read of the last segment, from nltk's own functions."""
    from nltk.translate.bleu_score import closest_ref_length, modified_precision  # noqa: PLC0415

    matches, totals = [0] * order, [0] * order
    c = r = 0
    for refs, hyp in zip(references, hypotheses, strict=True):
        for n in range(1, order + 1):
            p = modified_precision(refs, hyp, n)
            matches[n - 1] += p.numerator
            totals[n - 1] += p.denominator
        c += len(hyp)
        r += closest_ref_length(refs, len(hyp))
    last_refs, last_hyp = references[-1], hypotheses[-1]
    p5 = modified_precision(last_refs, last_hyp, 5)
    last = {
        "ngrams": [max(0, len(last_hyp) - n + 1) for n in range(1, order + 1)],
        "p5": [p5.numerator, p5.denominator],
    }
    return {"c": c, "r": r, "matches": matches, "totals": totals, "last": last}


def _nltk_call(refs: Any, hyps: Any, method: int, weights: Any, auto_reweigh: bool) -> dict[str, Any]:
    import warnings  # noqa: PLC0415

    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu  # noqa: PLC0415

    function = getattr(SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = corpus_bleu(
                refs, hyps, weights=weights, smoothing_function=function, auto_reweigh=auto_reweigh
            )
        except Exception as error:
            return {"raises": type(error).__name__}
    return {"repr": repr(value), "type": type(value).__name__}


def nltk_tests() -> list[dict[str, Any]]:
    """corpus_bleu on the shipped WMT17 systems (sacrebleu's 13a tokens) and on generated corpora."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a  # noqa: PLC0415

    tokenizer = Tokenizer13a()  # type: ignore[no-untyped-call]
    tests: list[dict[str, Any]] = []
    refs = [[tokenizer(line).split()] for line in data_lines(WMT17_REF)]
    for system in WMT17_SYSTEMS:
        hyps = [tokenizer(line).split() for line in data_lines(system)]
        statistics = _nltk_statistics(refs, hyps, 4)
        for method in range(8):
            tests.append(
                {
                    "group": "wmt17",
                    "input": {
                        "hypotheses": system,
                        "references": [WMT17_REF],
                        "tokens": "sacrebleu's 13a, split()",
                    },
                    "options": {"method": method, "weights": [0.25] * 4, "auto_reweigh": False},
                    "statistics": statistics,
                    "expected": _nltk_call(refs, hyps, method, (0.25,) * 4, False),
                }
            )
    rng = random.Random(3810)  # noqa: S311 -- reproducible test data, not a secret
    words = ["a", "b", "c", "d", "e", "f", "g"]
    weight_forms = [(0.25,) * 4, (0.25,) * 4, (0.5, 0.5), (1 / 3,) * 3, (0.4, 0.3, 0.2, 0.1)]
    for _ in range(400):
        segments = rng.randint(1, 4)
        hyps = [rng.choices(words, k=rng.choice([0, 1, 2, 3, 4, 5, 7, 9])) for _ in range(segments)]
        references = [
            [rng.choices(words, k=rng.randint(1, 9)) for _ in range(rng.randint(1, 3))] for _ in hyps
        ]
        method = rng.randint(0, 7)
        weights = rng.choice(weight_forms)
        if method in (5, 6, 7):
            weights = (0.25,) * 4
        auto = rng.random() < 0.3
        tests.append(
            {
                "group": "generated",
                "input": {"hypotheses": hyps, "references": references},
                "options": {"method": method, "weights": list(weights), "auto_reweigh": auto},
                "statistics": _nltk_statistics(references, hyps, len(weights)),
                "expected": _nltk_call(references, hyps, method, weights, auto),
            }
        )
    return numbered("nltk", tests)


def record_nltk() -> None:
    import nltk  # noqa: PLC0415

    header = {
        "tool": f"nltk {nltk.__version__}",
        "spec": "CONV-NLTK",
        "platform": platform_text(),
        "recorded_by": "python -m conformance.suite.tools.record nltk",
        "description": (
            "Each test: nltk.translate.bleu_score.corpus_bleu(references, hypotheses, "
            "weights=tuple(weights), smoothing_function=SmoothingFunction().method<method>, "
            "auto_reweigh=...); expected: repr() of what it returned and its type, or the exception it "
            "raised. statistics are nltk's own: the sums of modified_precision's numerators and "
            "denominators (max(1, l_n) per segment), c, r (closest_ref_length), and of the last segment "
            "its n-gram counts and modified_precision(..., 5) as [numerator, denominator]."
        ),
    }
    write(HERE / "nltk.json", header, nltk_tests())


# --- the Perl scripts ---------------------------------------------------------------------------------


def moses_scripts(moses: str | None) -> Path:
    """The folder of the pinned scripts: ``scripts/generic`` of a mosesdecoder checkout."""
    root = moses or os.environ.get("REFERENCE_BLEU_MOSES")
    if not root:
        raise SystemExit(
            "give a mosesdecoder checkout at the pinned commit: --moses DIR or REFERENCE_BLEU_MOSES"
        )
    folder = Path(root) / "scripts" / "generic"
    missing = [name for name in MOSES_SCRIPTS if not (folder / name).is_file()]
    if missing:
        raise SystemExit(f"{folder} lacks {', '.join(missing)}")
    return folder


def run_multi_bleu(scripts: Path, hypothesis: str, references: Sequence[str], lc: bool) -> dict[str, Any]:
    """``perl multi-bleu.perl [-lc] REF < HYP``, the references in REF (one) or REF0, REF1, ..."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        names = ["ref"] if len(references) == 1 else [f"ref{k}" for k in range(len(references))]
        for name, text in zip(names, references, strict=True):
            (folder / name).write_bytes(text.encode("utf-8"))
        command = ["perl", str(scripts / "multi-bleu.perl"), *(["-lc"] if lc else []), str(folder / "ref")]
        done = subprocess.run(  # noqa: S603 -- an argument list, never a shell
            command,
            input=hypothesis.encode("utf-8"),
            capture_output=True,
            check=False,
        )
    return {"stdout": done.stdout.decode("utf-8"), "exit": done.returncode}


#: Small inputs at the edges of multi-bleu.perl's arithmetic and reading (texts as the files hold them).
MULTI_BLEU_EDGE: dict[str, tuple[str, list[str]]] = {
    "case": ("the cat sat on the mat äö\n", ["The Cat sat on the Mat ÄÖ\n"]),
    "crlf": ("the cat sat on the mat\r\n", ["the cat sat on the mat\r\n"]),
    "empty hypothesis lines": ("\n\n", ["the cat sat on the mat\nx y z w\n"]),
    "empty references": ("the cat sat\nsome words\n", ["\n\n"]),
    "longer": ("the cat sat on the mat and more words here\n", ["the cat sat on the mat\n"]),
    "two references": (
        "the cat was on a mat\nhello world\n",
        ["the cat sat on the mat\nhello world there\n", "a cat was sitting on a mat\nhello big world\n"],
    ),
    "no 4-gram match": ("the cat sat the on mat\n", ["the cat sat on the mat\n"]),
    "perfect": ("the cat sat on the mat\na b c d e\n", ["the cat sat on the mat\na b c d e\n"]),
    "23 of 80": (
        " ".join([*(f"w{k}" for k in range(23)), *(f"x{k}" for k in range(57))]) + "\n",
        [" ".join(f"w{k}" for k in range(80)) + "\n"],
    ),
    "short": ("the cat sat on the\n", ["the cat sat on the mat today\n"]),
    "1 of 16": ("a q r s t u v w x y z A B C D E\n", ["a b c d e f g h i j k l m n o p\n"]),
    "three tokens": ("a b c\n", ["a b c\n"]),
    "tie": ("a b c d\n", ["a b c\n", "a b c d e\n"]),
    "no-break space": ("a\u00a0b c d e\n", ["a b c d e\n"]),
}


def multi_bleu_tests(scripts: Path) -> list[dict[str, Any]]:
    tests: list[dict[str, Any]] = []
    reference = (plain_root() / WMT17_REF).read_text(encoding="utf-8")
    for system in WMT17_SYSTEMS:
        hypothesis = (plain_root() / system).read_text(encoding="utf-8")
        for lc in (False, True):
            tests.append(
                {
                    "group": "wmt17",
                    "input": {"hypotheses": system, "references": [WMT17_REF]},
                    "argv": ["multi-bleu.perl", *(["-lc"] if lc else []), "REF"],
                    "profile": f"multi-bleu[lc={str(lc).lower()}]",
                    "expected": run_multi_bleu(scripts, hypothesis, [reference], lc),
                }
            )
    for name, (hypothesis, references) in MULTI_BLEU_EDGE.items():
        for lc in (False, True):
            tests.append(
                {
                    "group": "edge",
                    "name": name,
                    "input": {"hypotheses": hypothesis, "references": references},
                    "argv": ["multi-bleu.perl", *(["-lc"] if lc else []), "REF"],
                    "profile": f"multi-bleu[lc={str(lc).lower()}]",
                    "expected": run_multi_bleu(scripts, hypothesis, references, lc),
                }
            )
    return numbered("multi-bleu", tests)


def sgml(kind: str, sysid: str, segments: Sequence[str]) -> str:
    """One SGML file of NIST's format as the mteval scripts read it: one document, one ``<seg>`` per
    line, the text as it is (no escaping: the scripts' entity replacement would undo it)."""
    tag = {"src": "srcset", "ref": "refset", "tst": "tstset"}[kind]
    attributes = 'setid="s" srclang="any"' + ("" if kind == "src" else ' trglang="de"')
    if kind != "src":
        attributes += f' {"refid" if kind == "ref" else "sysid"}="{sysid}"'
    document = 'docid="d1" genre="news"' if kind == "src" else f'sysid="{sysid}" docid="d1" genre="news"'
    lines = [f"<{tag} {attributes}>", f"<doc {document}>"]
    lines += [f'<seg id="{k}">{text}</seg>' for k, text in enumerate(segments, 1)]
    lines += ["</doc>", f"</{tag}>"]
    return "\n".join(lines) + "\n"


def run_mteval(
    scripts: Path,
    script: str,
    options: Sequence[str],
    systems: dict[str, list[str]],
    references: list[list[str]],
) -> dict[str, Any]:
    """One run of an mteval script on ``systems`` (name -> segments) against ``references`` (streams):
    its exit status and what it printed after its header, up to its closing time stamp."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "src.sgm").write_text(sgml("src", "", references[0]), encoding="utf-8")
        refsets = [sgml("ref", f"ref{k}", stream) for k, stream in enumerate(references)]
        (folder / "ref.sgm").write_text("".join(refsets), encoding="utf-8")
        tstsets = [sgml("tst", name, segments) for name, segments in systems.items()]
        (folder / "tst.sgm").write_text("".join(tstsets), encoding="utf-8")
        command = ["perl", str(scripts / script), "-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm", *options]
        done = subprocess.run(  # noqa: S603 -- an argument list, never a shell
            command,
            cwd=folder,
            capture_output=True,
            check=False,
        )
    return {"stdout": report_body(done.stdout.decode("utf-8"), script), "exit": done.returncode}


def report_body(stdout: str, script: str) -> str:
    """What an mteval script prints after its header (whose last line names the tst set, followed
    by a blank line) and before its closing time stamp (and mteval-v14.pl's blank line before it)."""
    marker = " systems)\n\n"
    start = stdout.index(marker) + len(marker) if marker in stdout else len(stdout)
    end = stdout.find("MT evaluation scorer ended on")
    if end < 0:
        return stdout[start:]
    body = stdout[start:end]
    return body[:-1] if script == "mteval-v14.pl" and body.endswith("\n\n") else body


#: The profiles' runs of the scripts: (profile, script, options).
MTEVAL_RUNS = [
    ("mteval-13a", "mteval-v13a.pl", ["-b"]),
    ("mteval-13a[c=true]", "mteval-v13a.pl", ["-c", "-b"]),
    ("mteval-14-intl", "mteval-v14.pl", ["-b", "--international-tokenization"]),
    ("mteval-14-intl[c=true]", "mteval-v14.pl", ["-c", "-b", "--international-tokenization"]),
    ("mteval-13a[c=true]", "mteval-v13a.pl", ["-c"]),  # NIST and BLEU both
]

MTEVAL_EDGE: dict[str, tuple[str, list[str]]] = {
    "one empty output": ("\n", ["the cat sat on the mat\n"]),
    "basic": ("the cat sat on a mat .\na b c x e f\n", ["the cat sat on the mat .\na b c d e f\n"]),
    "brevity": ("the cat sat on the\n", ["the cat sat on the mat today\n"]),
    "case": ("the cat äö sat\n", ["The Cat ÄÖ sat\n"]),
    "two references": (
        "the cat was on a mat\nhello world\n",
        ["the cat sat on the mat\nhello world there\n", "a cat was sitting on a mat\nhello big world\n"],
    ),
    "no match": ("w x y z\n", ["a b c d\n"]),
    "one empty segment": ("the cat sat on the mat\n\n", ["the cat sat on the mat\nhello world\n"]),
    "three tokens": ("a b c\n", ["a b c\n"]),
    "no 4-gram match": ("the cat sat the on mat\n", ["the cat sat on the mat\n"]),
    "the token 0": ("0 , 1 0 , 2 0 , 4\n", ["0 , 1 0 , 2 0 , 3\n"]),
    "empty reference": ("the cat\n", ["\n"]),
}


def _segments(text: str) -> list[str]:
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


def mteval_tests(scripts: Path, progress: Callable[[str], None]) -> list[dict[str, Any]]:
    tests: list[dict[str, Any]] = []
    references = [data_lines(WMT17_REF)]
    systems = {name: data_lines(name) for name in WMT17_SYSTEMS}
    for profile, script, options in MTEVAL_RUNS:
        progress(f"mteval: {script} {' '.join(options)} on the WMT17 systems")
        tests.append(
            {
                "group": "wmt17",
                "input": {"systems": list(systems), "references": [WMT17_REF]},
                "argv": [script, "-r", "REF", "-s", "SRC", "-t", "TST", *options],
                "profile": profile,
                "expected": run_mteval(scripts, script, options, systems, references),
            }
        )
    for name, (hypothesis, streams) in MTEVAL_EDGE.items():
        edge_systems = {"sys": _segments(hypothesis)}
        edge_refs = [_segments(s) for s in streams]
        for profile, script, options in MTEVAL_RUNS:
            tests.append(
                {
                    "group": "edge",
                    "name": name,
                    "input": {"systems": {"sys": hypothesis}, "references": streams},
                    "argv": [script, "-r", "REF", "-s", "SRC", "-t", "TST", *options],
                    "profile": profile,
                    "expected": run_mteval(scripts, script, options, edge_systems, edge_refs),
                }
            )
    return numbered("mteval", tests)


def _perl_version() -> str:
    done = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, text=True, check=True)  # noqa: S607
    return f"perl {done.stdout}"


def record_multi_bleu(scripts: Path) -> None:
    header = {
        "tool": f"multi-bleu.perl (moses-smt/mosesdecoder@{MOSES_COMMIT}, scripts/generic)",
        "spec": "CONV-MULTI-BLEU",
        "platform": f"{_perl_version()}, {platform_text()}",
        "recorded_by": "python -m conformance.suite.tools.record --moses DIR multi-bleu",
        "description": (
            "Each test: perl multi-bleu.perl [-lc] REF < HYP, the hypothesis file's text on standard "
            "input and the references in REF (one file) or REF0, REF1, ... (several); expected: the "
            "script's standard output and exit status. input names a shipped file (relative to "
            "conformance/data) or gives the files' texts."
        ),
    }
    write(HERE / "multi-bleu.json", header, multi_bleu_tests(scripts))


def record_mteval(scripts: Path) -> None:
    header = {
        "tool": f"mteval-v13a.pl and mteval-v14.pl (moses-smt/mosesdecoder@{MOSES_COMMIT}, scripts/generic)",
        "spec": "CONV-MTEVAL",
        "platform": f"{_perl_version()}, XML::Twig and Sort::Naturally (Debian), {platform_text()}",
        "recorded_by": "python -m conformance.suite.tools.record --moses DIR mteval",
        "description": (
            "Each test: one run of the script (argv) on SGML files made from the inputs: one document, "
            "one <seg> per line, the text as it is; each system's sysid its name (a shipped file's path "
            "relative to conformance/data, or 'sys'), the references refid ref0, ref1, ..., the source "
            "the first reference. expected: the exit status and what the script printed after its header "
            "(the line naming the tst set and the blank line after it) and before its closing time stamp "
            "(mteval-v14.pl's blank line before that stamp left out too)."
        ),
    }
    write(HERE / "mteval.json", header, mteval_tests(scripts, lambda text: print(text, file=sys.stderr)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.suite.tools.record", description=__doc__)
    parser.add_argument("tools", nargs="*", default=["sacrebleu", "nltk", "multi-bleu", "mteval"])
    parser.add_argument("--moses", help="a mosesdecoder checkout at the pinned commit")
    parser.add_argument("--python312", help="a CPython >= 3.12 with sacrebleu 2.6.0, for score_python312")
    args = parser.parse_args(argv)
    for tool in args.tools:
        print(f"recording {tool}", file=sys.stderr)
        if tool == "sacrebleu":
            record_sacrebleu(args.python312)
        elif tool == "nltk":
            record_nltk()
        elif tool == "multi-bleu":
            record_multi_bleu(moses_scripts(args.moses))
        elif tool == "mteval":
            record_mteval(moses_scripts(args.moses))
        else:
            parser.error(f"unknown tool {tool}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
