"""The command line's arguments: every command's flags, declared apart from what the commands do
(spec CLI, CLI-SACREBLEU).

The flags of the conventions are the registry's (:mod:`reference_bleu.conventions.registry`: one flag per
field, its choices, its help with the field's spec entry, grouped by the field's group);
the rest (files, output, significance, reading) are declared here. :mod:`reference_bleu.cli.main`
parses with :func:`parser` and runs the command.
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Sequence
from typing import Any, NoReturn

from reference_bleu.analysis.significance import (
    CONFIDENCE_SAMPLES,
    DEFAULT_SEED,
    PAIRED_AR_SAMPLES,
    PAIRED_BS_SAMPLES,
)
from reference_bleu.cli import compare as attribution_cli
from reference_bleu.cli.flags import SENTENCEPIECE_TOKENIZERS, sacrebleu_flags
from reference_bleu.cli.report import FORMATS
from reference_bleu.conventions.options import VERSION
from reference_bleu.conventions.registry import BY_NAME, FIELD_NAMES, Field
from reference_bleu.formulas.numbers import accept_negative_numbers
from reference_bleu.scoring.files import COUNTING_FIELDS, MAX_LINE_BYTES


class CliError(Exception):
    """A usage or input error: printed as one line, exit code 2."""


#: Values a flag lists so that choosing them gives a clear refusal rather than argparse's (CLI-SACREBLEU).
_REFUSED_CHOICES = {"tokenize": SENTENCEPIECE_TOKENIZERS}
#: The argument groups, by the registry's group of a field.
_GROUP_TITLES = {
    "text": "how text becomes tokens (each overrides --profile; spec TOK-PIPELINE)",
    "options": "how BLEU is computed (each overrides --profile; spec API-OPTIONS)",
}


#: Help lines: at most this wide (spec CLI-OUTPUT), whatever the terminal.
HELP_WIDTH = 100
#: A choice flag lists its values in its metavar when they fit in this many characters, else in its help.
_SHORT_CHOICES = 28


class _Help(argparse.HelpFormatter):
    """argparse's help within HELP_WIDTH columns, lines broken between words only (a value such as
    ``chen-cherry-3`` is never cut at its hyphens)."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=HELP_WIDTH, max_help_position=34)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def _field_argument(group: Any, field: Field) -> None:
    """The registry field's flag (and its switch): its choices, its help with its spec entry.

    A flag with a few values shows them as its metavar; one with many (a tokenizer, a smoothing)
    takes a one-word metavar and lists them in its help, wrapped: the help fits HELP_WIDTH."""
    kwargs: dict[str, Any] = {
        "dest": field.name,
        "default": None,
        "help": f"{field.meaning} ({field.spec_id})",
    }
    if field.kind == "choice":
        kwargs["choices"] = (*field.values, *_REFUSED_CHOICES.get(field.name, ()))
        listed = "{" + ",".join(field.values) + "}"
        if len(listed) > _SHORT_CHOICES:
            kwargs["metavar"] = "NAME"
            kwargs["help"] = f"{field.meaning}; one of {', '.join(field.values)} ({field.spec_id})"
        else:
            kwargs["metavar"] = listed
    elif field.kind == "flag":
        kwargs["action"] = "store_true"
    elif field.kind == "int":
        kwargs.update(type=int, metavar="K")
    elif field.kind == "weights":
        kwargs.update(nargs="+", metavar="W")
    else:
        kwargs["metavar"] = "X"
    group.add_argument(*field.cli_flags, **kwargs)
    if field.switch is not None:
        spellings, value = field.switch
        group.add_argument(
            *spellings,
            dest=field.name,
            action="store_const",
            const=value,
            default=None,
            help=f"the same as {field.cli_flags[0]} {value}: {field.values[value]} ({field.spec_id})",
        )


def _field_arguments(parser: argparse.ArgumentParser, names: Sequence[str], *, profile: bool) -> None:
    """The flags of the registry's fields ``names``: the text's in one group, the options' in another
    (with ``--profile`` first when ``profile``)."""
    text = parser.add_argument_group(_GROUP_TITLES["text"])
    options = parser.add_argument_group(_GROUP_TITLES["options"])
    if profile:
        parser.set_defaults(resolve_profile=True)  # _run resolves it once
        options.add_argument(
            "--profile",
            "-p",
            default=None,
            metavar="NAME",
            help="compute as a named tool does, e.g. sacrebleu, nltk[method=3], multi-bleu "
            "(the list: reference-bleu profiles; spec CONV-PROFILES)",
        )
    for name in names:
        _field_argument(text if BY_NAME[name].group == "text" else options, BY_NAME[name])


def _input_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("reading files (spec CLI-INPUT)")
    group.add_argument(
        "--strip-bom",
        action="store_true",
        help="remove a byte-order mark starting a file (kept by default, as sacrebleu does, with a warning)",
    )
    group.add_argument(
        "--max-line-bytes",
        type=int,
        default=MAX_LINE_BYTES,
        metavar="BYTES",
        help=f"longest line accepted (default {MAX_LINE_BYTES}); a longer one is an error",
    )
    group.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes counting n-grams (1; at most the number of CPUs); sacrebleu's -j is --paired-jobs",
    )
    group.add_argument(
        "--quiet",
        "-q",
        action="store_true",
        help="no progress lines or notes on standard error; warnings about the data are always printed",
    )


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the CLI's exit 2), never the usage text; no flag is
    ever abbreviated (``-l`` is not ``-lc``: CLI-SACREBLEU); ``-1e300`` after an option is its
    value (NUM-INPUT)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)
        accept_negative_numbers(self)

    def error(self, message: str) -> NoReturn:
        raise CliError(f"{message} ({self.prog} -h for help)")


def _score_parser(commands: Any) -> None:
    score = commands.add_parser(
        "score",
        help="score hypothesis files (one system each) against reference files",
        usage="%(prog)s [REF ...] [-r REF ...] [-i HYP ...] [--profile NAME] [options]",
        description="Score one or more systems. Positional arguments are reference files, as in sacrebleu; "
        "every sacrebleu flag means the same or is refused in one line (docs/command-line.md).",
    )
    score.add_argument("positional_refs", nargs="*", metavar="REF", help="reference files (as sacrebleu)")
    score.add_argument("-r", "--refs", nargs="+", metavar="REF", help="reference files, one per reference")
    score.add_argument(
        "-i",
        "--input",
        nargs="+",
        default=None,
        metavar="HYP",
        help="hypothesis files, one per system (default: standard input)",
    )
    score.add_argument(
        "--stats", nargs="+", metavar="JSON", help="score merged statistics files instead (CLI-STATS)"
    )
    score.add_argument(
        "--metrics",
        "-m",
        nargs="+",
        default=["bleu"],
        metavar="METRIC",
        help="bleu (the only metric here; as sacrebleu's -m)",
    )
    out = score.add_argument_group("output (spec CLI-OUTPUT)")
    out.add_argument(
        "--format",
        "-f",
        choices=FORMATS,
        default=None,
        help="text (the default), json, markdown or latex; a profile with a tool's printed form prints "
        "that tool's layout and default (sacrebleu: json; spec CLI-PRINTED)",
    )
    out.add_argument("--json", dest="format", action="store_const", const="json", help="the same as -f json")
    out.add_argument(
        "--score-only", "-b", action="store_true", help="print the score only, one line per system"
    )
    out.add_argument(
        "--short", "-sh", action="store_true", help="sacrebleu's short signature (in its printed form)"
    )
    out.add_argument(
        "--no-color", "-nc", action="store_true", help="no colours in a tool's printed form (as NO_COLOR)"
    )
    out.add_argument(
        "--version", "-V", action="version", version=f"reference-bleu {VERSION}", help="the version, and exit"
    )
    out.add_argument(
        "--sentence-level",
        "-sl",
        action="store_true",
        help="print every segment's score, one line each, as sacrebleu -sl",
    )
    sig = score.add_argument_group(
        "confidence and significance (spec SIG-BOOTSTRAP, SIG-PAIRED-BS, SIG-PAIRED-AR)"
    )
    sig.add_argument(
        "--confidence", "-ci", action="store_true", help="bootstrap 95%% confidence interval of the score"
    )
    sig.add_argument(
        "--confidence-n",
        "-cin",
        type=int,
        default=CONFIDENCE_SAMPLES,
        metavar="N",
        help="bootstrap resamples for the interval (1000)",
    )
    paired = sig.add_mutually_exclusive_group()
    paired.add_argument(
        "--paired-bs", "-pbs", action="store_true", help="paired bootstrap test against the first system"
    )
    paired.add_argument(
        "--paired-ar", "-par", action="store_true", help="paired approximate randomization test, ditto"
    )
    sig.add_argument(
        "--paired-bs-n",
        "-pbsn",
        type=int,
        default=PAIRED_BS_SAMPLES,
        metavar="N",
        help="bootstrap resamples of the paired test (1000)",
    )
    sig.add_argument(
        "--paired-ar-n",
        "-parn",
        type=int,
        default=PAIRED_AR_SAMPLES,
        metavar="N",
        help="randomization trials of the paired test (10000)",
    )
    sig.add_argument(
        "--paired-jobs",
        "-j",
        type=int,
        default=1,
        metavar="N",
        help="sacrebleu's workers for the paired tests: accepted; the tests run in one process here, "
        "with the same numbers (counting processes: --jobs)",
    )
    sig.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        help=f"seed of the random resampling ({DEFAULT_SEED}, as sacrebleu)",
    )
    _field_arguments(score, FIELD_NAMES, profile=True)
    score.add_argument(
        "--language-pair",
        "-l",
        default=None,
        metavar="SRC-TRG",
        help="the target language chooses the tokenizer as in sacrebleu when -tok is not given: zh for "
        "zh, ja-mecab for ja, ko-mecab for ko (CLI-SACREBLEU-FLAGS)",
    )
    _input_arguments(score)
    sacrebleu_flags(score)


def parser() -> argparse.ArgumentParser:
    """The command line's parser: every command and its arguments (spec CLI)."""
    parser = _Parser(
        prog="reference-bleu",
        description="Exact reference BLEU (Papineni et al., 2002): every convention named.",
    )
    parser.add_argument("--version", action="version", version=f"reference-bleu {VERSION}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _score_parser(commands)

    stats = commands.add_parser("stats", help="write the statistics of a hypothesis file as JSON (CLI-STATS)")
    stats.add_argument(
        "-r", "--refs", nargs="+", required=True, metavar="REF", help="reference files, one per reference"
    )
    stats.add_argument(
        "-i", "--input", default=None, metavar="HYP", help="hypothesis file (default: standard input)"
    )
    stats.add_argument(
        "--orders", type=int, default=5, help="n-gram orders to count (5: enough for N = 4 and any smoothing)"
    )
    _field_arguments(stats, COUNTING_FIELDS, profile=False)
    _input_arguments(stats)

    exp = commands.add_parser("explain", help="show the computation for one sentence, order by order")
    exp.add_argument("hypothesis", help="the candidate, as text")
    exp.add_argument("references", nargs="+", help="its references, as text")
    _field_arguments(exp, FIELD_NAMES, profile=True)

    listing = commands.add_parser(
        "profiles",
        help="the conventions of real tools: every profile, or one with its evidence (spec CONV-PROFILES)",
    )
    listing.add_argument(
        "name", nargs="?", help="a profile, e.g. nltk[method=3]: its every axis and evidence"
    )

    attribution_cli.register(commands)
    commands.add_parser(
        "conform",
        help="validate a BLEU implementation: fingerprint and checks (spec CONF-RUNNER; conform --help)",
        add_help=False,
    )
    return parser
