"""The convention registry (spec CONV-SPACE): every axis declared once, every other place derived.

These tests hold the registry to what it promises: the typed options are its fields at its
paper values, every field keeps one name across the API, the CLI, the harness, ``--accept``
and the signature, former names still work with a DeprecationWarning, every field names a
function whose docstring cites its entry, and no module writes a list of the axes again.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import warnings
from dataclasses import fields
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conformance.runner.expectation import AXIS_SPEC, DOMAIN_AXES, Expectation, one_axis_changes
from conformance.runner.harness import _reference
from reference_bleu import corpus_bleu
from reference_bleu.cli.arguments import parser
from reference_bleu.conventions.options import BleuOptions, make_options
from reference_bleu.conventions.registry import (
    ALIASES,
    AXES,
    BY_NAME,
    FIELDS,
    OPTION_FIELDS,
    PAPER_OPTIONS,
    TEXT_FIELDS,
)
from reference_bleu.errors import BleuOptionError

ROOT = Path(__file__).resolve().parent.parent


def test_the_options_are_the_registrys_fields_at_the_papers_values() -> None:
    assert [f.name for f in fields(BleuOptions)] == list(OPTION_FIELDS)
    paper = BleuOptions()
    assert {name: getattr(paper, name) for name in OPTION_FIELDS} == PAPER_OPTIONS
    # The paper (Papineni et al. 2002, sec. 2): N = 4, uniform weights, the closest reference length.
    assert (paper.max_order, paper.weights, paper.ref_length) == (4, (Fraction(1, 4),) * 4, "closest")


def _flag_spellings() -> set[str]:
    import argparse  # noqa: PLC0415

    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {s for action in commands.choices["score"]._actions for s in action.option_strings}


def test_every_field_has_one_flag_named_after_it() -> None:
    spellings = _flag_spellings()
    for field in FIELDS:
        assert field.flag in spellings, field.name
        assert set(field.cli_flags) <= spellings, field.name


@pytest.mark.parametrize("field", [f for f in FIELDS if f.values], ids=lambda f: f.name)
def test_every_value_is_accepted_under_the_fields_one_name(field: Any) -> None:
    """The API takes every declared value (a refused combination names the field's entry)."""
    if field.group == "text":
        return
    for value in field.values:
        if (field.name, value) == ("undefined_precision", "smoothed"):
            # the one combination the spec refuses alone: it needs a smoothing defined on 0/0 (EC-003)
            with pytest.raises(BleuOptionError, match="EC-003"):
                make_options(**{field.name: value})
            continue
        assert getattr(make_options(**{field.name: value}), field.name) == value


def test_former_names_still_work_with_a_warning_naming_the_new_one() -> None:
    assert ALIASES["bp"] == "brevity_penalty"
    with pytest.warns(DeprecationWarning, match="'empty_refs' is now called 'empty_references'"):
        old = make_options(empty_refs="drop")
    assert old == make_options(empty_references="drop")
    with pytest.warns(DeprecationWarning, match="'undefined' is now called 'undefined_precision'"):
        expectation = Expectation.parse("paper", ["undefined=error"])
    assert expectation.accepted == (("undefined_precision", "error"),)


def test_accept_takes_the_one_name_and_a_refining_field() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Expectation.parse("paper", ["undefined_precision=error"]).accepted == (
            ("undefined_precision", "error"),
        )
        # effective_order refines undefined_precision: accepted as that axis's value "effective"
        assert Expectation.parse("paper", ["effective_order=true"]).accepted == (
            ("undefined_precision", "effective"),
        )


def test_an_accepted_value_sets_every_field_of_its_axis() -> None:
    """sacrebleu-sentence computes with effective_order=True (undefined_precision shown "effective"):
    accepting undefined_precision=zero must take the effective order away, or the accepted point is
    sacrebleu-sentence itself and the value is never acceptable (it stayed "effective")."""
    expectation = Expectation.parse("sacrebleu-sentence", ["undefined_precision=zero"])
    (point,) = expectation.accepted_points()
    assert point.options["effective_order"] is False
    assert point.axes["undefined_precision"] == "zero"
    assert expectation.acceptable()["undefined_precision"] == frozenset({"zero"})


def test_the_harness_takes_the_one_name() -> None:
    served = _reference({"brevity_penalty": "coco", "max_order": "2"})
    hyps, refs = [["a", "b", "c"]], [[["a", "b", "c", "d"]]]
    # Hand computation: c = 3, r = 4; p_1 = p_2 = 1; coco's BP exp(1 - r / (c + 1e-9)) ~ exp(-1/3).
    got = served.score("corpus", hyps, refs)["score"]
    assert got == corpus_bleu(hyps, refs, brevity_penalty="coco", max_order=2).score
    assert abs(got - 0.7165313105737893) < 1e-9


def test_the_signature_names_each_convention_by_its_field() -> None:
    options = make_options(denominator="max1-segment", empty_corpus="zero", brevity_penalty="coco")
    signature = options.signature()
    for name in ("denominator:max1-segment", "empty_corpus:zero", "brevity_penalty:coco"):
        assert name in signature.split("|")


def test_every_field_is_implemented_by_a_function_citing_its_entry() -> None:
    for field in FIELDS:
        module, _, name = field.implemented_by.rpartition(".")
        try:
            owner: Any = importlib.import_module(module)
        except ModuleNotFoundError:  # a method: module.Class.method
            module, _, cls = module.rpartition(".")
            owner = getattr(importlib.import_module(module), cls)
        doc = inspect.getdoc(getattr(owner, name)) or ""
        entry = field.spec_id
        assert entry in doc or entry.split("-")[0] in doc, (field.name, field.implemented_by)


def test_the_runner_observes_every_score_and_domain_axis_with_values() -> None:
    assert set(DOMAIN_AXES) == {a.name for a in AXES.values() if a.field.group == "domain"}
    assert set(AXIS_SPEC) >= set(DOMAIN_AXES)
    changes = dict(one_axis_changes())
    # every declared value of every observed axis is a candidate change (no hand-picked list)
    for axis in AXIS_SPEC:
        for value in AXES[axis].field.values:
            assert any(a.get(axis) == value for a in changes.values()), (axis, value)
    assert changes["undefined_precision=effective"]["effective_order"] is True


def _names_in(node: ast.AST) -> set[str]:
    items: list[ast.expr | None]
    if isinstance(node, ast.Dict):
        items = node.keys
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        items = list(node.elts)
    else:
        return set()
    return {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}


def test_no_module_lists_the_axes_again() -> None:
    """The axis list is written once: no literal collection of eight or more field names (or former
    names) anywhere in the package or the runner but the registry. (Shorter ones are a purpose's
    own subset, as a profile's settings or the axes a diagnostic observes; the copies this
    replaced listed 10 to 17: the CLI's options, the signature's conventions, the verdict's axes.)"""
    names = set(BY_NAME) | set(ALIASES)
    found = []
    for root in ("reference_bleu", "conformance"):
        for path in sorted((ROOT / root).rglob("*.py")):
            if path.name == "registry.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                listed = _names_in(node) & names
                if len(listed) >= 8:
                    found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)} {sorted(listed)}")
    assert not found, "\n".join(found)


def test_text_fields_are_the_tokenizers_keywords() -> None:
    from reference_bleu.text.tokenizers import tokenize_line  # noqa: PLC0415

    assert set(TEXT_FIELDS) <= set(inspect.signature(tokenize_line).parameters)
