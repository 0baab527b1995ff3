"""sacrebleu 2.6.0's command-line flags under ``reference-bleu score`` (spec CLI-SACREBLEU-FLAGS).

Every flag of sacrebleu's parser (sacrebleu/sacrebleu.py:60-205) either means the same here or
is refused in one line that says what to do instead; none means something else. The table is
data: the CLI registers the refused flags from it, the spec chapter lists it, and
``tests/test_cli_flags.py`` checks each flag of sacrebleu's own parser against it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from reference_bleu.errors import BleuOptionError


@dataclass(frozen=True)
class SacrebleuFlag:
    """One flag of sacrebleu's command line (all its spellings) and what it does here."""

    names: tuple[str, ...]
    verdict: Literal["same", "refused"]
    #: ``same``: how it is spelled or bounded here; ``refused``: the one line of what to do instead.
    note: str


_TEST_SETS = "reference-bleu downloads no test set: pass the files with -r REF... -i HYP..."
_BLEU_ONLY = "reference-bleu computes BLEU only (spec CLI-SACREBLEU)"

SACREBLEU_FLAGS: tuple[SacrebleuFlag, ...] = (
    SacrebleuFlag(("-h", "--help"), "same", "the help text"),
    SacrebleuFlag(("--version", "-V"), "same", "this program's version"),
    SacrebleuFlag(("--citation", "--cite"), "refused", f"{_TEST_SETS} (and cite the data set's paper)"),
    SacrebleuFlag(("--list",), "refused", _TEST_SETS),
    SacrebleuFlag(("--test-set", "-t"), "refused", _TEST_SETS),
    SacrebleuFlag(
        ("--language-pair", "-l"),
        "same",
        "SRC-TRG: the target language chooses the tokenizer as in sacrebleu (zh, ja-mecab, ko-mecab) "
        "when -tok is not given; no test set is downloaded",
    ),
    SacrebleuFlag(("--origlang", "-ol"), "refused", f"{_TEST_SETS}, holding the subset's lines"),
    SacrebleuFlag(("--subset",), "refused", f"{_TEST_SETS}, holding the subset's lines"),
    SacrebleuFlag(("--download",), "refused", _TEST_SETS),
    SacrebleuFlag(("--echo",), "refused", _TEST_SETS),
    SacrebleuFlag(("--input", "-i"), "same", "hypothesis files, one per system (default: standard input)"),
    SacrebleuFlag(("refs",), "same", "reference files as arguments before -i (or -r REF...)"),
    SacrebleuFlag(
        ("--num-refs", "-nr"),
        "refused",
        "tab-separated references are not split here: give each reference its own file with -r REF...",
    ),
    SacrebleuFlag(("--encoding", "-e"), "same", "utf-8 only: files are read as strict UTF-8 (CLI-INPUT)"),
    SacrebleuFlag(("--metrics", "-m"), "same", "bleu only; another metric is an error"),
    SacrebleuFlag(("--sentence-level", "-sl"), "same", "every segment's score"),
    SacrebleuFlag(("--smooth-method", "-s"), "same", "= --smoothing (its methods and more)"),
    SacrebleuFlag(("--smooth-value", "-sv"), "same", "= --smoothing-value"),
    SacrebleuFlag(
        ("--tokenize", "-tok"), "same", "sacrebleu's tokenizers (and more); default none (the paper)"
    ),
    SacrebleuFlag(("--lowercase", "-lc"), "same", "lower-case before tokenizing"),
    SacrebleuFlag(("--force",), "same", "no warning about tokenized input (sacrebleu's, under its profile)"),
    *(
        SacrebleuFlag((flag, *short), "refused", _BLEU_ONLY)
        for flag, *short in (
            ("--chrf-char-order", "-cc"),
            ("--chrf-word-order", "-cw"),
            ("--chrf-beta",),
            ("--chrf-whitespace",),
            ("--chrf-lowercase",),
            ("--chrf-eps-smoothing",),
            ("--ter-case-sensitive",),
            ("--ter-asian-support",),
            ("--ter-no-punct",),
            ("--ter-normalized",),
        )
    ),
    SacrebleuFlag(("--confidence", "-ci"), "same", "bootstrap interval of one system (SIG-BOOTSTRAP)"),
    SacrebleuFlag(("--confidence-n", "-cin"), "same", "its resamples, 1..10^6"),
    SacrebleuFlag(("--paired-ar", "-par"), "same", "paired approximate randomization (SIG-PAIRED-AR)"),
    SacrebleuFlag(("--paired-bs", "-pbs"), "same", "paired bootstrap resampling (SIG-PAIRED-BS)"),
    SacrebleuFlag(("--paired-ar-n", "-parn"), "same", "its trials, 1..10^6"),
    SacrebleuFlag(("--paired-bs-n", "-pbsn"), "same", "its resamples, 1..10^6"),
    SacrebleuFlag(
        ("--paired-jobs", "-j"),
        "same",
        "accepted; one process here, the same numbers (--jobs counts n-grams)",
    ),
    SacrebleuFlag(("--quiet", "-q"), "same", "no progress lines or notes; warnings (about the data) stay"),
    SacrebleuFlag(("--short", "-sh"), "same", "the short signature of sacrebleu's printed form"),
    SacrebleuFlag(("--score-only", "-b"), "same", "the score only"),
    SacrebleuFlag(("--width", "-w"), "same", "decimals printed (= --round-digits)"),
    SacrebleuFlag(
        ("--detail", "-d"),
        "refused",
        "the origlang split needs a test set's metadata: score each subset's files with -r and -i",
    ),
    SacrebleuFlag(("--no-color", "-nc"), "same", "no colours (also NO_COLOR)"),
    SacrebleuFlag(("--format", "-f"), "same", "json, text, latex (and markdown)"),
)


#: sacrebleu's SentencePiece tokenizers (tokenizers/tokenizer_spm.py): each downloads a model.
SENTENCEPIECE_TOKENIZERS = ("spm", "flores101", "flores200", "spBLEU-1K")


def refuse_sentencepiece(tokenize: str | None) -> None:
    """``-tok spm`` and the like: a one-line refusal saying what to do instead (CLI-SACREBLEU-FLAGS)."""
    if tokenize in SENTENCEPIECE_TOKENIZERS:
        raise BleuOptionError(
            "CLI-SACREBLEU-FLAGS",
            f"-tok {tokenize}: sacrebleu's SentencePiece tokenizers download a model, which reference-bleu "
            "never does: tokenize the files with spm_encode and that model first, then pass -tok none",
        )


class _Refused(argparse.Action):
    """A sacrebleu flag that has no meaning here: using it is an error saying what to do instead (its
    ``const``, the table's note)."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: Any = None
    ) -> None:
        raise BleuOptionError("CLI-SACREBLEU-FLAGS", f"{option}: {self.const}")


class _Encoding(argparse.Action):
    """``-e/--encoding``: UTF-8 is the only encoding read (CLI-INPUT); another is refused."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: Any = None
    ) -> None:
        if str(values).lower().replace("_", "-") not in ("utf-8", "utf8"):
            raise BleuOptionError(
                "CLI-SACREBLEU-FLAGS",
                f"{option} {values}: files are read as UTF-8 only; convert them first "
                f"(iconv -f {values} -t utf-8 FILE)",
            )


def refused_names(flags: Sequence[SacrebleuFlag] = SACREBLEU_FLAGS) -> str:
    """The refused flags in one line, a family of metric flags as one (``--chrf-*``)."""
    names: list[str] = []
    for flag in flags:
        if flag.verdict != "refused":
            continue
        first = flag.names[0]
        family = first[: first.index("-", 2) + 1] + "*" if first.startswith(("--chrf-", "--ter-")) else None
        shown = family or "/".join(flag.names)
        if shown not in names:
            names.append(shown)
    return ", ".join(names)


def sacrebleu_flags(parser: argparse.ArgumentParser) -> None:
    """Register sacrebleu's flags that no other option of ``score`` spells: the refused ones (listed in
    one line of the help, each refused with what to do instead), and the accepted ``--encoding`` and
    ``--force`` (CLI-SACREBLEU-FLAGS)."""
    group = parser.add_argument_group(
        "sacrebleu's other flags (spec CLI-SACREBLEU-FLAGS)",
        f"refused, each saying what to do instead: {refused_names()}",
    )
    spelled = set(parser._option_string_actions)
    for flag in SACREBLEU_FLAGS:
        names = [n for n in flag.names if n.startswith("-")]
        if not names or spelled.intersection(names):
            continue
        if flag.verdict == "refused":
            group.add_argument(
                *names,
                action=_Refused,
                nargs="*",
                const=flag.note,
                help=argparse.SUPPRESS,
                default=argparse.SUPPRESS,
            )
        elif names[0] == "--encoding":
            group.add_argument(
                *names, action=_Encoding, metavar="ENC", help=flag.note, default=argparse.SUPPRESS
            )
        else:
            group.add_argument(*names, action="store_true", help=flag.note, default=argparse.SUPPRESS)


def flag_table(flags: Sequence[SacrebleuFlag] = SACREBLEU_FLAGS) -> str:
    """The Markdown table of spec CLI-SACREBLEU-FLAGS."""
    rows = ["| sacrebleu flag | here | meaning, or what to do instead |", "|---|---|---|"]
    rows += [f"| {', '.join(f'`{n}`' for n in f.names)} | {f.verdict} | {f.note} |" for f in flags]
    return "\n".join(rows)
