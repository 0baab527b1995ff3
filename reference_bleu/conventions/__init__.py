"""The convention space: every point the paper leaves open, named, and every real tool as a point
(spec chapter 13, API-OPTIONS, ATTR-AXES).

- :mod:`.registry`: every field and axis of the space, declared once (CONV-SPACE): its values,
  their meanings, the paper's value, the spec entry and the code that computes it;
- :mod:`.options`: :class:`~.options.BleuOptions`, the typed, validated options (API-OPTIONS);
- :mod:`.profiles`: the named profiles, each real tool as a point with its evidence (CONV-PROFILES);
- :mod:`.space`: :class:`~.space.Point`, a point of the space (text conventions and options), and
  its axes (ATTR-AXES);
- :mod:`.tables`: the spec's tables, generated from the registry and the profiles.

Nothing here computes a score: the scoring layer (:mod:`reference_bleu.scoring`) reads a point.
"""
