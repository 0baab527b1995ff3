"""The conformance suite's material: language-neutral vectors and their loader, the invariants as
properties, public hypothesis strategies, and the evaluator of hand derivations (spec 08, 09)."""
