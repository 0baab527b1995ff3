"""BLEU implementations written for the tests, each from a description (never copied from a tool).

Correct ones with unusual engineering, realistic wrong ones and hostile ones: the runner's tests
judge each and check its verdict against the one its description gives. Each module is a group:
``conform`` (the runner's own classes of conventions and bugs), ``broken`` (faults), ``scale``
(wrong only at real size), ``skipping`` (targets that decline questions), ``verify``
(text, statistics and rounding), ``hostile`` and ``hostile_module`` (targets that attack the
runner, run in their own processes and never imported by the tests).
"""
