"""The conformance suite and runner: checks any BLEU implementation against the reference
(spec chapters 08-10 and 12).

- :mod:`conformance.data`: the real test sets shipped with the project, compressed, with provenance;
- :mod:`conformance.peers`: nltk and sacrebleu as targets, and their registered divergences (DIV-*);
- :mod:`conformance.suite`: the language-neutral vectors, the invariants and the strategies that
  generate corpora (CONF-VECTORS, INV-*, CONF-STRATEGIES);
- :mod:`conformance.runner`: ``reference-bleu conform``: any BLEU fingerprinted, judged and given a
  verdict, with a report (CONF-RUNNER ... CONF-REPORT).

It is built on the reference's API and conventions (:mod:`reference_bleu.api`,
:mod:`reference_bleu.conventions`), never on its command line.
"""
