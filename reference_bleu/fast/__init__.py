"""The fast statistics path: the formulas' integers, computed fast (spec NUM-FAST, NUM-KERNEL).

Everything that scores a corpus counts through here. Up to three implementations of one job,
each tested equal to the one before it, as CPython's ``decimal`` keeps its C and Python
versions: the literal functions of :mod:`reference_bleu.formulas` (the oracle), the pure-Python
fast path (:mod:`.counts`), and the optional compiled kernel (:mod:`.kernel`, ``_kernel.c``),
built where a compiler is present. The pure-Python path installs and runs everywhere.
"""
