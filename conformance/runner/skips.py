"""What a target skipped, by class of question (spec CONF-ROBUST, coverage: skips are evidence).

A target may answer ``skipped`` to any question. Skipping the hard ones (many segments, long
segments, many references, long or non-ASCII tokens) and answering the rest right must not make
it conformant: the runner keeps the shape of every question the target answered and of every one
it skipped, and names the class of what it skipped as thresholds beyond the shapes it answered
("more than 4 segments", "a hypothesis of more than 10 tokens"). Questions it was never asked (a
level or a reference count it declares it lacks, questions past ``--time-limit``) are not skips.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: The features of a question's shape, in the order of :class:`Shape`, each with the words that
#: name "above" and "below" it (``{t}``: the threshold, the most or least the target answered).
FEATURES: tuple[tuple[str, str, str], ...] = (
    ("segments", "more than {t} segments", "fewer than {t} segments"),
    (
        "longest hypothesis",
        "a hypothesis of more than {t} tokens",
        "every hypothesis shorter than {t} tokens",
    ),
    ("longest reference", "a reference of more than {t} tokens", "every reference shorter than {t} tokens"),
    (
        "hypothesis tokens",
        "more than {t} hypothesis tokens in all",
        "fewer than {t} hypothesis tokens in all",
    ),
    ("references", "more than {t} references for a segment", "fewer than {t} references for every segment"),
    ("longest token", "a token of more than {t} characters", "every token shorter than {t} characters"),
    ("non-ASCII", "a non-ASCII token", "no non-ASCII token"),
    ("empty hypothesis", "an empty hypothesis", "no empty hypothesis"),
    ("empty reference", "an empty reference", "no empty reference"),
)

Shape = tuple[int, ...]


def _tokens(sentence: Sequence[str] | str) -> Sequence[str]:
    return sentence.split() if isinstance(sentence, str) else sentence


def shape(hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[Sequence[str]]]) -> Shape:
    """CONF-ROBUST. The features of one question, in the order of :data:`FEATURES`.

    >>> shape([["a", "bb"], []], [[["a"]], [["é"], []]])
    (2, 2, 1, 2, 2, 2, 1, 1, 1)
    """
    hypotheses = [_tokens(h) for h in hypotheses]  # a line of text (CONF-OPEN): its words
    references = [[_tokens(r) for r in rs] for rs in references]
    tokens = [t for h in hypotheses for t in h] + [t for rs in references for r in rs for t in r]
    return (
        len(hypotheses),
        max((len(h) for h in hypotheses), default=0),
        max((len(r) for rs in references for r in rs), default=0),
        sum(len(h) for h in hypotheses),
        max((len(rs) for rs in references), default=0),
        max((len(t) for t in tokens), default=0),
        int(not all(t.isascii() for t in tokens)),
        int(any(not h for h in hypotheses)),
        int(any(not r for rs in references for r in rs)),
    )


@dataclass
class SkipRecord:
    """The shapes a target answered (their least and most, per feature) and the shapes it skipped."""

    least: list[int] = field(default_factory=list)
    most: list[int] = field(default_factory=list)
    skipped: list[Shape] = field(default_factory=list)
    answered: int = 0

    def answer(self, hypotheses: Any, references: Any) -> None:
        """A question the target answered (a score or an error)."""
        seen = shape(hypotheses, references)
        self.answered += 1
        if not self.most:
            self.least, self.most = list(seen), list(seen)
            return
        self.least = [min(a, b) for a, b in zip(self.least, seen, strict=True)]
        self.most = [max(a, b) for a, b in zip(self.most, seen, strict=True)]

    def skip(self, hypotheses: Any, references: Any) -> None:
        """A question the target answered ``skipped``."""
        self.skipped.append(shape(hypotheses, references))

    def classes(self) -> tuple[tuple[str, ...], int]:
        """CONF-ROBUST. The class of the skipped questions, as few thresholds beyond the shapes the
        target answered as cover them all (greedy: the threshold covering most first), and how many
        skipped questions no threshold covers (within every shape it answered).

        >>> record = SkipRecord()
        >>> record.answer([["a"]] * 4, [[["a"]]] * 4)
        >>> record.answer([["a"] * 10], [[["a"]]])
        >>> record.skip([["a"]] * 5, [[["a"]]] * 5)
        >>> record.skip([["a"] * 11], [[["a"]]])
        >>> record.classes()
        (('more than 4 segments', 'a hypothesis of more than 10 tokens'), 0)
        """
        if not self.skipped:
            return (), 0
        if not self.most:
            return ("every question it was asked",), 0
        tests = [(k, 0) for k in range(len(FEATURES))] + [(k, 1) for k in range(len(FEATURES))]

        def beyond(test: tuple[int, int], question: Shape) -> bool:
            k, below = test
            return question[k] < self.least[k] if below else question[k] > self.most[k]

        open_ = list(self.skipped)
        names: list[str] = []
        while open_:
            best = max(tests, key=lambda test: sum(beyond(test, q) for q in open_))
            if not any(beyond(best, q) for q in open_):
                break
            k, below = best
            names.append(FEATURES[k][1 + below].format(t=self.least[k] if below else self.most[k]))
            open_ = [q for q in open_ if not beyond(best, q)]
            tests.remove(best)
        return tuple(names), len(open_)

    def described(self) -> str:
        """The skipped questions in words: how many, and their class (spec CONF-ROBUST).

        >>> record = SkipRecord()
        >>> record.answer([["a"]] * 4, [[["a"]]] * 4)
        >>> record.answer([["a"]], [[["a"]]])
        >>> record.skip([["a"]] * 5, [[["a"]]] * 5)
        >>> record.skip([["a"]], [[["b"]]])
        >>> record.described()
        'skipped 2 question(s): each with more than 4 segments, but for 1 within the shapes it answered'
        """
        names, rest = self.classes()
        if not names:
            return f"skipped {len(self.skipped)} question(s), all within the shapes it answered"
        words = f"skipped {len(self.skipped)} question(s): each with {' or '.join(names)}"
        return words + (f", but for {rest} within the shapes it answered" if rest else "")
