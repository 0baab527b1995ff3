"""What every point of the fingerprint is made of (spec CONF-FINGERPRINT): diagnostics, conventions,
points and findings; the reference's predictions and the search over the registry; asking a
target and matching.

The points themselves are in the modules beside this one, one module per group of axes.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.peers.targets import Outcome
from conformance.runner.client import (
    ProtocolTarget,
    TargetFaultError,
    TargetSkippedError,
)
from conformance.suite.resolution import Resolution
from reference_bleu.api import corpus_bleu, estimated_bleu, split_text_options
from reference_bleu.conventions.options import BleuOptions, make_options
from reference_bleu.conventions.registry import AXES, Axis
from reference_bleu.errors import BleuError
from reference_bleu.text.tokenizers import tokenize_line

Corpus = tuple[list[list[str]], list[list[list[str]]]]
Answer = float | str  # a score on [0, 1] (or raw, for the scale), "error", "skipped", or "fault:<kind>"

#: The answer to a question the target declined (a ``skipped`` result, or a level it does not
#: declare): no evidence either way, never read as an error (spec CONF-VERDICT).
SKIPPED = "skipped"
Config = dict[str, Any]

#: Relative tolerance when matching an answer to a prediction (far below the gaps between
#: conventions on the diagnostics, which tests show exceed BINARY32_TOLERANCE; far above
#: binary64 rounding).
MATCH_TOLERANCE = 1e-9
#: The same for a target that computes in binary32 (a tensor library's default dtype): its
#: logs, sums and exponentials each round to 2^-24, and a score is off by up to some 1e-6.
BINARY32_TOLERANCE = 1e-5


def words(text: str) -> list[str]:
    """Tokens of a diagnostic written as a string."""
    return text.split()


def alphabet(n: int, start: int = 0) -> list[str]:
    return [f"w{k}" for k in range(start, start + n)]


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic input: a name for reports and the corpus."""

    name: str
    corpus: Corpus
    #: The axis of CONV-SPACE this diagnostic tells apart, where a report names it (FP-TEXT's
    #: ``tokenize``, ``case``, ``split``): a target no convention explains is told which.
    probes: str = ""


@dataclass(frozen=True)
class Convention:
    """A named way to settle a point: what it predicts, and what it sets in the reference's options."""

    name: str
    predict: Callable[[Config, Corpus], Answer]
    options: Config = field(default_factory=dict)
    divergence: tuple[str, ...] = ()  # registered divergences this convention is (not a spec choice)
    spec: str = ""  # the spec section naming it
    flags: frozenset[str] = frozenset()  # e.g. "binary32", "percent", "tokenize:13a": read by the judge
    tolerance: float = MATCH_TOLERANCE  # how close an answer must be to the prediction
    #: How many of its point's axes leave the paper's value (a point searched over the registry):
    #: settling stops at the first rank some convention of which predicts every answer.
    rank: int = 0


@dataclass(frozen=True)
class Point:
    """An open point of the spec, its diagnostics and its known conventions (preferred first)."""

    id: str
    ec: tuple[str, ...]
    question: str
    diagnostics: tuple[Diagnostic, ...]
    conventions: Callable[[Config], tuple[Convention, ...]]
    level: str = "corpus"
    #: The axes of the convention space (spec CONV-SPACE) this point observes: a report shows a
    #: placed target's values on them. Each is an axis of the registry.
    axes: tuple[str, ...] = ()
    #: The input kind (``text`` or ``tokens``) whose targets are asked this point; "" for every target.
    input: str = ""
    #: The verdict's text axes (``tokenize``, ``lowercase``, ``split``: spec CONF-VERDICT) this point
    #: observes. They are placed by this point's finding, never by the battery, whose candidates
    #: score tokens.
    text_axes: tuple[str, ...] = ()
    #: Asked before the scale is known, its answers as the target prints them: its convention sets
    #: the scale every later answer is read on, and the rounding is read right after it. Never
    #: settled again, never seen through a text target's tokenizer (FP-SCALE).
    raw: bool = False
    #: Its diagnostics are the verdict's battery (CONF-VERDICT) and are asked again late (CONF-SIZE):
    #: not those of a point asked otherwise than every other (raw answers; a text target's lines).
    battery: bool = True
    #: The diagnostics (by name) whose answers are read only once every point is settled: the
    #: conventions found later change them (FP-PRECISION's precisions probe, under a smoothing).
    settled_last: tuple[str, ...] = ()
    #: Conventions solved from the answers when no listed one predicts them (FP-ZERO's smoothing
    #: parameters): (answers, config, point, tolerance, resolution) -> the conventions found.
    solve: Callable[[Sequence[Answer], Config, Point, float, Resolution], Sequence[Convention]] | None = None

    def __post_init__(self) -> None:
        unknown = [axis for axis in (*self.axes, *self.text_axes) if axis not in AXES]
        if unknown:
            raise TypeError(f"{self.id} observes {unknown}: not axes of reference_bleu.conventions.registry")


@dataclass(frozen=True)
class Finding:
    """What the target does on one point: the matching conventions and the evidence."""

    point: Point
    matched: tuple[Convention, ...]
    answers: tuple[Answer, ...]
    predictions: tuple[tuple[str, tuple[Answer, ...]], ...]
    #: Diagnostics the target answered ``skipped`` although it never declared it cannot take them
    #: (a level or a reference count it declares): missing evidence, judged by coverage (CONF-JUDGE).
    declined: int = 0
    #: Diagnostics not asked because a run limit was spent (``--time-limit``, ``--max-restarts``):
    #: missing evidence, never read as a behaviour (CONF-ROBUST).
    unasked: int = 0

    @property
    def convention(self) -> Convention | None:
        """The preferred matching convention, or None."""
        return self.matched[0] if self.matched else None

    @property
    def asked(self) -> bool:
        """Whether the target answered any diagnostic (a target without a corpus entry point
        skips the corpus-only ones, and a point may be left with none)."""
        return any(answer != SKIPPED for answer in self.answers)

    @property
    def faults(self) -> tuple[str, ...]:
        """The kinds of fault the target answered with (``protocol``, ``out-of-range``...): answers
        that are no behaviour to match, judged by the robustness checks (CONF-ROBUST), never read
        as a convention nobody knows."""
        faults = (a for a in self.answers if isinstance(a, str) and a.startswith("fault:"))
        return tuple(dict.fromkeys(a.removeprefix("fault:") for a in faults))

    @property
    def status(self) -> str:
        """``spec`` (a spec convention), ``divergence`` (a known way to fall short, EC-013's binary32),
        ``unknown``, or ``unasked`` (every diagnostic skipped)."""
        if not self.asked:
            return "unasked"
        if self.convention is None:
            return "unknown"
        return "divergence" if self.convention.divergence else "spec"

    def evidence(self) -> list[dict[str, Any]]:
        """Each diagnostic with the target's answer and every convention's prediction."""
        rows = []
        for k, diagnostic in enumerate(self.point.diagnostics):
            rows.append(
                {
                    "diagnostic": diagnostic.name,
                    "hypotheses": diagnostic.corpus[0],
                    "references": diagnostic.corpus[1],
                    "answer": show_answer(self.answers[k]),
                    "predictions": {name: show_answer(values[k]) for name, values in self.predictions},
                }
            )
        return rows


def show_answer(answer: Answer) -> Answer:
    return answer if isinstance(answer, str) else float(f"{answer:.15g}")


# --- predictions -----------------------------------------------------------------------------


#: A text target's tokenizer, case folding and whitespace split rule (FP-TEXT), or None for a
#: token target.
Text = tuple[str, str, str] | None


def retokenized(corpus: Corpus, tokenize: str, lowercase: str, split: str = "unicode") -> Corpus:
    """The corpus as a text target sees it: each token list joined with spaces, then tokenized and
    split (TOK-SPLIT-RULE)."""
    hypotheses, references = corpus

    def again(tokens: Sequence[str]) -> list[str]:
        return tokenize_line(" ".join(tokens), tokenize, lowercase, split)

    return [again(h) for h in hypotheses], [[again(r) for r in rs] for rs in references]


def seen(corpus: Corpus, text: Text) -> Corpus:
    """``corpus`` as the target sees it once FP-TEXT has found its ``text`` conventions.

    A text target is sent each token list joined with spaces; a tokenizer that splits words
    (``char``) or a case folding makes other tokens of them. The runner asks and predicts on
    those tokens: joined and tokenized again they are the same (every tokenizer and folding
    is idempotent), so the target's answer is unchanged and the prediction is of what it saw.
    """
    if text is None or text == ("none", "none", "unicode"):
        return corpus
    return retokenized(corpus, *text)


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def options_key(options: Mapping[str, Any]) -> Any:
    """What identifies a point's options, hashable (a weights list becomes a tuple)."""
    return _frozen(options)


@functools.lru_cache(maxsize=32768)
def _validated(key: Any) -> BleuOptions:
    """The options ``key`` spells, validated once (make_options costs more than a small corpus's score)."""
    return make_options(**dict(key))


def reference_prediction(config: Mapping[str, Any], corpus: Corpus, **overrides: Any) -> Answer:
    """The reference's score under ``config`` updated by ``overrides``, or "error" where it refuses.

    Estimated (:func:`reference_bleu.api.estimated_bleu`: the formula evaluated once, within an ulp
    of ``corpus_bleu``'s correctly rounded score, with the same statistics and errors): answers are
    compared to 1e-9, and a run predicts thousands of them."""
    options = {**config, **overrides}
    try:
        if split_text_options(options)[0]:  # text conventions: corpus_bleu's own checks apply
            return corpus_bleu(*corpus, **options).score
        return estimated_bleu(_validated(options_key(options)), *corpus)
    except BleuError:
        return "error"


def by_reference(name: str, spec: str, flags: frozenset[str] = frozenset(), **options: Any) -> Convention:
    return Convention(
        name, lambda config, corpus: reference_prediction(config, corpus, **options), options, (), spec, flags
    )


def registry_points(axes: Sequence[str], config: Config) -> list[tuple[int, Config]]:
    """CONF-FINGERPRINT, the search over the registry: every combination of the values of ``axes``
    (each axis's assignments, spec CONV-SPACE) that the reference accepts beside ``config``, with how
    many axes it takes off the paper's value; fewest first, then in the registry's order."""
    found = []
    for combination in itertools.product(*(list(AXES[axis].assignments()) for axis in axes)):
        assignment: Config = {}
        for values in combination:
            assignment.update(values)
        try:
            _validated(options_key({**config, **assignment}))
        except BleuError:
            continue
        found.append((len(_moved(axes, assignment)), assignment))
    return sorted(found, key=lambda ranked: ranked[0])


def _moved(axes: Sequence[str], assignment: Mapping[str, Any]) -> list[Axis]:
    """The axes among ``axes`` on which ``assignment`` leaves the paper's value (on any of their fields)."""
    return [
        AXES[a]
        for a in axes
        if any(assignment[f.name] != f.paper for f in (AXES[a].field, *AXES[a].refinements))
    ]


def registry_name(axes: Sequence[str], assignment: Mapping[str, Any]) -> str:
    """A registry point as a report names it: ``axis=value`` for each axis off the paper's value (with
    the value's meaning when it is the only one), or the first axis's paper value with its meaning."""
    named = _moved(axes, assignment) or [AXES[axes[0]]]
    shown = [f"{axis.name}={axis.shown(assignment)}" for axis in named]
    if len(shown) > 1:
        return ", ".join(shown)
    meaning = named[0].field.values.get(str(assignment[named[0].name]), "")
    return shown[0] + (f": {meaning}" if meaning else "")


def registry_conventions(axes: tuple[str, ...], config: Config) -> tuple[Convention, ...]:
    """The conventions of a point searched over the registry (CONF-FINGERPRINT): every registry point
    on ``axes`` (:func:`registry_points`), each predicted by the reference with the axes' fields set
    (the paper's values too: they replace any found before), ranked by the axes it moves and citing
    the spec entry of the first it moves."""
    return _registry_conventions(axes, options_key(config))


@functools.lru_cache(maxsize=256)
def _registry_conventions(axes: tuple[str, ...], key: Any) -> tuple[Convention, ...]:
    found = []
    for rank, assignment in registry_points(axes, dict(key)):
        found.append(
            Convention(
                registry_name(axes, assignment),
                functools.partial(_predicted, assignment),
                {k: v for k, v in assignment.items() if v is not None},
                spec=(_moved(axes, assignment) or [AXES[axes[0]]])[0].field.spec_id,
                rank=rank,
            )
        )
    return tuple(found)


def _predicted(assignment: Config, config: Config, corpus: Corpus) -> Answer:
    return _remembered(options_key({**config, **assignment}), _frozen(corpus))


@functools.lru_cache(maxsize=65536)
def _remembered(options: Any, corpus: Any) -> Answer:
    """A registry point's prediction on a diagnostic, computed once a process: a search predicts
    hundreds of points on the same few diagnostics for every target."""
    hypotheses, references = corpus
    return reference_prediction(
        dict(options), ([list(h) for h in hypotheses], [[list(r) for r in rs] for rs in references])
    )


def ask(
    target: ProtocolTarget,
    corpus: Corpus,
    raw: bool = False,
    level: str | None = None,
    context: str | None = None,
) -> Answer:
    """The target's answer: its score, "error", SKIPPED, or "fault:<kind>".

    ``level`` None asks a corpus question at the corpus level; a target that declares no corpus
    entry point is asked a one-segment corpus at the sentence level (the same BLEU), and a longer
    one is not asked (SKIPPED). ``context``: a Python target called in a worker thread or a forked
    child (CONF-OPEN).
    """
    if level is None:
        level = "corpus"
        if "corpus" not in target.capabilities.levels:
            if len(corpus[0]) != 1:
                return SKIPPED
            level = "sentence"
    reply = reply_of(target, level, corpus, raw, context)
    return reply.score if isinstance(reply, Outcome) else reply


#: A target's whole answer to one question: its outcome (score and any statistics), or "error",
#: SKIPPED, "fault:<kind>".
Reply = Outcome | str


def reply_of(
    target: ProtocolTarget, level: str, corpus: Corpus, raw: bool = False, context: str | None = None
) -> Reply:
    """The target's whole answer to ``corpus`` at ``level``, statistics included when it sends them
    (what :func:`ask` reads the score of; the verdict compares statistics too, CONF-VERDICT)."""
    try:
        return target.score(level, corpus[0], corpus[1], raw=raw, context=context)
    except TargetSkippedError:
        return SKIPPED
    except TargetFaultError as fault:
        return "error" if fault.kind == "error" else f"fault:{fault.kind}"


def agrees(answer: Answer, prediction: Answer, tolerance: float, resolution: Resolution) -> bool:
    """An answer matches a prediction: the same error, or the same number within ``tolerance`` (and
    half a unit of the last decimal of the answers' ``resolution``), rounded as the prediction
    rounds when the target declared its digits (CONF-PROTOCOL). A skipped question is no evidence:
    it matches every prediction."""
    if answer == SKIPPED:
        return True
    if isinstance(answer, str) or isinstance(prediction, str):
        return answer == prediction
    return math.isclose(
        answer, prediction, rel_tol=tolerance, abs_tol=resolution.absolute_tolerance()
    ) and resolution.rounded_as_declared(answer, prediction, tolerance)
