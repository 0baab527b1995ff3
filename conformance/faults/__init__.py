"""The fault catalogue (spec CONF-DIAGNOSIS): the bugs real BLEU code has, each declared once as data
(``catalogue.json``: its meaning, the formula it breaks, where it is seen) and computed as one change
of the reference (:mod:`.computations`, on the kinds of change of :mod:`.mutations`), so that the
conformance runner can say which bug a target has (:mod:`conformance.runner.diagnosis`).

Faults and conventions stay apart: a convention a real tool follows on purpose, however rare, is a
value of the registry (:mod:`reference_bleu.conventions.registry`), never an entry here.
"""
