"""BLEU where the work is spread out: torch.distributed, Dask, Spark, Ray, Beam (spec NUM-PARTIAL).

Each integration counts its share of the rows into a :class:`~reference_bleu.partial.Partial`,
adds the partials exactly (integers, never floats) and scores the sum once, so the score is
the one a single ``corpus_bleu`` or ``reference-bleu score`` run gives. The engines are
optional extras (``torchmetrics``, ``dask``, ``spark``, ``ray``, ``beam``); using a module whose
engine is absent raises a ``BleuOptionError`` naming the extra. ``rows`` is what they share.
"""
