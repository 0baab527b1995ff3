"""BLEU in Apache Beam on the DirectRunner (spec NUM-PARTIAL): the CombineFn gives one run per key.

The oracle is one single-process ``corpus_bleu`` per key (checked against sacrebleu in
tests/test_text_api.py).
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from conformance.data import WMT17, read_lines
from reference_bleu import BleuOptionError, corpus_bleu

beam: Any = pytest.importorskip("apache_beam", reason="the Beam integration needs the beam extra")
integration = importlib.import_module("reference_bleu.integrations.beam")

pytestmark = pytest.mark.slow


def summary(result: Any) -> tuple[Any, ...]:
    return (
        list(result.matches),
        list(result.totals),
        result.hyp_len,
        str(result.ref_len),
        str(result.score_decimal),
    )


@pytest.mark.parametrize("profile", ["sacrebleu", "nltk"])
def test_per_key_and_global_combines_on_the_direct_runner_give_one_run(profile: str) -> None:
    refs = read_lines(WMT17, "ref.de")[:2500]  # more than one chunk of rows per key
    systems = WMT17.systems[:3]
    rows = [
        (name, (hyp, ref))
        for name in systems
        for hyp, ref in zip(read_lines(WMT17, name), refs, strict=False)
    ]
    expected = [
        (name, summary(corpus_bleu(read_lines(WMT17, name)[: len(refs)], refs, profile=profile)))
        for name in systems
    ]
    whole = summary(corpus_bleu([h for _, (h, _) in rows], [r for _, (_, r) in rows], profile=profile))
    testing = importlib.import_module("apache_beam.testing.util")
    with beam.Pipeline(runner="DirectRunner") as pipeline:  # asserted in the pipeline, as Beam's tests do
        keyed = pipeline | beam.Create(rows, reshuffle=True)
        per_key = keyed | "per key" >> beam.CombinePerKey(integration.BleuCombineFn(profile))
        every = keyed | beam.Values() | "global" >> beam.CombineGlobally(integration.BleuCombineFn(profile))
        testing.assert_that(
            per_key | "keyed" >> beam.MapTuple(lambda key, result: (key, summary(result))),
            testing.equal_to(expected),
            label="each key is one run",
        )
        testing.assert_that(
            every | "all" >> beam.Map(summary), testing.equal_to([whole]), label="every row is one run"
        )


def test_conventions_that_read_the_rows_order_are_refused() -> None:
    with pytest.raises(BleuOptionError, match="a Beam PCollection has none"):
        integration.BleuCombineFn("nltk[method=7]")
    with pytest.raises(BleuOptionError, match="max_order"):
        integration.BleuCombineFn(max_order=0)
