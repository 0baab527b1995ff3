"""What the target is expected to be: a profile, with values accepted beside it (spec CONF-VERDICT).

``--expect PROFILE`` (default ``paper``) names the expected point of the convention space and
``--accept AXIS=VALUE`` adds values acceptable beside the profile's own; the domain axes (what a
tool does where BLEU is undefined) are acceptable at every value unless ``--strict-domain``. A
:class:`Candidate` is a point of the space as the runner's search composes it: a name and the
reference's options there (a sparse assignment of the registry's fields), with its prediction.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from conformance.runner.fingerprint.base import (
    MATCH_TOLERANCE,
    Answer,
    Corpus,
    reference_prediction,
)
from reference_bleu.conventions.profiles import Profile, option_axes, resolve
from reference_bleu.conventions.registry import (
    AXES,
    BY_NAME,
    Axis,
    axes_in,
    axis_of,
    canonical,
)
from reference_bleu.errors import BleuError, BleuOptionError

#: The axes the battery observes on token input (spec CONF-VERDICT): the registry's score and domain
#: axes, each with the spec entry that defines it. N and the weights have no declared values: the
#: fingerprint solves them (FP-WEIGHTS) and the search keeps what it found.
OBSERVED: tuple[Axis, ...] = axes_in("score", "domain")
AXIS_SPEC = {axis.name: axis.field.spec_id for axis in OBSERVED}
#: The axes outside BLEU's domain (spec CONF-VERDICT): what a tool does where the paper defines
#: nothing (no reference, an empty candidate, c = 0 or r = 0, an empty corpus), with every value.
#: Every value is acceptable under every expectation (but those of INSIDE_DOMAIN) unless
#: ``--strict-domain`` pins them.
DOMAIN_AXES: dict[str, tuple[str, ...]] = {a.name: tuple(a.field.values) for a in axes_in("domain")}
#: The values of the domain axes that change BLEU where the paper defines it (a dropped empty
#: candidate): never acceptable by default, a variant named on its axis.
INSIDE_DOMAIN: dict[str, tuple[str, ...]] = {a.name: a.field.inside_domain for a in axes_in("domain")}
#: The text axes a text target is judged on (FP-TEXT): the tokenizer and the case folding.
TEXT_AXES = {name: AXES[name] for name in ("tokenize", "lowercase", "split")}


def _assignment_of(field: str, value: str) -> dict[str, Any]:
    """``--accept FIELD=VALUE`` for a field (its registry name) that refines an axis
    (``effective_order=true``): the assignment of the axis's fields it makes, the others at the paper's."""
    declared = BY_NAME[field]
    axis = axis_of(declared.name)
    parsed: Any = value.strip().lower() == "true" if declared.kind == "flag" else value
    return {**{f: BY_NAME[f].paper for f in axis.fields}, declared.name: parsed}


def one_axis_changes() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every value of every observed axis, as (``axis=value``, the assignment of its fields): the
    one-axis changes of the expected point that the search tries (the registry's, all of them).
    N and the weights have no declared values: FP-WEIGHTS solves them, and the search keeps them."""
    for axis in OBSERVED:
        if not axis.field.values:
            continue
        for assignment in axis.assignments():
            yield f"{axis.name}={axis.shown(assignment)}", assignment


#: The name of the candidate made of the fingerprint's findings (the search's last resort for a name).
FINGERPRINT_POINT = "the fingerprint's point"


@dataclass(frozen=True)
class AxisDifference:
    """An axis where the target's point differs from the expected one (spec CONF-VERDICT): the axis,
    the spec entry that defines it (with the placed tool's registered divergences that take the
    value), the expected value and the value found."""

    axis: str
    spec: str
    expected: str
    found: str

    def as_json(self) -> dict[str, str]:
        """The difference in the JSON report."""
        return {"axis": self.axis, "spec": self.spec, "expected": self.expected, "found": self.found}


@dataclass(frozen=True)
class Candidate:
    """A point of the convention space: a name and the reference's options there."""

    name: str
    options: Mapping[str, Any]

    @property
    def axes(self) -> dict[str, str]:
        """Its value on every observable axis (exact and binary64 are one value: they agree to 1e-13)."""
        values = option_axes(self.options)
        if values["arithmetic"] == "exact":
            values["arithmetic"] = "binary64"
        return {axis: values[axis] for axis in AXIS_SPEC}

    def predict(self, corpus: Corpus) -> Answer:
        """The reference's score at this point, or "error"."""
        return reference_prediction(self.options, corpus)

    @property
    def tolerance(self) -> float:
        """How close an answer must be: binary32 points are compared at binary32's precision."""
        return 1e-5 if self.options.get("arithmetic") == "binary32" else MATCH_TOLERANCE


@dataclass(frozen=True)
class Expectation:
    """``--expect PROFILE`` with the values ``--accept AXIS=VALUE`` adds (spec CONF-VERDICT).

    An accepted value is acceptable *beside* the profile's own: the expected point stays the
    profile's, and a target placed where only accepted values differ from it is conformant.
    """

    profile: Profile
    #: (axis, value) pairs, in the order given; an axis may take several values.
    accepted: tuple[tuple[str, str], ...] = ()
    #: ``--strict-domain``: the domain axes (DOMAIN_AXES) must take the profile's (or an accepted) value.
    strict_domain: bool = False

    @classmethod
    def parse(cls, profile: str, accepted: Sequence[str] = (), *, strict_domain: bool = False) -> Expectation:
        """The expectation from the command line; a bad name or axis is a BleuOptionError."""
        changes: list[tuple[str, str]] = []
        known = [*TEXT_AXES, *AXIS_SPEC]
        for item in accepted:
            name, sep, value = item.partition("=")
            field = axis = canonical(name.strip(), "--accept", stacklevel=2)
            if field in BY_NAME and field not in known:
                axis = axis_of(field).name  # a field that refines an axis: effective_order=true
                value = AXES[axis].shown(_assignment_of(field, value))
            if not sep or axis not in known:
                raise BleuOptionError(
                    "CONF-VERDICT", f"--accept takes AXIS=VALUE with AXIS one of {', '.join(known)}"
                )
            if axis in TEXT_AXES and value not in TEXT_AXES[axis].field.values:
                raise BleuOptionError(
                    "CONF-VERDICT",
                    f"--accept {axis}= takes one of {', '.join(TEXT_AXES[axis].field.values)}",
                )
            if (axis, value) not in changes:
                changes.append((axis, value))
        expectation = cls(resolve(profile), tuple(changes), strict_domain)
        expectation.accepted_points()  # validates the accepted values now
        return expectation

    @property
    def name(self) -> str:
        """The profile's name, with what is accepted beside it."""
        return self.profile.name + "".join(f" +{k}={v}" for k, v in self.accepted)

    @property
    def candidate(self) -> Candidate:
        """The expected point: the profile's (accepted values are added beside it, not put in)."""
        return Candidate(self.profile.name, dict(self.profile.options))

    def _changed(self, changes: Sequence[tuple[str, str]]) -> Candidate:
        """The profile's point with each (axis, value) set: every field of the axis takes the value's
        assignment (a refinement at the paper's value is the default: the profile's own is dropped,
        so accepting undefined_precision=zero on sacrebleu-sentence leaves no effective order)."""
        options = dict(self.profile.options)
        for axis, value in changes:
            assignment = next(
                (a for a in AXES[axis].assignments() if value in (AXES[axis].shown(a), a[axis])),
                {axis: value},
            )
            for name, set_to in assignment.items():
                if set_to is None:
                    options.pop(name, None)
                else:
                    options[name] = set_to
        try:
            option_axes(options)  # the accepted values are valid options
        except BleuError as error:
            raise BleuOptionError("CONF-VERDICT", f"--accept: {error}") from None
        name = self.profile.name + "".join(f" +{k}={v}" for k, v in changes)
        return Candidate(name, options)

    def accepted_points(self) -> list[Candidate]:
        """The points the accepted values make: each value alone on the profile, and (when several
        axes are accepted) the last value of every axis together."""
        score = [(axis, value) for axis, value in self.accepted if axis not in TEXT_AXES]
        points = [self._changed([change]) for change in score]
        together = list(dict(score).items())
        if len(together) > 1:
            points.append(self._changed(together))
        return points

    def acceptable(self) -> dict[str, frozenset[str]]:
        """Every axis's acceptable values beyond the profile's: the accepted ones, as the axes read them,
        and every value of a domain axis unless the domain is strict."""
        values: dict[str, set[str]] = {}
        if not self.strict_domain:
            values.update(
                {axis: set(domain) - set(INSIDE_DOMAIN[axis]) for axis, domain in DOMAIN_AXES.items()}
            )
        for axis, value in self.accepted:
            if axis in TEXT_AXES:
                values.setdefault(axis, set()).add(value)
            else:
                values.setdefault(axis, set()).add(self._changed([(axis, value)]).axes[axis])
        return {axis: frozenset(found) for axis, found in values.items()}

    @property
    def text(self) -> dict[str, str]:
        """The expected tokenizer and case folding of a text target: the profile's."""
        return {name: self.profile.text[name] for name in TEXT_AXES}
