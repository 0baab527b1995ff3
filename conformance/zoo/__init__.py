"""The zoo: real BLEU implementations from the package indexes, each with its truth written from its
source, run by the runner in an environment of its own and published as a page (spec CONF-ZOO).

- ``zoo.json`` (schema ``zoo.schema.json``): the environments and the entries;
- :mod:`conformance.zoo.entries`: the data, loaded; :mod:`conformance.zoo.environments`: making and
  caching the environments; :mod:`conformance.zoo.running`: the runner run on each entry, its report
  kept; :mod:`conformance.zoo.truth`: the truth against the report; :mod:`conformance.zoo.report`:
  the zoo report as JSON (``report.schema.json``) and as a page; :mod:`conformance.zoo.command`:
  ``reference-bleu zoo``;
- ``adapters/``: one file per entry that is not a built-in target, calling conventions only.
"""
