"""The profiles are data a port can load (spec CONV-PROFILE-DATA): profiles.json is valid against its
JSON Schema, the builder follows the stated order (parent, family, rules), the loader refuses what
the builder could not read, and every profile it builds is a valid point of the convention space."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import jsonschema
import pytest

from reference_bleu.conventions.options import make_options
from reference_bleu.conventions.profiles import (
    PRINTED_FORMS_DATA,
    PROFILES,
    PROFILES_DATA,
    PROFILES_FILE,
    PROFILES_SCHEMA,
    _families,
    resolve,
)
from reference_bleu.conventions.registry import BY_NAME, PAPER_TEXT
from tests.test_spec import ROOT, SECTIONS


def test_the_profiles_file_is_valid_against_its_schema() -> None:
    schema = json.loads(PROFILES_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(json.loads(PROFILES_FILE.read_text(encoding="utf-8")))


def test_the_schema_refuses_a_family_without_its_tool_and_an_unknown_key() -> None:
    schema = json.loads(PROFILES_SCHEMA.read_text(encoding="utf-8"))
    broken = copy.deepcopy(PROFILES_DATA)
    del broken["families"][1]["tool"]  # sacrebleu extends nothing: it must name its tool
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
    broken = copy.deepcopy(PROFILES_DATA)
    broken["families"][0]["colour"] = "blue"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


def every_profile_name() -> list[str]:
    """Every family at its defaults, then each with one enumerated parameter changed."""
    names = list(PROFILES)
    for family in PROFILES.values():
        for parameter, allowed in family.parameters.items():
            names += [f"{family.name}[{parameter}={v}]" for v in allowed if v != family.defaults[parameter]]
    return names


@pytest.mark.parametrize("name", every_profile_name())
def test_every_profile_built_from_the_data_is_a_valid_point(name: str) -> None:
    profile = resolve(name)
    make_options(**profile.options)  # a BleuOptionError if the data named an option or value wrongly
    for field, value in profile.text.items():
        assert value in BY_NAME[field].values, (name, field, value)
    assert profile.level in ("corpus", "sentence")
    assert all(ident in SECTIONS for ident in profile.raises), profile.raises


def test_the_rules_apply_in_order_on_the_family_pieces() -> None:
    # sacrebleu: base options, then "always" (smoothing = smooth, round_digits = width), then the
    # rules on smooth and eff, as the data says (spec CONV-PROFILE-DATA, step 3).
    floor = resolve("sacrebleu[smooth=floor,eff=true,width=3]").options
    assert floor["smoothing"] == "floor"
    assert floor["round_digits"] == 3  # {"parameter": "width", "type": "integer"}
    assert floor["effective_order"] is True
    add_k = resolve("sacrebleu[smooth=add-k,eff=true]")
    assert "effective_order" not in add_k.options  # the eff rule holds for exp, none and floor only
    assert add_k.options["undefined_precision"] == "one"
    assert add_k.sentence_options == {}
    assert resolve("sacrebleu").sentence_options == {"effective_order": True}


def test_a_numeric_parameter_not_given_leaves_its_field_out() -> None:
    assert "smoothing_value" not in resolve("sacrebleu[smooth=floor]").options
    assert resolve("sacrebleu[smooth=floor,value=0.5]").options["smoothing_value"] == "0.5"


def test_a_mapped_parameter_takes_the_mapped_value() -> None:
    assert [resolve(f"nltk[method={k}]").options["smoothing"] for k in "01234567"] == [
        "none",
        "chen-cherry-1",
        "chen-cherry-2",
        "chen-cherry-3",
        "nltk-4",
        "nltk-5",
        "nltk-6",
        "nltk-7",
    ]
    # method 0 substitutes a sentinel for a zero precision; methods 1-7 leave a zero out of the sum
    assert resolve("nltk").options["zero_precision"] == "sentinel"
    assert {resolve(f"nltk[method={k}]").options["zero_precision"] for k in "1234567"} == {"skip"}


def test_a_power_is_read_exactly() -> None:
    # fast-bleu's log(LDBL_MIN): the data writes "2^-16382"
    assert resolve("fast-bleu[smoothing=0]").options["zero_value"] == Fraction(1, 2**16382)


def test_an_extending_family_builds_on_its_parent_then_its_own_pieces() -> None:
    parent, child = resolve("sacrebleu[eff=true]"), resolve("sacrebleu-sentence")
    assert child.name == "sacrebleu-sentence"  # eff=true is its own default
    assert dict(child.options) == {**parent.options, "aggregation": "macro"}
    assert child.level == "sentence"
    assert child.evidence[: len(parent.evidence)] == parent.evidence  # inherit_evidence
    assert len(child.evidence) == len(parent.evidence) + 1
    assert child.printed is None  # a printed form is the family's own, never inherited
    old = resolve("sacrebleu-1.5")
    assert old.options["early_return"] == "none"  # the family's own options replace the parent's
    assert dict(old.raises) == {"EC-006": "EOFError"}  # its raises replace sacrebleu's
    # mteval-14-intl: mteval-13a's rule (c=false: ascii) runs first, then its own (unicode)
    assert resolve("mteval-14-intl").lowercase == "unicode"
    assert resolve("mteval-14-intl[c=true]").lowercase == PAPER_TEXT["lowercase"]


def test_a_rule_adds_to_the_exceptions() -> None:
    assert dict(resolve("ignite").raises) == {"EC-006": "ValueError", "EC-012": "NotComputableError"}
    assert dict(resolve("ignite[average=micro]").raises) == {"EC-006": "ValueError"}


def broken(edit: Any) -> dict[str, Any]:
    data = copy.deepcopy(PROFILES_DATA)
    edit(data)
    return data


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["families"][1]["rules"].append({"when": {"colour": "red"}}),
        lambda d: d["families"][1]["rules"].append({"when": {"smooth": "exponential"}}),
        lambda d: d["families"][1]["rules"].append({"options": {"smoothing": {"parameter": "nope"}}}),
        lambda d: d["families"][1].update(printed="sacrebleu-3"),
    ],
    ids=["unknown parameter", "unknown value", "unknown parameter taken", "unknown printed form"],
)
def test_the_loader_refuses_what_the_builder_could_not_read(edit: Any) -> None:
    with pytest.raises(ValueError, match="profile sacrebleu"):
        _families(broken(edit))


def test_every_printed_form_names_a_spec_section_and_a_vector_file() -> None:
    for name, form in PRINTED_FORMS_DATA.items():
        assert form["spec"] in SECTIONS, name
        assert (ROOT / form["vectors"]).is_file(), name
    used = {profile.printed for profile in map(resolve, PROFILES)} - {None}
    assert used == set(PRINTED_FORMS_DATA)
