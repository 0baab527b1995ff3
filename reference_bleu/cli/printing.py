"""A tool's printed form: what its command line prints, reproduced byte for byte (spec CLI-PRINTED).

``reference-bleu score --profile sacrebleu`` prints what ``sacrebleu`` 2.6.0 prints for the
same command line: its text line, its JSON object, ``-b``, the list or table of several
systems, its confidence intervals and paired tests with their legend. A printed form belongs
to a profile (looked up by the profile's tool, version and level, :func:`printed_form`): the
CLI renders whatever form the profile has, and its own report when the profile has none or
when the options leave the points the tool computes (then the tool would not print these
numbers, so neither its layout nor its signature is printed).

The numbers are the tool's arithmetic on the reference's statistics, operation for operation
(:func:`reference_bleu.scoring.floating.sacrebleu_compute_bleu`, spec CONV-SACREBLEU: every digit
is the tool's), equal to the profile's score within 1e-13 relative (CONV-ARITH).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference_bleu.analysis.significance import Interval, PairedTests, sacrebleu_point
from reference_bleu.conventions.options import BleuOptions
from reference_bleu.conventions.profiles import Profile, resolve
from reference_bleu.errors import BleuOptionError
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.floating import (
    SACREBLEU_SMOOTHING,
    SacrebleuScore,
    sacrebleu_compute_bleu,
    sacrebleu_row,
)
from reference_bleu.text.tokenizers import MECAB_TOKENIZERS, mecab_version

#: The extra that brings tabulate, which draws sacrebleu's tables of several systems.
TABLES_EXTRA = "pip install 'reference-bleu[tables]'"

#: colorama's codes (Fore.*, Style.RESET_ALL), which sacrebleu's Color.format writes (utils.py:31-48).
_COLORS = {"cyan": "\x1b[36m", "yellow": "\x1b[33m", "red": "\x1b[31m", "green": "\x1b[32m"}
_RESET = "\x1b[0m"
#: sacrebleu's tokenizer signatures of the MeCab tokenizers: the dictionary after MeCab's version
#: (tokenizer_ja_mecab.py:51 ``-IPA``, tokenizer_ko_mecab.py:51 ``-KO``).
_MECAB_DICTIONARY = {"ja-mecab": "IPA", "ko-mecab": "KO"}
#: sacrebleu's signature keys in their printed order, with their short forms (metrics/base.py:127-200,
#: bleu.py:51-56); version always last.
_SIGNATURE_KEYS = {
    "nrefs": "#",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "case": "c",
    "eff": "e",
    "tok": "tok",
    "smooth": "s",
    "version": "v",
}


@dataclass(frozen=True)
class Resampling:
    """The statistical test asked for: ``bs`` (a confidence interval or a paired bootstrap test) or
    ``ar``, its number of resamples or trials, and the seed."""

    kind: str
    samples: int
    seed: int


@dataclass(frozen=True)
class Rendering:
    """How to print: the format, ``-b``, ``-w``, ``-sh`` and whether colours are on."""

    output: str
    score_only: bool
    width: int
    short: bool
    colors: bool


def colors_on(no_color: bool) -> bool:
    """sacrebleu colours its output unless NO_COLOR or ``-nc`` (sacrebleu.py:232-239), and colorama
    strips the colours when standard output is not a terminal."""
    return not no_color and not os.environ.get("NO_COLOR") and sys.stdout.isatty()


@dataclass(frozen=True)
class SacrebleuForm:
    """sacrebleu 2.6.0's command line output (spec CLI-SACREBLEU, CLI-PRINTED; its numbers, line, JSON
    and signature values CONV-SACREBLEU).

    From sacrebleu.py:425-560, utils.py:51-226 and metrics/base.py.
    """

    tool: str = "sacrebleu"
    version: str = "2.6.0"
    #: ``-f``'s choices and default (sacrebleu.py:199-203).
    formats: tuple[str, ...] = ("json", "text", "latex")
    default_format: str = "json"
    #: The environment variable that overrides ``-f`` (sacrebleu.py:207-211).
    format_variable: str = "SACREBLEU_FORMAT"

    def forced_format(self) -> str | None:
        """The format the environment forces, if it names one of the tool's (lower-cased, as sacrebleu)."""
        value = os.environ.get(self.format_variable, "").lower()
        return value if value in self.formats else None

    def applies(self, options: BleuOptions, text: Mapping[str, str]) -> bool:
        """Whether sacrebleu computes this point and reads text this way (else it would print other
        numbers, and its layout and signature are not printed)."""
        if not sacrebleu_point(options) or text.get("lowercase") not in ("none", "unicode"):
            return False
        lc = "true" if text["lowercase"] == "unicode" else "false"
        try:
            theirs = resolve(f"sacrebleu[tokenize={text.get('tokenize')},lc={lc}]").text
        except BleuOptionError:
            return False
        return dict(text) == theirs

    def signature(
        self,
        options: BleuOptions,
        text: Mapping[str, str],
        nrefs: int,
        short: bool = False,
        resampling: Resampling | None = None,
    ) -> str:
        """sacrebleu's signature (``BLEUSignature.format``), e.g.
        ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``."""
        smooth = options.smoothing
        if smooth in ("floor", "add-k"):
            value = options.smoothing_value
            smooth += f"[{float(value) if value is not None else SACREBLEU_SMOOTHING[smooth] or 0:.2f}]"
        tok = text["tokenize"]
        if tok in MECAB_TOKENIZERS:
            tok = f"{tok}-{mecab_version(tok)}-{_MECAB_DICTIONARY[tok]}"
        info: dict[str, object] = {"nrefs": nrefs}
        if resampling is not None:
            info[resampling.kind] = resampling.samples
            info["seed"] = resampling.seed
        info |= {
            "case": "lc" if text["lowercase"] == "unicode" else "mixed",
            "eff": "yes" if options.effective_order else "no",
            "tok": tok,
            "smooth": smooth,
            "version": self.version,
        }
        return "|".join(f"{_SIGNATURE_KEYS[k] if short else k}:{v}" for k, v in info.items())

    def epilogue(self, rendering: Rendering) -> str:
        """What follows the report: on a terminal with colours, colorama's reset at exit
        (``colorama.initialise.reset_all``, registered by sacrebleu.py:237's ``colorama.init()``)."""
        return _RESET if rendering.colors else ""

    def score(self, stats: Statistics, options: BleuOptions) -> SacrebleuScore:
        """sacrebleu's score of summed statistics, by its own arithmetic (CONV-SACREBLEU)."""
        return sacrebleu_compute_bleu(sacrebleu_row(stats, options.max_order), options)

    def line(
        self,
        score: SacrebleuScore,
        rendering: Rendering,
        signature: str,
        interval: Interval | None = None,
        is_json: bool = False,
    ) -> str:
        """``Score.format`` (metrics/base.py:40-95) of a BLEUScore (bleu.py:91-109)."""
        width = rendering.width
        document: dict[str, Any] = {"name": "BLEU", "score": float(f"{score.score:.{width}f}")}
        document["signature"] = signature
        text = f"{score.score:.{width}f}"
        if interval is not None and interval.mean > 0:
            mean, half = f"{interval.mean:.{width}f}", f"{interval.half_width:.{width}f}"
            confidence = f"μ = {mean} ± {half}"
            text += f" ({confidence})"
            if is_json:
                document |= {
                    "confidence_mean": float(mean),
                    "confidence_var": float(half),
                    "confidence": confidence,
                }
        ratio = score.sys_len / score.ref_len if score.ref_len else 0
        verbose = "/".join(f"{p:.1f}" for p in score.precisions)
        verbose += f" (BP = {score.bp:.3f} ratio = {ratio:.3f} hyp_len = {score.sys_len:d} "
        verbose += f"ref_len = {score.ref_len:d})"
        full = f"BLEU|{signature}" if signature else "BLEU"
        full = f"{full} = {text} {verbose}"
        document["verbose_score"] = verbose
        if rendering.score_only:
            return text
        if is_json:
            for pair in signature.split("|"):
                key, value = pair.split(":")
                document[key] = value
            return json.dumps(document, indent=1, ensure_ascii=False)
        return full

    def single(
        self,
        score: SacrebleuScore,
        rendering: Rendering,
        signature: str,
        interval: Interval | None,
    ) -> str:
        """One system (sacrebleu.py:504-520, utils.py:191-226): its line, or its JSON object."""
        is_json = rendering.output == "json"
        line = self.line(score, rendering, signature, interval, is_json)
        if not is_json and rendering.colors and "μ" in line:
            line = re.sub(r"(\(μ = [0-9\.]+ ± [0-9\.]+\))", lambda m: _color(m.group(), "cyan", True), line)
        return line

    def sentences(self, scores: Sequence[SacrebleuScore], rendering: Rendering, signature: str) -> str:
        """``-sl``: each segment's line (sacrebleu.py:480-490), whatever the format."""
        return "\n".join(self.line(score, rendering, signature) for score in scores)

    def systems(
        self,
        names: Sequence[str],
        scores: Sequence[SacrebleuScore],
        rendering: Rendering,
        signature: str,
    ) -> str:
        """Several systems, no test (sacrebleu.py:530-541): a list of JSON objects or a table."""
        cells: list[str | _Result] = [f"{s.score:.{rendering.width}f}" for s in scores]
        return _results_table(list(names), cells, signature, rendering, None)

    def paired(
        self,
        names: Sequence[str],
        tests: PairedTests,
        rendering: Rendering,
        signature: str,
        resampling: Resampling,
    ) -> str:
        """A paired test (sacrebleu.py:542-560, significance.py:270-420): the baseline named
        ``Baseline: NAME``, each system's score, p-value (and interval), and the test's legend."""
        baseline = _Result(tests.baseline_score, None, tests.baseline_interval)
        others = [_Result(r.score, r.p_value, r.interval) for r in tests.systems]
        cells: list[str | _Result] = [baseline, *others]
        named = [f"Baseline: {names[0]}", *names[1:]]
        return _results_table(named, cells, signature, rendering, resampling)


@dataclass(frozen=True)
class _Result:
    """sacrebleu's significance ``Result`` (significance.py:14-35): score, p-value, interval."""

    score: float
    p_value: float | None
    interval: Interval | None


def _color(text: str, color: str, on: bool) -> str:
    return f"{_COLORS[color]}{text}{_RESET}" if on else text


def _result_json(result: _Result) -> dict[str, Any]:
    """A significance ``Result``'s ``__dict__`` (significance.py:14-35): score, p_value, mean, ci."""
    interval = result.interval
    return {
        "score": result.score,
        "p_value": result.p_value,
        "mean": None if interval is None else interval.mean,
        "ci": None if interval is None else interval.half_width,
    }


def _cell(result: str | _Result, width: int, multiline: bool, colors: bool) -> str:
    """``_format_score_lines`` (utils.py:51-89) of one cell."""
    if isinstance(result, str):
        return result
    text = f"{result.score:.{width}f}"
    if result.interval is not None:
        text += f" ({result.interval.mean:.{width}f} ± {result.interval.half_width:.{width}f})"
    if result.p_value is not None:
        message = f"(p = {result.p_value:.4f})"
        marked = _color(message, "red", colors) if result.p_value > 0.05 else message + "*"
        text += ("\n" if multiline else " ") + marked
    return text


def _results_table(
    names: list[str],
    cells: list[str | _Result],
    signature: str,
    rendering: Rendering,
    resampling: Resampling | None,
) -> str:
    """``print_results_table`` (utils.py:92-188)."""
    if rendering.output == "json":
        rows = [
            {"system": name, "BLEU": cell if isinstance(cell, str) else _result_json(cell)}
            for name, cell in zip(names, cells, strict=True)
        ]
        return json.dumps(rows, indent=4)
    try:
        from tabulate import tabulate  # noqa: PLC0415 -- an optional extra, for these tables only
    except ImportError:
        raise BleuOptionError(
            "CLI-PRINTED",
            f"sacrebleu's table of several systems (-f {rendering.output}) is drawn with tabulate, which "
            f"is not installed: {TABLES_EXTRA} (or -f json)",
        ) from None
    colors = rendering.colors
    fmt = "fancy_grid" if rendering.output == "text" else "latex_booktabs"
    column = [_cell(c, rendering.width, fmt == "fancy_grid", colors) for c in cells]
    metric = "BLEU"
    if any(not isinstance(c, str) and c.interval is not None for c in cells):
        metric += " (μ ± 95% CI)"
    columns = {"System": list(names), metric: column}
    if names[0].startswith("Baseline:"):
        columns = {k: [_color(v[0], "yellow", colors), *v[1:]] for k, v in columns.items()}
    table = tabulate(
        {_color(k, "cyan", colors): v for k, v in columns.items()},
        headers="keys",
        tablefmt=fmt,
        colalign=("right",),
        stralign="center",
        numalign="center",
        floatfmt=f".{rendering.width}f",
    )
    out = [table, ""]
    if resampling is not None:
        out += _legend(names[0], resampling, colors)
    out += ["-----------------", "Metric signatures", "-----------------", f" - {'BLEU':<10} {signature}"]
    return "\n".join(out)


def _legend(baseline_name: str, resampling: Resampling, colors: bool) -> list[str]:
    """The paired test's explanation under the table (utils.py:150-180)."""
    bs = resampling.kind == "bs"
    kind = "bootstrap resampling" if bs else "approximate randomization"
    message = f"Paired {kind} test with {resampling.samples} {'resampling trials' if bs else 'trials'}"
    bline = _color("baseline", "yellow", colors)
    bline_name = _color(baseline_name, "yellow", colors)
    null_hyp = _color("Null hypothesis", "green", colors)
    highlighted = _color("highlighted in red", "red", colors)
    return [
        "-" * len(message) + "\n" + message + "\n" + "-" * len(message),
        f" - Each system is pairwise compared to {bline_name}.",
        "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
        if bs
        else "   Actual system score is provided for each metric.",
        "",
        f" - {null_hyp}: the system and the {bline} translations are essentially",
        f"   generated by the same underlying process. For a given system and the {bline},",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        f"   or higher occurring due to chance, under the assumption that the {null_hyp.lower()} is correct.",
        "",
        f" - Assuming a significance threshold of 0.05, the {null_hyp.lower()} can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed',
        f'   to chance, hence the system is significantly "different" than the {bline}.',
        f"   Otherwise, the p-values are {highlighted}.",
        "",
        f' - NOTE: Significance does not tell whether a system is "better" than the {bline} but rather',
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]


# --- sacrebleu's standard error ------------------------------------------------------------------

#: sacrebleu's warning after 100 hypothesis lines ending in " ." (metrics/base.py:392-399).
_TOKENIZED_WARNING = (
    "That's 100 lines that end in a tokenized period ('.')",
    "It looks like you forgot to detokenize your test data, which may hurt your score.",
    "If you insist your data is detokenized, or don't care, you can suppress this message with the "
    "`force` parameter.",
)
#: The lines sacrebleu's check counts: ending in " ." once right-stripped (metrics/base.py:384-386).
TOKENIZED_LINES = 100


def tokenized_line(line: str) -> bool:
    """Whether sacrebleu counts ``line`` as tokenized: it ends in a space and a period, right-stripped."""
    return line.rstrip().endswith(" .")


@dataclass(frozen=True)
class SacrebleuRun:
    """What sacrebleu 2.6.0 logs on standard error for a command line: the systems (as named by their
    files), the baseline files given again and skipped, each system's tokenized lines (``None``:
    not counted, its ``--force`` or standard input), the paired test if any, ``-l``'s advice."""

    names: tuple[str, ...]
    tokenized: tuple[int | None, ...]
    ignored: tuple[str, ...] = ()
    paired: Resampling | None = None
    advice: str | None = None


def sacrebleu_stderr(run: SacrebleuRun, quiet: bool) -> str:
    """sacrebleu 2.6.0's standard error for ``run``, byte for byte (spec CLI-PRINTED).

    Its logger writes ``sacreBLEU: `` and the message; ``-q`` leaves the logger unconfigured
    (sacrebleu.py:236-237), so its INFO lines go and its warnings are printed bare (logging's
    last resort). In the order sacrebleu meets them: a baseline given again (sacrebleu.py:408),
    ``-l``'s advice on the tokenizer (metrics/bleu.py:192-200), ``Found N systems.`` for several
    (:536), then, system by system, the paired test's progress (significance.py:161-168, 244-255,
    363) around the check for tokenized input (metrics/base.py:384-399).
    """
    lines: list[str] = []

    def info(message: str) -> None:
        if not quiet:
            lines.append(f"sacreBLEU: {message}")

    def warning(message: str) -> None:
        lines.append(message if quiet else f"sacreBLEU: {message}")

    def check(k: int) -> None:
        if (run.tokenized[k] or 0) >= TOKENIZED_LINES:
            for message in _TOKENIZED_WARNING:
                warning(message)

    for name in run.ignored:
        info(f"Ignoring {name!r} as it was also given as the baseline.")
    if run.advice is not None:
        warning(run.advice)
    if len(run.names) > 1:
        info(f"Found {len(run.names)} systems.")
    for k, name in enumerate(run.names):
        if run.paired is None:
            check(k)
        elif k == 0:
            info(f"Pre-computing BLEU statistics for {'Baseline: ' + name!r}")
            check(k)
        else:
            info(f"Computing BLEU for {name!r} and extracting sufficient statistics")
            check(k)
            if run.paired.kind == "bs":
                info(f" > Performing paired bootstrap resampling test (# resamples: {run.paired.samples})")
            else:
                info(f" > Performing approximate randomization test (# trials: {run.paired.samples})")
    return "".join(f"{line}\n" for line in lines)


#: sacrebleu's tokenizer for a target language when none is given (metrics/bleu.py:151-156, 184-190).
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
#: Its advice when another tokenizer is given for one of these languages (metrics/bleu.py:192-200).
_ADVICE = {
    "zh": "Consider using the 'zh' or 'spm' tokenizer for Chinese.",
    "ja": "Consider using the 'ja-mecab' or 'spm' tokenizer for Japanese.",
    "ko": "Consider using the 'ko-mecab' or 'spm' tokenizer for Korean.",
}


def target_language(pair: str) -> str:
    """The target of ``-l SRC-TRG`` (sacrebleu.py:321-322 takes what follows the first dash)."""
    if "-" not in pair:
        raise BleuOptionError(
            "CLI-SACREBLEU-FLAGS", f"-l takes a language pair SRC-TRG such as en-de, not {pair!r}"
        )
    return pair.split("-")[1]


def language_advice(pair: str | None, tokenize: str | None) -> str | None:
    """sacrebleu's advice when ``-tok`` names another tokenizer than its own for ``-l``'s target."""
    if pair is None or tokenize is None:
        return None
    target = target_language(pair)
    chosen = LANGUAGE_TOKENIZERS.get(target)
    return _ADVICE[target] if chosen is not None and tokenize != chosen else None


#: The printed forms of this module, by the name a profile's ``printed`` gives (profiles.json; a profile
#: without one prints the reference's own report, the line forms are reference_bleu.cli.toolforms').
PRINTED_FORMS: dict[str, SacrebleuForm] = {"sacrebleu": SacrebleuForm()}


def printed_form(profile: Profile | None) -> SacrebleuForm | None:
    """The printed form of ``profile``'s tool, if this project reproduces it."""
    if profile is None or profile.printed is None:
        return None
    return PRINTED_FORMS.get(profile.printed)
