"""The convention registry: every convention the reference computes under, declared once (spec CONV-SPACE).

Papineni et al. (2002) define BLEU on tokens with N = 4, uniform weights and the closest
reference length, and leave open what real tools then had to choose: the reference length on
ties, zero and undefined precisions, smoothing, aggregation, tokenization, the arithmetic and
the printed form. Each such choice is a **field** here, with its one name (the API keyword,
the profile option, ``--accept NAME=VALUE``, the harness's ``reference[NAME=VALUE]``, the CLI
flag ``--name-with-dashes`` and the signature all use it), its values and the meaning of each,
the paper's value, the spec entry that defines it and the function that implements it.

Fields group into **axes**, the dimensions of the convention space: an axis is one field plus
the fields that only refine it (``zero_value`` refines ``zero_precision``, ``effective_order``
is a value of ``undefined_precision``). Everything else is derived from :data:`FIELDS`: the
options' validation and signature (:mod:`reference_bleu.conventions.options`), the CLI's flags, the axes a
profile is shown on (:mod:`reference_bleu.conventions.profiles`), the points of the space
(:mod:`reference_bleu.conventions.space`), the runner's candidate values and the verdict's axes
(``conformance.runner.expectation``), and spec chapter 13's tables (:func:`spec_tables`).

Adding a value is one edit here (and the function that computes it); adding an axis is a
field here and a field of :class:`reference_bleu.conventions.options.BleuOptions` (the typed record the
computation reads), which a test keeps equal.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, get_args

from reference_bleu.formulas.inputs import EmptyCandidates, EmptyReferences, NoReference
from reference_bleu.formulas.length import RefLengthRule
from reference_bleu.formulas.smoothing import SMOOTHING_METHODS
from reference_bleu.text.tokenizers import (
    CaseFolding,
    CaseOrder,
    MecabTokenizerName,
    SgmlTokenizerName,
    SplitRule,
    TokenizerName,
)

ZeroPrecision = Literal["limit", "skip", "renormalize", "sentinel", "log-constant"]
UndefinedPrecision = Literal["zero", "skip", "error", "one", "smoothed", "reweigh-by-length"]
Aggregation = Literal["micro", "macro"]
Denominator = Literal["l_n", "max1-segment", "max1-total"]
EarlyReturn = Literal["none", "no-unigram-match", "no-match", "any-zero"]
BrevityPenaltyRule = Literal["paper", "coco", "plus-one"]
Arithmetic = Literal["exact", "binary64", "binary32", "binary32-precisions"]
Scale = Literal["unit", "percent"]
ZeroLength = Literal["limit", "error", "error-c", "error-r"]
EmptyCorpus = Literal["error", "zero", "one"]

#: What a field is, for the runner and the verdict (spec CONF-VERDICT):
#: ``text``: how text becomes tokens (TOK-PIPELINE), observed on text targets only;
#: ``score``: decides the number on tokens, observed on every target;
#: ``domain``: what a tool does where BLEU is undefined (acceptable under every expectation, but its
#: ``inside_domain`` values);
#: ``output``: how the number is printed (the runner reads it from the answers themselves).
Group = Literal["text", "score", "domain", "output"]


@dataclass(frozen=True)
class Field:
    """One convention: its name, values, paper's value, spec entry and implementing function."""

    name: str
    spec_id: str
    #: What the field decides, in one line (the CLI's help).
    meaning: str
    #: The paper's value (the default everywhere).
    paper: Any
    #: Each value with its one-line meaning; empty for a number, a flag or the weights.
    values: Mapping[str, str]
    #: The function that computes it (dotted name; its docstring cites ``spec_id``).
    implemented_by: str
    group: Group = "score"
    #: The axis the field refines (``None``: the field is an axis).
    refines: str | None = None
    #: Its place and key in the signature's head, ``N:4|w:uniform|r:closest|...`` (API-OPTIONS);
    #: ``None``: shown after the head as ``name:value`` when not the paper's.
    signature: tuple[int, str] | None = None
    #: Former names, still accepted with a DeprecationWarning naming this one.
    aliases: tuple[str, ...] = ()
    #: Extra command-line spellings (sacrebleu's, short forms) beside ``--name-with-dashes``.
    flags: tuple[str, ...] = ()
    #: ``choice``, ``flag`` (True or False), ``number`` (exact), ``int``, ``weights``.
    kind: Literal["choice", "flag", "number", "int", "weights"] = "choice"
    #: Command-line spellings that set one value (sacrebleu's ``-lc``: ``lowercase=unicode``).
    switch: tuple[tuple[str, ...], str] | None = None
    #: Values of a ``domain`` field that change BLEU where the paper defines it (CONF-VERDICT): a
    #: variant, never a choice acceptable under every expectation (dropping an empty candidate).
    inside_domain: tuple[str, ...] = ()

    @property
    def flag(self) -> str:
        """The command-line flag: the name with dashes."""
        return "--" + self.name.replace("_", "-")

    @property
    def cli_flags(self) -> tuple[str, ...]:
        """Every spelling of the field's command-line flag, the name with dashes first unless a
        switch (``-lc``) already spells it."""
        taken = self.switch[0] if self.switch else ()
        return tuple(f for f in (self.flag, *self.flags) if f not in taken)


def _choices(kind: Any, meanings: Mapping[str, str]) -> dict[str, str]:
    """The values of a ``Literal`` type with their meanings, refusing a value without one (or an extra)."""
    values = get_args(kind)
    if set(values) != set(meanings):
        raise TypeError(f"meanings for {sorted(meanings)} do not match the values {values}")
    return {value: meanings[value] for value in values}


_SMOOTHING_MEANINGS = {
    "none": "no smoothing: a zero precision is EC-002's",
    "chen-cherry-1": "add epsilon to a zero count (Chen and Cherry 2014, method 1)",
    "chen-cherry-2": "add one to every count and total from order 2 (method 2)",
    "chen-cherry-3": "1 / 2^k for the k-th zero precision (method 3, mteval's)",
    "chen-cherry-4": "method 3 scaled by the candidate's length (method 4)",
    "chen-cherry-5": "the average of the neighbouring orders (method 5)",
    "chen-cherry-6": "interpolation with p_{n-1}^2 / p_{n-2} (method 6)",
    "chen-cherry-7": "methods 4 and 5 together (method 7)",
    "floor": "epsilon / l_n for a zero count (sacrebleu's floor)",
    "add-k": "k added to matches and totals from order 2 (sacrebleu's add-k)",
    "exp": "1 / 2^k for the k-th zero precision (sacrebleu's exp)",
    "add-one": "one added to matches and totals of every order (tensorflow/nmt's smooth)",
    "coco": "pycocoevalcap's tiny and small constants on every order",
    "nltk-4": "nltk's method 4 as nltk computes it",
    "nltk-5": "nltk's method 5 as nltk computes it (reads the last segment)",
    "nltk-6": "nltk's method 6 as nltk computes it (asserts a trigram match)",
    "nltk-7": "nltk's method 7 as nltk computes it",
}
if set(_SMOOTHING_MEANINGS) != set(SMOOTHING_METHODS):
    raise TypeError("every smoothing method needs a meaning in the registry")

_TOKENIZER_MEANINGS = {
    "none": "split on whitespace only (the caller tokenized)",
    "13a": "mteval-v13a's rules, as sacrebleu's default",
    "intl": "mteval-v14's international rules (Unicode punctuation and symbols)",
    "char": "every character a token",
    "zh": "Chinese characters split, the rest as 13a",
    "13a-sgml": "13a after mteval's SGML entities, as mteval-v13a.pl",
    "intl-sgml": "intl after mteval's SGML entities, as mteval-v14.pl --international-tokenization",
    "ja-mecab": "MeCab with sacrebleu's Japanese dictionary (the mecab extra)",
    "ko-mecab": "MeCab with sacrebleu's Korean dictionary (the mecab extra)",
}
_TOKENIZER_TYPES = (TokenizerName, SgmlTokenizerName, MecabTokenizerName)
_TOKENIZERS = tuple(name for kind in _TOKENIZER_TYPES for name in get_args(kind))
if set(_TOKENIZERS) != set(_TOKENIZER_MEANINGS):
    raise TypeError("every tokenizer needs a meaning in the registry")

#: Every field, in the pipeline's order: the text, the segments, the precisions, the score, the output;
#: then N and the weights.
FIELDS: tuple[Field, ...] = (
    Field(
        "tokenize",
        "TOK-PIPELINE",
        "tokenizer: none splits on whitespace (the default); 13a is sacrebleu's and mteval's",
        "none",
        {name: _TOKENIZER_MEANINGS[name] for name in _TOKENIZERS},
        "reference_bleu.text.tokenizers.tokenize_line",
        group="text",
        flags=("-tok",),
    ),
    Field(
        "lowercase",
        "TOK-CASE",
        "case folding: none, unicode (sacrebleu's -lc), ascii (A-Z only, as the Perl tools)",
        "none",
        _choices(
            CaseFolding,
            {"none": "case kept", "unicode": "Python's str.lower()", "ascii": "A-Z to a-z only"},
        ),
        "reference_bleu.text.tokenizers.fold_case",
        group="text",
        aliases=("case",),
        flags=("--case",),
        switch=(("--lowercase", "-lc"), "unicode"),
    ),
    Field(
        "case_order",
        "TOK-CASE-ORDER",
        "fold case before the tokenizer (sacrebleu) or after it (torchmetrics, mteval)",
        "before",
        _choices(CaseOrder, {"before": "before the tokenizer", "after": "after the tokenizer"}),
        "reference_bleu.text.tokenizers.fold_around",
        group="text",
    ),
    Field(
        "split",
        "TOK-SPLIT-RULE",
        "what whitespace separates tokens: unicode (Python), ascii (Perl), space",
        "unicode",
        _choices(
            SplitRule,
            {
                "unicode": "Python's str.split(): every Unicode whitespace",
                "ascii": "Perl's split: ASCII whitespace only",
                "space": 'split(" "): the space character only, empty tokens kept (an empty line is one)',
            },
        ),
        "reference_bleu.text.tokenizers.split_tokens",
        group="text",
    ),
    Field(
        "ref_length",
        "EC-001",
        "which reference length r the brevity penalty uses: closest, ties to the shorter",
        "closest",
        _choices(
            RefLengthRule,
            {
                "closest": "the closest length, ties to the shorter (the paper, as mteval)",
                "closest-longer": "the closest length, ties to the longer",
                "closest-first": "the closest length, ties to the first reference given",
                "shortest": "the shortest reference",
                "longest": "the longest reference",
                "average": "the mean of the reference lengths",
            },
        ),
        "reference_bleu.formulas.length.best_match_length",
        signature=(2, "r"),
    ),
    Field(
        "empty_references",
        "EC-005",
        "an empty reference is kept (default), dropped, or an error",
        "keep",
        _choices(
            EmptyReferences,
            {
                "keep": "kept: a reference of length 0",
                "drop": "dropped before counting (sacrebleu 1.5)",
                "error": "an error",
            },
        ),
        "reference_bleu.formulas.inputs.SegmentRules.references",
        aliases=("empty_refs",),
    ),
    Field(
        "no_reference",
        "EC-006",
        "a segment without references: an error (default), scored as one empty reference, or dropped",
        "error",
        _choices(
            NoReference,
            {
                "error": "an error (BLEU is undefined without a reference)",
                "empty": "scored against one empty reference",
                "drop": "the segment is left out",
            },
        ),
        "reference_bleu.formulas.inputs.SegmentRules.references",
        group="domain",
        aliases=("no_ref",),
    ),
    Field(
        "empty_candidates",
        "EC-004",
        "an empty hypothesis is counted (default, c = 0), dropped, or an error",
        "keep",
        _choices(
            EmptyCandidates,
            {"keep": "counted, c = 0", "drop": "the segment is left out", "error": "an error"},
        ),
        "reference_bleu.formulas.inputs.SegmentRules.keeps_candidate",
        group="domain",
        aliases=("empty_hyps",),
        # an empty candidate in a non-empty corpus is inside the paper's definition: it adds no
        # n-grams and its reference length to r, so dropping it (with its references) is not BLEU
        inside_domain=("drop",),
    ),
    Field(
        "zero_length",
        "EC-004",
        "c = 0 or r = 0 in a scored unit: the brevity penalty's limit, or an error",
        "limit",
        _choices(
            ZeroLength,
            {
                "limit": "BP's limit (0 for c = 0, 1 for r = 0)",
                "error": "an error (a tool dividing by c or r: ratio = c / r, then 1 / ratio)",
                "error-c": "an error for c = 0 only (a tool computing exp(1 - r / c) unless c > r)",
                "error-r": "an error for r = 0 only (a tool computing the ratio c / r; c = 0 has the limit)",
            },
        ),
        "reference_bleu.scoring.evaluation.evaluate",
        group="domain",
    ),
    Field(
        "empty_corpus",
        "EC-012",
        "a corpus without segments: an error (default), a score of 0, or a score of 1",
        "error",
        _choices(
            EmptyCorpus,
            {
                "error": "an error",
                "zero": "a score of 0 (BP 0)",
                "one": "a score of 1 (BP 1, every order 0/0 counted as 1)",
            },
        ),
        "reference_bleu.scoring.score.empty_corpus_result",
        group="domain",
    ),
    Field(
        "denominator",
        "EC-015",
        "n-gram count in each precision's denominator: l_n, or nltk's at least 1",
        "l_n",
        _choices(
            Denominator,
            {
                "l_n": "the candidate's n-gram count (the paper)",
                "max1-segment": "max(1, l_n) per segment, summed (nltk, fast-bleu)",
                "max1-total": "max(1, total l_n) (ignite)",
            },
        ),
        "reference_bleu.scoring.evaluation.conventional_total",
    ),
    Field(
        "early_return",
        "EC-016",
        "return 0 before smoothing when nothing matches, as sacrebleu",
        "none",
        _choices(
            EarlyReturn,
            {
                "none": "no early return (the paper)",
                "no-unigram-match": "0 when no unigram matches (nltk, ignite)",
                "no-match": "0 when no n-gram of any order matches (sacrebleu 2)",
                "any-zero": "0 when any order has no match (torchmetrics)",
            },
        ),
        "reference_bleu.scoring.evaluation.early_return",
    ),
    Field(
        "undefined_precision",
        "EC-003",
        "what an order with no n-grams at all (0/0) does: zero (default), skip, one, error",
        "zero",
        _choices(
            UndefinedPrecision,
            {
                "zero": "counted as a zero precision (EC-002 decides)",
                "skip": "left out of the mean with its weight",
                "error": "an error",
                "one": "counted as p_n = 1",
                "smoothed": "passed to a smoothing defined on 0/0 (coco, add-one)",
                "reweigh-by-length": "nltk's auto_reweigh: 1 / c on orders 1..c for c < 4 (N = 4, uniform)",
            },
        ),
        "reference_bleu.scoring.evaluation._undefined_orders",
        signature=(6, "undef"),
        aliases=("undefined",),
    ),
    Field(
        "effective_order",
        "EC-003",
        "leave out the orders a short sentence has no n-grams of",
        False,
        {},
        "reference_bleu.formulas.combination.effective_order_weights",
        refines="undefined_precision",
        signature=(4, "eff"),
        kind="flag",
    ),
    Field(
        "zero_precision",
        "EC-002",
        "what a zero precision does to the score: limit (BLEU 0) or a tool's convention",
        "limit",
        _choices(
            ZeroPrecision,
            {
                "limit": "BLEU is 0, the limit of the geometric mean (the paper)",
                "skip": "the order is left out of the mean, its weight with it",
                "renormalize": "the order is left out and the weights of the orders left renormalised to 1",
                "sentinel": "p_n is replaced by a tiny number (zero_value; nltk's 2^-1022)",
                "log-constant": "log p_n is replaced by a constant (zero_value; -9999999999)",
            },
        ),
        "reference_bleu.scoring.evaluation.weighted_logs",
        signature=(5, "zero"),
        aliases=("zero",),
    ),
    Field(
        "zero_value",
        "EC-002",
        "the sentinel precision, or the constant for log 0",
        None,
        {},
        "reference_bleu.scoring.evaluation.weighted_logs",
        refines="zero_precision",
        kind="number",
    ),
    Field(
        "smoothing",
        "SMOOTH",
        "smoothing of zero precisions: none, or a method such as exp, floor, add-k",
        "none",
        _SMOOTHING_MEANINGS,
        "reference_bleu.formulas.smoothing.smooth",
        signature=(3, "smooth"),
        flags=("--smooth-method", "-s"),
    ),
    Field(
        "smoothing_value",
        "SMOOTH",
        "the smoothing's parameter: epsilon of floor, k of add-k, ...",
        None,
        {},
        "reference_bleu.formulas.smoothing.smooth",
        refines="smoothing",
        flags=("--smooth-value", "-sv"),
        kind="number",
    ),
    Field(
        "brevity_penalty",
        "EC-017",
        "the paper's brevity penalty, or a tool's variant",
        "paper",
        _choices(
            BrevityPenaltyRule,
            {
                "paper": "exp(1 - r/c) for c < r, else 1 (the paper)",
                "coco": "pycocoevalcap's: exp(1 - 1/ratio), ratio = (c + tiny) / (r + small), "
                "when ratio < 1 (c = r too)",
                "plus-one": "exp(1 - (r+1)/(c+1)) for c < r (code-summarisation scripts, CodeBERT's bleu.py)",
            },
        ),
        "reference_bleu.scoring.evaluation.coco_brevity_penalty",
        aliases=("bp",),
    ),
    Field(
        "aggregation",
        "EC-009",
        "micro: one BLEU from summed counts (the paper); macro: mean of sentence BLEUs",
        "micro",
        _choices(
            Aggregation,
            {"micro": "counts summed over the corpus, one BLEU", "macro": "the mean of every segment's BLEU"},
        ),
        "reference_bleu.scoring.score.scored_units",
        signature=(7, "agg"),
    ),
    Field(
        "arithmetic",
        "CONV-ARITH",
        "exact (default), or a tool's floating point: binary64, binary32",
        "exact",
        _choices(
            Arithmetic,
            {
                "exact": "exact, correctly rounded to a double (the reference)",
                "binary64": "Python floats, as most tools",
                "binary32": "float32 throughout (torchmetrics)",
                "binary32-precisions": "float32 precisions, float64 after (ignite's sentence scores)",
            },
        ),
        "reference_bleu.scoring.floating.float_score",
    ),
    Field(
        "scale",
        "EC-013",
        "the score on [0, 1] (unit) or x100 (percent)",
        "unit",
        _choices(
            Scale, {"unit": "BLEU on [0, 1] (the paper)", "percent": "BLEU x 100 (sacrebleu, multi-bleu)"}
        ),
        "reference_bleu.scoring.score.printed",
        group="output",
        aliases=("output",),
    ),
    Field(
        "round_digits",
        "EC-013",
        "decimals printed, as sacrebleu's -w (default: every digit of the float)",
        None,
        {},
        "reference_bleu.scoring.score.printed",
        group="output",
        refines="scale",
        flags=("--width", "-w"),
        kind="int",
    ),
    Field(
        "max_order",
        "BLEU-WEIGHTS",
        "longest n-gram counted: 4",
        4,
        {},
        "reference_bleu.formulas.combination.weights_w_n",
        signature=(0, "N"),
        flags=("-N",),
        kind="int",
    ),
    Field(
        "weights",
        "BLEU-WEIGHTS",
        'weight of each n-gram order, e.g. 0.5 0.5 or "1/3" (default equal)',
        (Fraction(1, 4),) * 4,
        {},
        "reference_bleu.formulas.combination.weights_w_n",
        signature=(1, "w"),
        kind="weights",
    ),
    Field(
        "unnormalized_weights",
        "EC-007",
        "use the weights as given, even if they do not sum to 1",
        False,
        {},
        "reference_bleu.formulas.combination.weights_w_n",
        kind="flag",
    ),
)

BY_NAME: dict[str, Field] = {f.name: f for f in FIELDS}
#: Every field's name, in order.
FIELD_NAMES = tuple(BY_NAME)
#: Former names of fields, each to its field's name (accepted with a DeprecationWarning).
ALIASES: dict[str, str] = {alias: f.name for f in FIELDS for alias in f.aliases}
#: The text fields, as ``tokenize_line`` keywords.
TEXT_FIELDS = tuple(f.name for f in FIELDS if f.group == "text")
#: The options' fields (API-OPTIONS): every field that is not text, in order.
OPTION_FIELDS = tuple(f.name for f in FIELDS if f.group != "text")
#: The paper's value of every option field.
PAPER_OPTIONS: dict[str, Any] = {f.name: f.paper for f in FIELDS if f.group != "text"}
#: The paper's text conventions.
PAPER_TEXT: dict[str, str] = {f.name: f.paper for f in FIELDS if f.group == "text"}


def canonical(name: str, where: str, stacklevel: int = 3) -> str:
    """The field's name for ``name``: itself, or what a former name is now called (a DeprecationWarning)."""
    new = ALIASES.get(name)
    if new is None:
        return name
    warnings.warn(f"{where}: {name!r} is now called {new!r}", DeprecationWarning, stacklevel=stacklevel)
    return new


@dataclass(frozen=True)
class Axis:
    """A dimension of the convention space: a field and the fields that refine it (spec CONV-SPACE)."""

    field: Field
    refinements: tuple[Field, ...] = ()

    @property
    def name(self) -> str:
        """The axis's name: its field's."""
        return self.field.name

    @property
    def fields(self) -> tuple[str, ...]:
        """Every field of the axis, its own first."""
        return (self.field.name, *(f.name for f in self.refinements))

    def shown(self, values: Mapping[str, Any]) -> str:
        """The axis's value at a point (its fields' ``values``) as ``reference-bleu profiles`` shows it."""
        return _SHOWN.get(self.name, _plain)(self, values)

    def assignments(self) -> Iterator[dict[str, Any]]:
        """The values the axis takes, as assignments of its fields: each value of its field (both,
        for a flag) with the refinements at the paper's, then each refining flag set
        (``effective_order=True``)."""
        paper = {f.name: f.paper for f in (self.field, *self.refinements)}
        values = (self.field.paper, not self.field.paper) if self.field.kind == "flag" else self.field.values
        for value in values:
            yield {**paper, self.field.name: value}
        for refinement in self.refinements:
            if refinement.kind == "flag":
                yield {**paper, refinement.name: not refinement.paper}


def _plain(axis: Axis, values: Mapping[str, Any]) -> str:
    value = values[axis.name]
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _smoothing_shown(axis: Axis, values: Mapping[str, Any]) -> str:
    value = values.get("smoothing_value")
    return str(values["smoothing"]) + ("" if value is None else f"={value}")


#: The value a zero precision takes under ``zero_precision="sentinel"`` unless ``zero_value``
#: says otherwise: the smallest normal double, ``sys.float_info.min`` = 2^-1022 (nltk 3.10).
DEFAULT_SENTINEL = Fraction(1, 2**1022)
#: log p_n of a zero precision under ``zero_precision="log-constant"``: multi-bleu.perl's and
#: sacrebleu's -9999999999.
DEFAULT_LOG_CONSTANT = Fraction(-9999999999)


def zero_constant(zero_precision: str, zero_value: Fraction | None) -> Fraction:
    """EC-002. The sentinel p_n (``sentinel``) or the constant log p_n (``log-constant``)."""
    if zero_value is not None:
        return zero_value
    return DEFAULT_LOG_CONSTANT if zero_precision == "log-constant" else DEFAULT_SENTINEL


def constant_text(value: Fraction) -> str:
    """EC-002's constant as the signature and the axes print it: an integer, or 7 significant digits."""
    if value.denominator == 1:
        return str(value)
    return f"{Decimal(value.numerator) / value.denominator:.6e}"


def _zero_shown(axis: Axis, values: Mapping[str, Any]) -> str:
    zero = str(values["zero_precision"])
    if zero in ("sentinel", "log-constant"):
        zero += f"({constant_text(zero_constant(zero, values.get('zero_value')))})"
    return zero


def _undefined_shown(axis: Axis, values: Mapping[str, Any]) -> str:
    return "effective" if values.get("effective_order") else str(values["undefined_precision"])


def _scale_shown(axis: Axis, values: Mapping[str, Any]) -> str:
    digits = values.get("round_digits")
    return str(values["scale"]) + ("" if digits is None else f",{digits}dp")


_SHOWN: dict[str, Callable[[Axis, Mapping[str, Any]], str]] = {
    "smoothing": _smoothing_shown,
    "zero_precision": _zero_shown,
    "undefined_precision": _undefined_shown,
    "scale": _scale_shown,
}

#: Every axis, in the pipeline's order.
AXES: dict[str, Axis] = {
    f.name: Axis(f, tuple(r for r in FIELDS if r.refines == f.name)) for f in FIELDS if f.refines is None
}


def axis_of(name: str) -> Axis:
    """The axis a field (or a former name of one) belongs to."""
    found = BY_NAME[ALIASES.get(name, name)]
    return AXES[found.refines or found.name]


def axes_in(*groups: Group) -> tuple[Axis, ...]:
    """The axes of these groups, in order."""
    return tuple(axis for axis in AXES.values() if axis.field.group in groups)


#: Every group but the text's: the options' axes.
NOT_TEXT: tuple[Group, ...] = ("score", "domain", "output")


def shown_values(
    values: Mapping[str, Any], groups: tuple[Group, ...] = ("text", *NOT_TEXT)
) -> dict[str, str]:
    """CONV-SPACE. Every axis's value at a point given as field values (missing fields at the paper's)."""
    merged = {**PAPER_TEXT, **PAPER_OPTIONS, **values}
    return {axis.name: axis.shown(merged) for axis in axes_in(*groups)}
