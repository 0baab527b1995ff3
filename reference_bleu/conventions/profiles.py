"""Named profiles: each real BLEU tool as a point of the convention space (spec CONV-PROFILES).

A profile is the reference's options (the score conventions of chapter 13) plus the text
conventions (tokenizer, case folding, split rule) and the level at which the tool scores,
with the evidence for every value: the file and line of the tool's source, and its version.
Profiles are data: the reference computes every one of them with the same code, so two
profiles differ only on the axes where their values differ. A profile never calls the tool
it imitates.

A name may take parameters, ``nltk[method=4]`` or ``sacrebleu[smooth=floor,value=0.1]``;
:func:`resolve` parses them and :data:`PROFILES` lists every family with its parameters.

It is long because it holds every family of profiles (fourteen tools, forty-odd profiles) with
the evidence behind each value, one builder per family: the profiles' data in one place, read
by the API, the command line, the runner and the spec's generated tables.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from reference_bleu.conventions.options import make_options
from reference_bleu.conventions.registry import AXES, NOT_TEXT, OPTION_FIELDS, PAPER_TEXT, shown_values
from reference_bleu.errors import BleuOptionError

Params = Mapping[str, str]


@dataclass(frozen=True)
class Profile:
    """A tool's conventions: reference options, text conventions, level, and evidence."""

    name: str
    tool: str
    version: str
    summary: str
    options: Mapping[str, Any]
    evidence: tuple[str, ...]
    tokenize: str = PAPER_TEXT["tokenize"]
    lowercase: str = PAPER_TEXT["lowercase"]
    split: str = PAPER_TEXT["split"]
    #: TOK-CASE-ORDER: case folded before the tokenizer (sacrebleu, mteval) or after it (torchmetrics).
    case_order: str = PAPER_TEXT["case_order"]
    #: ``corpus``: the tool scores a test set; ``sentence``: one segment at a time, so a test
    #: set's score is the mean of sentence scores (``aggregation="macro"``).
    level: str = "corpus"
    #: Exceptions the tool raises where the reference raises a BleuError (spec ID -> name).
    raises: Mapping[str, str] = field(default_factory=dict)
    #: What the tool's command line changes when it scores each segment alone (sacrebleu's ``-sl``
    #: turns effective order on): options applied under ``score --sentence-level`` (CLI-OUTPUT).
    sentence_options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> dict[str, str]:
        """The text conventions, as ``tokenize_line`` keywords."""
        return {name: getattr(self, name) for name in PAPER_TEXT}


@dataclass(frozen=True)
class Family:
    """A profile family: a name, its parameters (with defaults and allowed values) and a builder."""

    name: str
    parameters: Mapping[str, tuple[str, ...]]
    defaults: Mapping[str, str]
    build: Callable[[Params], Profile]
    #: Parameters whose value is a number, checked by the options rather than listed.
    numeric: tuple[str, ...] = ()
    #: What the tool takes: tokens (the caller's lists), text, SGML text, tokenized text.
    takes: str = ""
    #: How its text becomes tokens, from its source (file:line); "as NAME" where it is another's.
    text_rule: str = ""

    def __call__(self, params: Params) -> Profile:
        unknown = sorted(set(params) - set(self.parameters) - set(self.numeric))
        if unknown:
            known = ", ".join([*self.parameters, *self.numeric]) or "none"
            raise BleuOptionError(
                "CONV-PROFILES", f"profile {self.name!r} has no parameter {unknown[0]!r} (known: {known})"
            )
        for key, value in params.items():
            allowed = self.parameters.get(key)
            if allowed is not None and value not in allowed:
                raise BleuOptionError(
                    "CONV-PROFILES",
                    f"{self.name}[{key}=...] must be one of {', '.join(allowed)}, not {value!r}",
                )
        return self.build({**self.defaults, **params})


_BOOL = ("true", "false")
SACREBLEU = "sacrebleu 2.6.0 sacrebleu/metrics/bleu.py"
NLTK = "nltk 3.10.4 nltk/translate/bleu_score.py"


# --- the paper -----------------------------------------------------------------------------------


def _paper(params: Params) -> Profile:
    return Profile(
        "paper",
        "Papineni et al. 2002",
        "ACL 2002",
        "the paper's BLEU on tokens: closest reference length (ties to the shorter), no smoothing, exact",
        {},
        ("Papineni et al. 2002, sec. 2.1-2.3; spec chapters 01-06 for the points the paper leaves open",),
    )


# --- sacrebleu -----------------------------------------------------------------------------------


def _sacrebleu_options(params: Params, effective: bool) -> dict[str, Any]:
    smooth = params["smooth"]
    options: dict[str, Any] = {
        "smoothing": smooth,
        "early_return": "no-match",
        "zero_precision": "log-constant",
        "arithmetic": "binary64",
        "scale": "percent",
        "round_digits": int(params.get("width", "1")),
    }
    if params.get("value"):
        options["smoothing_value"] = params["value"]
    if smooth == "add-k":
        options["undefined_precision"] = "one"  # (0 + k) / (0 + k): add-k runs before the l_n = 0 test
    elif effective:
        options["effective_order"] = True
    return options


_SACREBLEU_EVIDENCE = (
    f"{SACREBLEU}:258 `if not any(correct): return` 0 before smoothing (early_return=no-match)",
    f"{SACREBLEU}:264-268 add-k adds k to l_n before `if total[n - 1] == 0: break` (0/0 becomes k/k)",
    f"{SACREBLEU}:277 effective_order keeps the orders up to the last with l_n > 0",
    f"{SACREBLEU}:282 exp: `smooth_mteval *= 2` (SMOOTH-EXP); floor: epsilon / l_n (SMOOTH-FLOOR)",
    f"{SACREBLEU}:245 `my_log`: log 0 is -9999999999 (zero_precision=log-constant)",
    f"{SACREBLEU}:252 BP exp(1 - r/c), 0 for c = 0; :327 closest reference length, ties to the shorter",
    "sacrebleu 2.6.0 sacrebleu/sacrebleu.py:192 `--width` default 1: the score printed to 1 decimal, x100",
    "sacrebleu 2.6.0 sacrebleu/metrics/base.py:253 `hyps[0]`: an empty corpus raises IndexError "
    "(empty_corpus=error); :340 `None` references removed, a segment left with none raises TypeError "
    "at bleu.py:405 (observed)",
)
#: What sacrebleu 2.6.0 raises where the reference raises a BleuError (observed).
_SACREBLEU_RAISES = {"EC-006": "TypeError", "EC-012": "IndexError"}


def _sacrebleu(params: Params) -> Profile:
    return Profile(
        _named("sacrebleu", params, _SACREBLEU_FAMILY.defaults),
        "sacrebleu",
        "2.6.0",
        "sacrebleu's corpus BLEU as its command line computes it: 13a, exp smoothing, x100, 1 decimal",
        _sacrebleu_options(params, params["eff"] == "true"),
        _SACREBLEU_EVIDENCE,
        tokenize=params["tokenize"],
        lowercase="unicode" if params["lc"] == "true" else "none",
        raises=_SACREBLEU_RAISES,
        # sacrebleu.py:446 -sl sets use_effective_order; under add-k it changes no number (0/0 is k/k)
        sentence_options={} if params["smooth"] == "add-k" else {"effective_order": True},
    )


def _sacrebleu_sentence(params: Params) -> Profile:
    return Profile(
        _named("sacrebleu-sentence", params, _SACREBLEU_SENTENCE_FAMILY.defaults),
        "sacrebleu",
        "2.6.0",
        "sacrebleu.sentence_bleu per segment (exp smoothing, effective order); a test set is their mean",
        {**_sacrebleu_options(params, params["eff"] == "true"), "aggregation": "macro"},
        (
            *_SACREBLEU_EVIDENCE,
            "sacrebleu 2.6.0 sacrebleu/compat.py:64-70 sentence_bleu: exp, use_effective_order=True",
        ),
        tokenize=params["tokenize"],
        lowercase="unicode" if params["lc"] == "true" else "none",
        level="sentence",
        raises=_SACREBLEU_RAISES,
        sentence_options=_sacrebleu(params).sentence_options,
    )


#: sacrebleu 1.5.1's BLEU (read in its wheel's sources; run in an environment of its own).
SACREBLEU_1 = "sacrebleu 1.5.1 sacrebleu/metrics/bleu.py"


def _sacrebleu_15(params: Params) -> Profile:
    base = _sacrebleu(params)
    return Profile(
        _named("sacrebleu-1.5", params, _SACREBLEU_FAMILY.defaults),
        "sacrebleu",
        "1.5.1",
        "sacrebleu 1.5.1: as 2.x, but empty references dropped, smoothing even when nothing matches, "
        "and an empty corpus scores 0",
        {**base.options, "empty_references": "drop", "early_return": "none", "empty_corpus": "zero"},
        (
            f'{SACREBLEU_1}:284-286 `lines = [output] + [x for x in refs if x is not None and x != ""]`; '
            "fewer than two lines raise EOFError('No valid references for a sentence!') "
            "(empty_references=drop; a segment left without references: EC-006)",
            f"{SACREBLEU_1}:192-216 no early return: exp smoothing applies from order 1 when nothing "
            "matches (early_return=none; 2.x returns 0 first, bleu.py:258)",
            f"{SACREBLEU_1}:196 `if total[n-1] == 0: break`; sacrebleu/utils.py:41 my_log(0) = -9999999999",
            f"{SACREBLEU_1}:218-219 BP exp(1 - r/c), 0 for c = 0; :141-146 closest, ties to the shorter",
            f"{SACREBLEU_1}:264-317 an empty corpus adds nothing up: c = r = 0, BP 1, every log "
            "-9999999999: score 0 (observed; empty_corpus=zero)",
        ),
        tokenize=base.tokenize,
        lowercase=base.lowercase,
        raises={"EC-006": "EOFError"},
        sentence_options=base.sentence_options,
    )


_TOKENIZE = ("13a", "none", "intl", "char", "zh", "ja-mecab", "ko-mecab")
_SACREBLEU_PARAMS: dict[str, tuple[str, ...]] = {
    "smooth": ("exp", "none", "floor", "add-k"),
    "eff": _BOOL,
    "tokenize": _TOKENIZE,
    "lc": _BOOL,
    "width": tuple(str(k) for k in range(10)),
}
_SACREBLEU_FAMILY = Family(
    "sacrebleu",
    _SACREBLEU_PARAMS,
    {"smooth": "exp", "eff": "false", "tokenize": "13a", "lc": "false", "width": "1"},
    _sacrebleu,
    numeric=("value",),
    takes="text",
    text_rule=(
        "sacrebleu 2.6.0 sacrebleu/metrics/bleu.py:295-302 `_preprocess_segment`: "
        "`sent.lower()` if `-lc` (:301), then the tokenizer (default `13a`) on `sent.rstrip()` "
        "(:302); the n-grams are of its `split()`"
    ),
)
_SACREBLEU_SENTENCE_FAMILY = Family(
    "sacrebleu-sentence",
    _SACREBLEU_PARAMS,
    {"smooth": "exp", "eff": "true", "tokenize": "13a", "lc": "false", "width": "1"},
    _sacrebleu_sentence,
    numeric=("value",),
    takes="text",
    text_rule="as sacrebleu",
)


# --- nltk ----------------------------------------------------------------------------------------

_NLTK_SMOOTHING = {
    "0": "none",
    "1": "chen-cherry-1",
    "2": "chen-cherry-2",
    "3": "chen-cherry-3",
    "4": "nltk-4",
    "5": "nltk-5",
    "6": "nltk-6",
    "7": "nltk-7",
}

_NLTK_EVIDENCE = (
    f"{NLTK}:391 `denominator = max(1, sum(counts.values()))` per segment (denominator=max1-segment)",
    f"{NLTK}:257 `if p_numerators[1] == 0: return 0` before smoothing (early_return=no-unigram-match)",
    f"{NLTK}:585 method0 replaces a zero precision by sys.float_info.min (zero_precision=sentinel)",
    f"{NLTK}:279 `if p_i > 0`: a zero left after smoothing methods 1-7 is left out (zero_precision=skip)",
    f"{NLTK}:275 auto_reweigh: weights 1/c on orders 1..c when c < 4 (undefined_precision=reweigh-by-length)",
    f"{NLTK}:659 method4: 1 / (2**incvnt * k / log(hyp_len)) (SMOOTH-NLTK-4)",
    f"{NLTK}:674 method5 reads the last segment's p_5; :703 method6 the last hypothesis's n-gram count",
    f"{NLTK}:250 `Fraction(p_numerators[i], p_denominators[i])`: an empty corpus raises ZeroDivisionError "
    "(empty_corpus=error; the spec said nltk returns 0: corrected); a segment without references "
    "raises KeyError (observed, nltk 3.10.4)",
)


#: What nltk 3.10.4 raises where the reference raises a BleuError (observed, with the line that raises).
_NLTK_RAISES = {
    "SMOOTH-NLTK-6": "AssertionError",
    "EC-006": "KeyError",  # a segment without references: its hypothesis n-grams looked up in nothing
    "EC-012": "ZeroDivisionError",  # bleu_score.py:250 Fraction(0, 0) for an empty corpus
}


def _nltk_options(params: Params) -> dict[str, Any]:
    method = params["method"]
    options: dict[str, Any] = {
        "denominator": "max1-segment",
        "early_return": "no-unigram-match",
        "smoothing": _NLTK_SMOOTHING[method],
        "zero_precision": "sentinel" if method == "0" else "skip",
        "arithmetic": "binary64",
    }
    if params["auto_reweigh"] == "true":
        options["undefined_precision"] = "reweigh-by-length"
    return options


def _nltk(params: Params) -> Profile:
    return Profile(
        _named("nltk", params, _NLTK_FAMILY.defaults),
        "nltk",
        "3.10.4",
        "nltk.translate.bleu_score.corpus_bleu (SmoothingFunction().method<k>)",
        _nltk_options(params),
        _NLTK_EVIDENCE,
        raises=_NLTK_RAISES,
    )


def _nltk_sentence(params: Params) -> Profile:
    return Profile(
        _named("nltk-sentence", params, _NLTK_FAMILY.defaults),
        "nltk",
        "3.10.4",
        "nltk.translate.bleu_score.sentence_bleu per segment; a test set is their mean",
        {**_nltk_options(params), "aggregation": "macro"},
        (*_NLTK_EVIDENCE, f"{NLTK} sentence_bleu is corpus_bleu of one segment"),
        level="sentence",
        raises=_NLTK_RAISES,
    )


def _nltk_32(params: Params) -> Profile:
    return Profile(
        "nltk-3.2",
        "nltk",
        "3.2.5",
        "nltk 3.2.x corpus_bleu: a zero precision ends the sum (skipped, weights not renormalised)",
        {
            "denominator": "max1-segment",
            "early_return": "no-unigram-match",
            "zero_precision": "skip",
            "arithmetic": "binary64",
        },
        (
            "nltk 3.2.5 nltk/translate/bleu_score.py method0: `if p_i.numerator != 0: p_n_new.append(p_i)` "
            "else `break` (zero orders dropped; the weights of the others unchanged); spec 07",
            "seed 000 prints 0.8408964152537145 for 'it is a ship' (vector seed-000-003): (1/2)^(1/4)",
        ),
    )


_NLTK_FAMILY = Family(
    "nltk",
    {"method": tuple(_NLTK_SMOOTHING), "auto_reweigh": _BOOL},
    {"method": "0", "auto_reweigh": "false"},
    _nltk,
    takes="tokens (the caller's lists)",
    text_rule=(
        "nltk's `corpus_bleu` takes token lists; the profile's text rule is the command line's "
        "whitespace split"
    ),
)


# --- Perl scripts --------------------------------------------------------------------------------

MOSES = "moses-smt/mosesdecoder@34452895f350bf097b21ee514a529a1dc542243c"


def _mteval_13a(params: Params) -> Profile:
    script = f"{MOSES} scripts/generic/mteval-v13a.pl"
    return Profile(
        _named("mteval-13a", params, _MTEVAL_FAMILY.defaults),
        "mteval-v13a.pl",
        "v13a",
        "NIST mteval-v13a.pl BLEU on SGML input: 13a, ASCII lower-casing unless -c, NIST smoothing, 4 places",
        {
            "smoothing": "chen-cherry-3",
            "undefined_precision": "one",
            "arithmetic": "binary64",
            "round_digits": 4,
        },
        (
            f"{script}:858-866 l_n = 0 gives log p_n = 0 (undefined_precision=one); m_n = 0 gives "
            "log(1 / (smooth * l_n)) with smooth doubling (SMOOTH-CC3)",
            f"{script}:853 BP exp(min(0, 1 - r/c)), 0 when c = 0; :718 closest length, ties to the shorter",
            f"{script}:932 `tr/[A-Z]/[a-z]/ unless $preserve_case` "
            "(ASCII lower-casing by default, -c keeps case), after :925-928 replaced the entities "
            '(case_order=after: "&LT;" stays three tokens, where folding first makes it "<"; run: 0.2797)',
            "run here on SGML-wrapped ../shared/data (FBK, uedin-nmt, online-A; with and without -c): "
            "the profile prints the same 4 decimals (tests/test_profiles.py)",
            f"{script}:925-928 the entity replacement undoes the SGML escaping of the input: on the "
            "original text only a literal &lt; or &gt; becomes < or > (tokenize=13a-sgml, TOK-SGML; "
            "run on such a line: 0.3202, which 13a on plain text does not give)",
            f"{script}:1067 `BLEU score = %.4f`",
        ),
        tokenize="13a-sgml",
        lowercase="none" if params["c"] == "true" else "ascii",
        case_order="after",
    )


def _mteval_14_intl(params: Params) -> Profile:
    script = f"{MOSES} scripts/generic/mteval-v14.pl"
    base = _mteval_13a(params)
    return Profile(
        _named("mteval-14-intl", params, _MTEVAL_FAMILY.defaults),
        "mteval-v14.pl",
        "v14 --international-tokenization",
        "NIST mteval-v14.pl with international tokenization: intl rules, Unicode lower-casing unless -c",
        base.options,
        (
            f"{script}:969 `lc( $norm_text ) unless $preserve_case` on decoded UTF-8 (Unicode lower-casing), "
            "after :963-967 replaced the entities (case_order=after)",
            f"{script}:963-967 &quot;, &amp;, &lt;, &gt;, &apos; replaced in that order: on the original "
            "text of SGML input a literal &lt;, &gt; or &apos; becomes the character (tokenize=intl-sgml)",
            f"{script}:857 bleu_score as in v13a; :1076 `BLEU score = %.4f`",
        ),
        tokenize="intl-sgml",
        lowercase="none" if params["c"] == "true" else "unicode",
        case_order="after",
    )


_MTEVAL_FAMILY = Family(
    "mteval-13a",
    {"c": _BOOL},
    {"c": "false"},
    _mteval_13a,
    takes="SGML text",
    text_rule=(
        "mteval-v13a.pl:925-928 the entities, :932 `tr/[A-Z]/[a-z]/ unless $preserve_case` "
        "(ASCII lower-casing by default; `-c` keeps case), then the 13a rules (TOK-SGML)"
    ),
)
_MTEVAL_14_FAMILY = Family(
    "mteval-14-intl",
    {"c": _BOOL},
    {"c": "false"},
    _mteval_14_intl,
    takes="SGML text",
    text_rule=(
        "mteval-v14.pl:963-967 the entities, :969 `lc(...) unless $preserve_case` (Unicode, by "
        "default; `-c` keeps case), then the intl rules"
    ),
)


def _multi_bleu(params: Params) -> Profile:
    script = f"{MOSES} scripts/generic/multi-bleu.perl"
    return Profile(
        _named("multi-bleu", params, _MULTI_BLEU_FAMILY.defaults),
        "multi-bleu.perl",
        "moses",
        "moses multi-bleu.perl on tokenized text: Perl split, log 0 = -9999999999, x100, 2 decimals",
        {"zero_precision": "log-constant", "arithmetic": "binary64", "scale": "percent", "round_digits": 2},
        (
            f"{script}:62,69 `split` on bytes: ASCII whitespace (split=ascii)",
            f"{script}:61,68 `lc if $lowercase` on bytes with -lc: ASCII lower-casing",
            f"{script}:65-77 closest reference length, ties to the shorter",
            f"{script}:141 p_n = 0 where l_n = 0; :174-175 `my_log`: -9999999999 for log 0",
            f"{script}:154 BP exp(1 - r/c); :160 `BLEU = %.2f` of 100 * BLEU",
        ),
        tokenize="none",
        lowercase="ascii" if params["lc"] == "true" else "none",
        split="ascii",
    )


_MULTI_BLEU_FAMILY = Family(
    "multi-bleu",
    {"lc": _BOOL},
    {"lc": "false"},
    _multi_bleu,
    takes="tokenized text",
    text_rule=(
        "multi-bleu.perl:61,68 `lc` on bytes with `-lc` only (ASCII), :62,69 Perl `split` on "
        "ASCII whitespace; the text is expected tokenized already"
    ),
)


# --- Python and Rust libraries --------------------------------------------------------------------

NMT = "tensorflow/nmt@0be864257a76c151eef20ea689755f08bc1faf4e nmt/scripts/bleu.py"


def _nmt_options(params: Params) -> dict[str, Any]:
    """tensorflow/nmt's compute_bleu: shortest reference; smooth adds one to every m_n and l_n."""
    options: dict[str, Any] = {"ref_length": "shortest", "arithmetic": "binary64"}
    if params["smooth"] == "true":
        options.update(smoothing="add-one", undefined_precision="one")
    return options


def _nmt(params: Params) -> Profile:
    return Profile(
        _named("nmt", params, _NMT_FAMILY.defaults),
        "tensorflow/nmt compute_bleu",
        "0be8642",
        "Google's compute_bleu (tensorflow/nmt; HF evaluate's 'bleu'): shortest reference",
        {**_nmt_options(params), "zero_length": "error"},
        (
            f"{NMT}:70 `reference_length += min(len(r) for r in references)` (ref_length=shortest); "
            "no reference: ValueError from min()",
            f"{NMT}:87-95 smooth: (m + 1) / (l + 1) at every order, 0/0 becoming 1/1; else m/l or 0",
            f"{NMT}:103-108 ratio = c / r; BP = exp(1 - 1/ratio) when ratio <= 1: r = 0, or c = 0 "
            "(1 / ratio), raises ZeroDivisionError (zero_length=error), an empty corpus too",
        ),
        raises={"EC-004": "ZeroDivisionError", "EC-006": "ValueError", "EC-012": "ZeroDivisionError"},
    )


_NMT_FAMILY = Family(
    "nmt",
    {"smooth": _BOOL},
    {"smooth": "false"},
    _nmt,
    takes="tokens (the caller's lists)",
    text_rule="nmt/scripts/bleu.py `compute_bleu` takes token lists",
)


def _bleuscore(params: Params) -> Profile:
    return Profile(
        _named("bleuscore", params, _BLEUSCORE_FAMILY.defaults),
        "bleuscore",
        "0.2.0",
        "bleuscore (Rust) compute: tensorflow/nmt's arithmetic on 13a tokens",
        _nmt_options(params),
        (
            "bleuscore 0.2.0 (observed): c = 0 gives BP 0 and r = 0 gives ratio inf and BP 1 in Rust floats "
            "(zero_length=limit, unlike tensorflow/nmt); a segment without references panics "
            "(`Option::unwrap()` on None, crates/bleuscore/src/bleu.rs:80), an empty corpus panics "
            "('Pair statistics calculation got empty result', :124): PanicException",
            "bleuscore 0.2.0 crates/bleuscore/src/bleu.rs:79-80 `RefLenMethod::Shortest => "
            '*ref_lens.iter().min().unwrap()`; bindings/python/src/lib.rs:40 `ref_len_method="shortest"` '
            "by default",
            "bleuscore 0.2.0 crates/bleuscore/src/bleu.rs:66 `Tokenizer13a::new()`: tokenizer 13a, "
            "case kept (compute([['The cat, sat on']], ['the cat,sat']) "
            "gives p_1 = 3/4 on 4 tokens); smooth as tensorflow/nmt",
        ),
        tokenize="13a",
        raises={"EC-006": "PanicException", "EC-012": "PanicException"},
    )


_BLEUSCORE_FAMILY = Family(
    "bleuscore",
    {"smooth": _BOOL},
    {"smooth": "false"},
    _bleuscore,
    takes="text",
    text_rule="crates/bleuscore/src/bleu.rs:66 `Tokenizer13a::new()`; case kept",
)

TORCHMETRICS = "torchmetrics 1.9.0 torchmetrics/functional/text/bleu.py"


def _torchmetrics_options(params: Params) -> dict[str, Any]:
    options: dict[str, Any] = {
        "ref_length": "closest-first",
        "early_return": "any-zero",
        "empty_corpus": "zero",
        "arithmetic": "binary32",
    }
    if params["smooth"] == "true":
        options["smoothing"] = "chen-cherry-2"
    return options


_TORCHMETRICS_EVIDENCE = (
    f"{TORCHMETRICS}:92 `target_len_diff.index(min(...))`: ties to the first listed reference; "
    "no reference: ValueError from min()",
    f"{TORCHMETRICS}:132 `if min(numerator) == 0.0: return 0` "
    "before smoothing (early_return=any-zero; an empty corpus scores 0: empty_corpus=zero)",
    f"{TORCHMETRICS}:137-140 smooth: (m + 1) / (l + 1) for n >= 2, p_1 unsmoothed (SMOOTH-CC2)",
    f"{TORCHMETRICS}:144-147 log, sum, exp and BP on tensors of the default dtype, float32",
)


def _torchmetrics(params: Params) -> Profile:
    return Profile(
        _named("torchmetrics", params, _TORCHMETRICS_FAMILY.defaults),
        "torchmetrics",
        "1.9.0",
        "torchmetrics BLEUScore: float32 tensors, ties to the first reference, 0 if any order has no match",
        _torchmetrics_options(params),
        (f"{TORCHMETRICS}:58 `sentence.split()` (split=unicode)", *_TORCHMETRICS_EVIDENCE),
        raises={"EC-006": "ValueError"},
    )


TORCHMETRICS_SACREBLEU = "torchmetrics 1.9.0 torchmetrics/functional/text/sacre_bleu.py"


def _torchmetrics_sacrebleu(params: Params) -> Profile:
    return Profile(
        _named("torchmetrics-sacrebleu", params, _TORCHMETRICS_SACREBLEU_FAMILY.defaults),
        "torchmetrics",
        "1.9.0",
        "torchmetrics SacreBLEUScore: sacrebleu's tokenizers, lower-casing after them, BLEUScore arithmetic",
        _torchmetrics_options(params),
        (
            f"{TORCHMETRICS_SACREBLEU}:153-155,168 the tokenizer first, then `line.lower()` "
            "if lowercase, then `.split()` (case_order=after)",
            f"{TORCHMETRICS_SACREBLEU}:213-235 13a as sacrebleu's; :237 zh, :265 intl, :298 char, "
            ":311 ja-mecab, :330 ko-mecab",
            f"{TORCHMETRICS_SACREBLEU}:543-556 `_bleu_score_update` and `_bleu_score_compute` of BLEUScore",
            *_TORCHMETRICS_EVIDENCE,
        ),
        tokenize=params["tokenize"],
        lowercase="unicode" if params["lc"] == "true" else "none",
        case_order="after",
        raises={"EC-006": "ValueError"},
    )


_TORCHMETRICS_FAMILY = Family(
    "torchmetrics",
    {"smooth": _BOOL},
    {"smooth": "false"},
    _torchmetrics,
    takes="text",
    text_rule="torchmetrics/functional/text/bleu.py:58 `sentence.split()`; case kept",
)
_TORCHMETRICS_SACREBLEU_FAMILY = Family(
    "torchmetrics-sacrebleu",
    {"smooth": _BOOL, "tokenize": _TOKENIZE, "lc": _BOOL},
    {"smooth": "false", "tokenize": "13a", "lc": "false"},
    _torchmetrics_sacrebleu,
    takes="text",
    text_rule=(
        "functional/text/sacre_bleu.py:153-155,168 sacrebleu's tokenizer, then `lower()` if "
        "`lowercase`, then `split()`"
    ),
)

COCO = "pycocoevalcap 1.2 pycocoevalcap/bleu/bleu_scorer.py"


def _coco(params: Params) -> Profile:
    return Profile(
        "coco",
        "pycocoevalcap",
        "1.2",
        "pycocoevalcap Bleu_4: (m + 1e-15) / (l + 1e-9) at every order and a BP from the same constants",
        {
            "smoothing": "coco",
            "undefined_precision": "smoothed",
            "brevity_penalty": "coco",
            "empty_corpus": "zero",
            "arithmetic": "binary64",
        },
        (
            f"{COCO}:27 `s.split()` (split=unicode; captions are usually PTB-tokenized first)",
            "pycocoevalcap 1.2 pycocoevalcap/bleu/bleu.py:40 `compute_score(option='closest')`; "
            f"{COCO}:189 closest, ties to the shorter (spec EC-001 said average: corrected)",
            f"{COCO}:201-202,251-253 tiny = 1e-15 added to m_n, small = 1e-9 to l_n,"
            " every order (SMOOTH-COCO)",
            f"{COCO}:254-257 ratio = (c + tiny) / (r + small); BP = exp(1 - 1/ratio) when ratio < 1 (EC-017)",
            f"{COCO}:213-229 totals over no segment are 0: an empty corpus scores 0 (empty_corpus=zero, "
            "observed); a segment without references fails `assert(len(ref) >= 1)` (AssertionError)",
        ),
        raises={"EC-006": "AssertionError"},
    )


IGNITE = "pytorch-ignite 0.5.5 ignite/metrics/nlp/bleu.py"
_IGNITE_SMOOTHING = {
    "no_smooth": "none",
    "smooth1": "chen-cherry-1",
    "nltk_smooth2": "chen-cherry-2",
    "smooth2": "chen-cherry-2",
}


def _ignite(params: Params) -> Profile:
    smooth, average = params["smooth"], params["average"]
    options: dict[str, Any] = {
        "smoothing": _IGNITE_SMOOTHING[smooth],
        "early_return": "any-zero" if smooth == "no_smooth" else "no-unigram-match",
        "aggregation": average,
        "arithmetic": "binary64",
    }
    if smooth == "smooth2":
        options["undefined_precision"] = "one"  # (0 + 1) / (0 + 1) on the raw l_n
    else:
        options["denominator"] = "max1-total"
    if average == "micro":
        options["empty_corpus"] = "zero"  # :197 no unigram matched: 0, before anything else
    if smooth == "no_smooth" and average == "macro":
        # A sentence's counts are float32 tensors (torch.zeros), and no_smooth divides by them.
        options["arithmetic"] = "binary32-precisions"
    return Profile(
        _named("ignite", params, _IGNITE_FAMILY.defaults),
        "pytorch-ignite",
        "0.5.5",
        "ignite.metrics.nlp.Bleu: macro average of sentence BLEU by default, nltk-like denominators",
        options,
        (
            f"{IGNITE}:140 `average` defaults to 'macro'"
            " (each update's sentences scored alone, then averaged)",
            f"{IGNITE}:197 `if p_numerators[1] == 0: return 0`; :201 no_smooth returns 0 when any order is 0",
            f"{IGNITE}:40,45,61 max(1, d) on the (summed) denominators (denominator=max1-total); "
            "smooth2 (:54-56) keeps the raw d, so 0/0 becomes (0 + 1) / (0 + 1)",
            f"{IGNITE}:39-41 smooth1: epsilon / d where m = 0 (SMOOTH-CC1)"
            "; :54-56 (m + 1) / (d + 1) for n >= 2",
            f"{IGNITE}:17 closest reference length, ties to the shorter",
            f"{IGNITE}:206 BP 0 when c = 0",
            f"{IGNITE}:222-223 a sentence's counts are `torch.zeros` (float32); :61-62 no_smooth divides "
            "`n.item() / d` by the float32 tensor d (arithmetic=binary32-precisions)",
            f"{IGNITE}:244-245 micro counts are float64 tensors",
            f"{IGNITE}:267-268 macro: no sentence raises NotComputableError; micro: an empty corpus has no "
            "unigram match and scores 0 (empty_corpus=zero); no reference: ValueError from min() (observed)",
        ),
        raises={
            "EC-006": "ValueError",
            **({"EC-012": "NotComputableError"} if average == "macro" else {}),
        },
    )


_IGNITE_FAMILY = Family(
    "ignite",
    {"smooth": tuple(_IGNITE_SMOOTHING), "average": ("macro", "micro")},
    {"smooth": "no_smooth", "average": "macro"},
    _ignite,
    takes="tokens (the caller's lists)",
    text_rule="ignite.metrics.nlp.Bleu takes token lists",
)

FAST_BLEU = "fast-bleu 0.0.90 fast_bleu/cpp_sources/sources/nltk.cpp"


def _fast_bleu(params: Params) -> Profile:
    smoothing = params["smoothing"]
    options: dict[str, Any] = {
        "denominator": "max1-segment",
        "early_return": "no-unigram-match",
        "aggregation": "macro",
        "arithmetic": "binary64",
        # No reference: nothing matches, so :128 returns 0 (after :80 read the minimum of an
        # empty array, undefined behaviour that the early return hides): one empty reference.
        "no_reference": "empty",
    }
    if smoothing == "0":
        # log(numeric_limits<long double>::min()): 2^-16382 on x86-64's 80-bit long double.
        options.update(zero_precision="sentinel", zero_value=Fraction(1, 2**16382))
    else:
        options.update(smoothing="chen-cherry-1", zero_precision="skip")
    return Profile(
        _named("fast-bleu", params, _FAST_BLEU_FAMILY.defaults),
        "fast-bleu",
        "0.0.90",
        "fast-bleu (C++) BLEU: nltk's sentence_bleu per hypothesis, log 0 as log(LDBL_MIN)",
        options,
        (
            f"{FAST_BLEU}:66 `denominator = max(1, denominator)`; :128 `if (p_n[0].numerator == 0) return 0`",
            f"{FAST_BLEU}:36-39,138-139 smoothing 0: a zero precision's log is "
            "log(numeric_limits<long double>::min())",
            f"{FAST_BLEU}:43-50 smoothing 1: epsilon / denominator (SMOOTH-CC1); :86-93 BP as nltk",
            "fast-bleu 0.0.90 sources/bleu.cpp:161-190 every hypothesis is one sentence scored alone",
            f"{FAST_BLEU}:75-84 the closest length over the references, :128 0 when nothing matches: "
            "a hypothesis without references scores 0 (observed; no_reference=empty)",
            "fast-bleu 0.0.90 fast_bleu/__python_wrapper__.py:71 `smoothing_func: int = 1` (the default)",
        ),
        level="sentence",
    )


_FAST_BLEU_FAMILY = Family(
    "fast-bleu",
    {"smoothing": ("0", "1")},
    {"smoothing": "1"},
    _fast_bleu,
    takes="tokens (the caller's lists)",
    text_rule="fast-bleu's `BLEU` takes token lists",
)


# --- the registry ---------------------------------------------------------------------------------

PROFILES: dict[str, Family] = {
    f.name: f
    for f in (
        Family(
            "paper",
            {},
            {},
            _paper,
            takes="tokens (the caller's lists)",
            text_rule=(
                "Papineni et al. 2002: the caller tokenizes (EC-010); the command line splits "
                "each line on whitespace"
            ),
        ),
        _SACREBLEU_FAMILY,
        _SACREBLEU_SENTENCE_FAMILY,
        Family(
            "sacrebleu-1.5",
            _SACREBLEU_PARAMS,
            _SACREBLEU_FAMILY.defaults,
            _sacrebleu_15,
            numeric=("value",),
            takes="text",
            text_rule="as sacrebleu",
        ),
        _NLTK_FAMILY,
        Family(
            "nltk-sentence",
            _NLTK_FAMILY.parameters,
            _NLTK_FAMILY.defaults,
            _nltk_sentence,
            takes="tokens (the caller's lists)",
            text_rule="as nltk",
        ),
        Family("nltk-3.2", {}, {}, _nltk_32, takes="tokens (the caller's lists)", text_rule="as nltk"),
        _MTEVAL_FAMILY,
        _MTEVAL_14_FAMILY,
        _MULTI_BLEU_FAMILY,
        _NMT_FAMILY,
        _TORCHMETRICS_FAMILY,
        _TORCHMETRICS_SACREBLEU_FAMILY,
        _BLEUSCORE_FAMILY,
        Family(
            "coco",
            {},
            {},
            _coco,
            takes="text",
            text_rule=(
                "pycocoevalcap/bleu/bleu_scorer.py:27 `s.split()`; captions are usually "
                "PTB-tokenized by the caller first (the COCO pipeline's `PTBTokenizer`, not "
                "part of `Bleu`)"
            ),
        ),
        _IGNITE_FAMILY,
        _FAST_BLEU_FAMILY,
    )
}

_NAME = re.compile(r"^([a-z0-9][a-z0-9.\-]*)(?:\[(.*)\])?$")


def _named(family: str, params: Params, defaults: Params) -> str:
    """``family[k=v,...]`` listing the parameters that differ from the defaults, in a fixed order."""
    shown = [f"{k}={params[k]}" for k in sorted(params) if params[k] != defaults.get(k)]
    return f"{family}[{','.join(shown)}]" if shown else family


def resolve(name: str) -> Profile:
    """CONV-PROFILES. The profile called ``name``, e.g. ``nltk``, ``nltk[method=4]``.

    >>> resolve("nltk[method=4]").options["smoothing"]
    'nltk-4'
    >>> resolve("sacrebleu").tokenize
    '13a'
    """
    if not isinstance(name, str):
        raise BleuOptionError("CONV-PROFILES", f"a profile is named by a string, got {type(name).__name__}")
    match = _NAME.match(name.strip())
    if not match or match.group(1) not in PROFILES:
        raise BleuOptionError("CONV-PROFILES", f"unknown profile {name!r}; known: {', '.join(PROFILES)}")
    params: dict[str, str] = {}
    for item in filter(None, (match.group(2) or "").split(",")):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise BleuOptionError("CONV-PROFILES", f"profile parameter {item!r} is not key=value")
        params[key.strip()] = value.strip()
    return PROFILES[match.group(1)](params)


def profile_options(profile: Profile, overrides: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """The profile's options with ``overrides`` applied; also the names of the options overridden."""
    changed = tuple(sorted(k for k in overrides if profile.options.get(k, _MISSING) != overrides[k]))
    return {**profile.options, **overrides}, changed


_MISSING = object()


def option_axes(options: Mapping[str, Any]) -> dict[str, str]:
    """The value on every axis of the registry but the text's (spec CONV-SPACE) at the point
    ``options``, as short strings; the options are validated (a BleuOptionError if refused)."""
    validated = make_options(**options)
    return shown_values({name: getattr(validated, name) for name in OPTION_FIELDS}, NOT_TEXT)


#: The spec entry that defines each axis of :func:`axis_values` (spec CONV-SPACE): the level's, then
#: the registry's.
AXIS_ENTRIES = {"level": "EC-009", **{name: axis.field.spec_id for name, axis in AXES.items()}}


def paper_differences(profile: Profile) -> list[tuple[str, str, str]]:
    """Every axis where ``profile`` is not the paper: (axis, the profile's value, spec entry)."""
    paper = axis_values(resolve("paper"))
    return [
        (axis, value, AXIS_ENTRIES[axis])
        for axis, value in axis_values(profile).items()
        if value != paper[axis]
    ]


def axis_values(profile: Profile) -> dict[str, str]:
    """The profile's value on every axis of CONV-SPACE (text axes and level too), defaults filled in."""
    text = shown_values(profile.text, ("text",))
    return {"level": profile.level, **text, **option_axes(profile.options)}


def profile_table(profiles: list[Profile], width: int = 100) -> str:
    """Every profile, one entry each within ``width`` columns: ``paper``'s value on every axis, then
    each other profile's tool and the axes where it differs from ``paper`` (``axis=value``)."""

    paper = axis_values(resolve("paper"))
    lines = []
    for profile in profiles:
        values = axis_values(profile)
        shown = [f"{k}={v}" for k, v in values.items() if profile.name == "paper" or v != paper[k]]
        head = f"{profile.name} ({profile.tool} {profile.version}):"
        body = " ".join(shown) if shown else "as paper"
        lines += textwrap.wrap(
            f"{head} {body}", width, subsequent_indent="    ", break_on_hyphens=False, break_long_words=False
        )
    params = [
        f"{name}[{','.join([*f.parameters, *f.numeric])}]"
        for name, f in PROFILES.items()
        if f.parameters or f.numeric
    ]
    lines += ["", *textwrap.wrap("parameters: " + "; ".join(params), width, subsequent_indent="    ")]
    return "\n".join(lines)


def describe_profile(profile: Profile) -> str:
    """One profile: what it is, its value on every axis, and the evidence for them."""
    lines = [f"{profile.name}: {profile.tool} {profile.version}", f"  {profile.summary}", "  axes:"]
    lines += [f"    {k}: {v}" for k, v in axis_values(profile).items()]
    lines.append("  evidence:")
    lines += [f"    - {e}" for e in profile.evidence]
    if profile.raises:
        lines.append("  raises: " + ", ".join(f"{k} -> {v}" for k, v in profile.raises.items()))
    return "\n".join(lines)
