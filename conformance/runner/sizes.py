"""Questions of real size and shape (spec CONF-SIZE): the shipped test sets, and corpora generated from
the seed with long segments, many references, long and non-ASCII tokens, and tokens that are pieces
of other tokens, over vocabularies drawn fresh from the seed (no fixed public token list).

The small generated inputs of the other checks never go past a dozen segments, a dozen tokens, four
references or seven public words; real implementations break beyond that (a batch size, a
fixed-width counter, truncation to a model's length, n-grams keyed by joined strings). One large
corpus asked once proves more than a hundred small ones, so each question here is asked once.
Sizes follow the budget (``--examples``): at the default 100 the test sets are asked whole.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from conformance.data import MULTEVAL, WMT17, TestSet, read_lines
from reference_bleu.text.tokenizers import split_whitespace, tokenizer

Corpus = tuple[list[list[str]], list[list[list[str]]]]

#: Segments of a shipped test set asked per example of the budget (all of them at the default 100).
REAL_SEGMENTS_PER_EXAMPLE = 40
#: Segments of the test set asked with eight references (its own and seven systems') per example.
MANY_REFERENCES_SEGMENTS_PER_EXAMPLE = 3
#: The most references a question gives a segment.
MANY_REFERENCES = 8
#: Letters of several scripts; a fresh vocabulary draws its alphabet from them. No whitespace, no
#: punctuation, no digits: every tokenizer of chapter 11 keeps such a token whole, except zh and
#: char, which the runner applies itself for a text target that uses them (CONF-FINGERPRINT).
SCRIPTS = (
    "abcdefghijklmnopqrstuvwxyz",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿß",
    "αβγδεζηθικλμνξοπρστυφχψω",
    "абвгдежзийклмнопрстуфхцчшщыэюя",
    "的一是不了人我在有他这为之大来以个中上们",
    "가나다라마바사아자차카타파하",
)


@dataclass(frozen=True)
class Question:
    """One question of real size: what it stresses, in words, and its corpus."""

    name: str
    corpus: Corpus


def questions(seed: int, examples: int) -> tuple[list[Question], list[Question]]:
    """CONF-SIZE. The questions of real size for a budget: the shipped test sets, and generated ones."""
    return real_questions(seed, examples), generated_questions(seed, examples)


# --- the shipped test sets --------------------------------------------------------------------


@cache
def _tokenized(test_set: TestSet, name: str, lines: int) -> tuple[tuple[str, ...], ...]:
    """The first ``lines`` lines of one file of a test set, each tokenized by 13a (a fixed point of
    every tokenizer a token target may apply inside: 13a again, or splitting on whitespace)."""
    tokenize = tokenizer("13a")
    return tuple(tuple(split_whitespace(tokenize(line))) for line in read_lines(test_set, name)[:lines])


def _real(test_set: TestSet, system: str, references: list[str], segments: int, name: str) -> Question:
    hypotheses = _tokenized(test_set, system, segments)
    sources = [_tokenized(test_set, file, segments) for file in references]
    hyps: list[list[str]] = []
    refs: list[list[list[str]]] = []
    for k, hypothesis in enumerate(hypotheses):
        segment = [source[k] for source in sources]
        if hypothesis and all(segment):  # empty lines are outside BLEU's domain: another check's
            hyps.append(list(hypothesis))
            refs.append([list(reference) for reference in segment])
    return Question(f"{name}: {len(hyps)} segments, {len(references)} reference(s)", (hyps, refs))


def real_questions(seed: int, examples: int) -> list[Question]:
    """CONF-SIZE. The shipped test sets (conformance.data), systems drawn from the seed: WMT17 and
    MultEval with their reference, and WMT17 with eight (its reference and seven other systems')."""
    rng = random.Random(seed)  # noqa: S311 -- reproducible test data, not a secret
    segments = REAL_SEGMENTS_PER_EXAMPLE * examples
    wmt = rng.choice(WMT17.systems)
    multeval = rng.choice(MULTEVAL.systems)
    others = rng.sample([s for s in WMT17.systems if s != wmt], MANY_REFERENCES - 1)
    few = MANY_REFERENCES_SEGMENTS_PER_EXAMPLE * examples
    return [
        _real(WMT17, wmt, ["ref.de"], segments, f"WMT17 newstest2017 en-de, {wmt}"),
        _real(MULTEVAL, multeval, ["ref.en"], segments, f"MultEval newstest2010, {multeval}"),
        _real(
            WMT17,
            wmt,
            ["ref.de", *others],
            few,
            f"WMT17 newstest2017 en-de, {wmt}, other systems as references",
        ),
    ]


# --- generated from the seed ------------------------------------------------------------------


def fresh_vocabulary(rng: random.Random, size: int, shortest: int, longest: int) -> list[str]:
    """``size`` distinct tokens of ``shortest`` to ``longest`` letters, over an alphabet of two or three
    scripts drawn from ``rng``: a vocabulary no target can know in advance."""
    alphabet = "".join(rng.sample(SCRIPTS, rng.randint(2, 3)))
    found: dict[str, None] = {}
    while len(found) < size:
        found["".join(rng.choices(alphabet, k=rng.randint(shortest, longest)))] = None
    return list(found)


def _resplit(rng: random.Random, tokens: list[str]) -> None:
    """Two neighbouring tokens cut again elsewhere ("ab" "c" -> "a" "bc"): the same characters, other
    n-grams, which n-grams keyed by joined strings would confuse."""
    places = [i for i in range(len(tokens) - 1) if len(tokens[i]) + len(tokens[i + 1]) >= 3]
    if not places:
        return
    i = rng.choice(places)
    joined = tokens[i] + tokens[i + 1]
    cut = rng.choice([c for c in range(1, len(joined)) if c != len(tokens[i])])
    tokens[i : i + 2] = [joined[:cut], joined[cut:]]


def _mutated(rng: random.Random, hypothesis: list[str], vocabulary: list[str], shape: Shape) -> list[str]:
    """A reference close to ``hypothesis``: at least one edit (drop, insert, replace, swap), up to the
    shape's share of its tokens, and the shape's number of re-cut pairs of neighbours."""
    out = list(hypothesis)
    for _ in range(max(1, round(len(out) * rng.uniform(*shape.edits)))):
        edit = rng.choice(("drop", "insert", "replace", "swap"))
        if edit == "insert" or not out:
            out.insert(rng.randint(0, len(out)), rng.choice(vocabulary))
        elif edit == "drop" and len(out) > 1:
            del out[rng.randrange(len(out))]
        elif edit == "replace":
            out[rng.randrange(len(out))] = rng.choice(vocabulary)
        else:
            i, j = rng.randrange(len(out)), rng.randrange(len(out))
            out[i], out[j] = out[j], out[i]
    for _ in range(shape.resplits):
        _resplit(rng, out)
    return out


@dataclass(frozen=True)
class Shape:
    """What a generated question looks like: segments, tokens per hypothesis, references per
    segment (inclusive ranges), its vocabulary (size, shortest and longest token), the share of a
    reference's tokens edited (a range) and its re-cut pairs."""

    name: str
    segments: int
    length: tuple[int, int]
    references: tuple[int, int]
    vocabulary: tuple[int, int, int]
    edits: tuple[float, float] = (0.0, 0.34)
    resplits: int = 0


def shapes(examples: int) -> list[Shape]:
    """CONF-SIZE. The generated questions' shapes for a budget, each stressing one dimension."""
    return [
        Shape("many segments", max(50, 10 * examples), (1, 12), (1, 4), (200, 1, 8)),
        Shape("long segments", max(2, examples // 20), (100, 400), (1, 4), (60, 1, 8)),
        Shape("eight references", max(10, examples // 5), (5, 20), (8, 8), (100, 1, 8), (0.3, 0.8)),
        Shape("long tokens", max(10, examples // 3), (3, 20), (1, 4), (80, 12, 40)),
        Shape("tokens cut apart", max(10, examples // 3), (5, 20), (1, 4), (40, 1, 4), resplits=3),
    ]


def generated_questions(seed: int, examples: int) -> list[Question]:
    """CONF-SIZE. One corpus per :func:`shapes`, each over a vocabulary drawn fresh from the seed; the
    references are edits of the hypothesis, so that n-grams of every order match."""
    rng = random.Random(seed + 0x5153)  # noqa: S311 -- reproducible test data, not a secret
    out = []
    for shape in shapes(examples):
        vocabulary = fresh_vocabulary(rng, *shape.vocabulary)
        hyps: list[list[str]] = []
        refs: list[list[list[str]]] = []
        for _ in range(shape.segments):
            hypothesis = [rng.choice(vocabulary) for _ in range(rng.randint(*shape.length))]
            count = rng.randint(*shape.references)
            hyps.append(hypothesis)
            refs.append([_mutated(rng, hypothesis, vocabulary, shape) for _ in range(count)])
        described = (
            f"{shape.name}: {shape.segments} segments of {shape.length[0]}-{shape.length[1]} tokens, "
            f"{shape.references[0]}-{shape.references[1]} references, tokens of "
            f"{shape.vocabulary[1]}-{shape.vocabulary[2]} letters drawn from the seed"
        )
        out.append(Question(described, (hyps, refs)))
    return out
