"""Hypothesis strategies for BLEU inputs, public so any project can reuse them (spec CONF-STRATEGIES).

Tokens come from a small vocabulary so n-grams actually overlap; references are made by
mutating the hypothesis (drop, insert, replace, swap), so matches of every order occur;
empty and very short segments and several equally long references appear often.
"""

from __future__ import annotations

import functools

from hypothesis import strategies as st

#: Seven words: enough for variety, few enough that 4-grams repeat.
VOCABULARY = ("the", "cat", "sat", "on", "a", "mat", "dog")
UNICODE_VOCABULARY = ("naïve", "Straße", "東京", "İ", "ﬁ", "e\u0301", "\u00e9")

Sentence = list[str]


def tokens(vocabulary: tuple[str, ...] = VOCABULARY) -> st.SearchStrategy[str]:
    """One token from ``vocabulary``."""
    return st.sampled_from(vocabulary)


# The strategies below draw bytes and read words and edits off them: one draw for a whole
# sentence where a draw per token cost hypothesis about five times as much (the runner draws
# thousands of corpora a run). Bytes shrink as lists do: shorter, then towards the first word.


def _words(data: bytes, vocabulary: tuple[str, ...]) -> Sentence:
    """The words ``data``'s bytes pick from ``vocabulary``, one each (byte 0: the first word)."""
    return [vocabulary[b % len(vocabulary)] for b in data]


@functools.cache  # one strategy object per shape: hypothesis validates each new one on its first draw
def sentences(
    min_size: int = 0, max_size: int = 12, vocabulary: tuple[str, ...] = VOCABULARY
) -> st.SearchStrategy[Sentence]:
    """A token list, often empty or shorter than 4 when ``min_size`` allows."""
    return st.binary(min_size=min_size, max_size=max_size).map(lambda data: _words(data, vocabulary))


#: The edits that make a reference from a hypothesis; each is spelled by three bytes (which
#: edit, where, which word or where to swap with), up to four edits.
EDITS = ("drop", "insert", "replace", "swap")
_EDIT_BYTES = 3
_EDITS = st.binary(max_size=4 * _EDIT_BYTES)


def _edited(sentence: Sentence, edits: bytes, vocabulary: tuple[str, ...]) -> Sentence:
    """``sentence`` after the edits ``edits`` spells (a trailing part of an edit spells none)."""
    out = list(sentence)
    for k in range(0, len(edits) - _EDIT_BYTES + 1, _EDIT_BYTES):
        which, at, other = edits[k : k + _EDIT_BYTES]
        edit = EDITS[which % len(EDITS)]
        if edit == "insert" or not out:
            out.insert(at % (len(out) + 1), vocabulary[other % len(vocabulary)])
        elif edit == "drop":
            del out[at % len(out)]
        elif edit == "replace":
            out[at % len(out)] = vocabulary[other % len(vocabulary)]
        else:
            i, j = at % len(out), other % len(out)
            out[i], out[j] = out[j], out[i]
    return out


@st.composite
def mutated(draw: st.DrawFn, sentence: Sentence, vocabulary: tuple[str, ...] = VOCABULARY) -> Sentence:
    """``sentence`` after up to four random edits (drop, insert, replace, swap): what a
    reference close to a hypothesis looks like."""
    return _edited(sentence, draw(_EDITS), vocabulary)


#: How each reference of a segment is made, one byte each: a mutation of the hypothesis (twice
#: as often), unrelated text, or a sentence as long as the first reference (ties, EC-001).
REFERENCE_KINDS = ("mutated", "mutated", "unrelated", "copy-length")


@functools.cache
def _reference_kinds(max_references: int) -> st.SearchStrategy[bytes]:
    return st.binary(min_size=1, max_size=max_references)


@st.composite
def segments(
    draw: st.DrawFn, max_references: int = 4, vocabulary: tuple[str, ...] = VOCABULARY
) -> tuple[Sentence, list[Sentence]]:
    """A hypothesis and 1..``max_references`` references: mutations, unrelated text, or copies."""
    hypothesis = draw(sentences(vocabulary=vocabulary))
    references: list[Sentence] = []
    for byte in draw(_reference_kinds(max_references)):
        kind = REFERENCE_KINDS[byte % len(REFERENCE_KINDS)]
        if kind == "unrelated":
            references.append(draw(sentences(vocabulary=vocabulary)))
        elif kind == "copy-length" and references:
            size = len(references[0])
            references.append(draw(sentences(size, size, vocabulary)))
        else:
            references.append(_edited(hypothesis, draw(_EDITS), vocabulary))
    return hypothesis, references


@st.composite
def corpora(
    draw: st.DrawFn, max_segments: int = 6, max_references: int = 4, vocabulary: tuple[str, ...] = VOCABULARY
) -> tuple[list[Sentence], list[list[Sentence]]]:
    """A corpus: (hypotheses, references), one reference list per hypothesis (spec CONF-STRATEGIES)."""
    pairs = draw(st.lists(segments(max_references, vocabulary), min_size=1, max_size=max_segments))
    return [h for h, _ in pairs], [r for _, r in pairs]


#: Pieces of text that exercise every rule of the tokenizers (spec 11): ASCII punctuation
#: and symbols, digits around "." "," "-", the SGML entities and <skipped> of 13a,
#: apostrophes, non-ASCII punctuation, symbols and numbers, letters whose lower case is
#: longer, combining marks, recently assigned symbols, and every kind of whitespace and
#: control character.
TEXT_PIECES = (
    *"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
    *"0123456789",
    "3.14",
    "1,000",
    "1990.",
    "1-2",
    "a-b",
    "U.S.",
    "isn't",
    "&quot;",
    "&amp;",
    "&lt;",
    "&gt;",
    "&apos;",
    "<skipped>",
    "-\n",
    "The",
    "word",
    "Straße",
    "İ",
    "ΣΑΣ",
    "ﬁ",
    "e\u0301",
    "«",
    "»",
    "—",
    "…",
    "€",
    "²",
    "½",
    "Ⅻ",
    "٣",
    "東京",
    "我们",
    "，",
    "“",
    ".5",
    # the edges of TOK-ZH's ranges, as sacrebleu's literals make them (U+2001..U+2A6D, U+2F81..U+2FA1)
    "\u2000",
    "\u2001",
    "\u2a6d",
    "\u2a6e",
    "\u2f80",
    "\u2fa1",
    "\u2fa2",
    "\U00020000",
    "。",
    "、",
    "\u00a0",
    "\u2009",
    "\u3000",
    "\u200b",
    "\u2028",
    "\u0085",
    "\x1c",
    "\x1f",
    "\t",
    "\r",
    "\x00",
    "\x7f",
    "\U0001fae8",  # symbols assigned in Unicode 15.0: unassigned to older databases
    "\U0001f6dc",
    " ",
    " ",
)


def texts(max_pieces: int = 12) -> st.SearchStrategy[str]:
    """A line of raw text made of :data:`TEXT_PIECES` and arbitrary characters (no surrogates)."""
    piece = st.one_of(st.sampled_from(TEXT_PIECES), st.characters(exclude_categories=["Cs"]))
    return st.lists(piece, max_size=max_pieces).map("".join)
