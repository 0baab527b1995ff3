"""The paper's formulas, one function each (spec chapters 00-05; NUM-EXACT, NUM-INPUT).

The literal reference: every formula of Papineni et al. (2002) is one function named after it,
whose docstring opens with its spec ID and carries a worked example. Counts are ints, ratios
Fractions; only the final exp/log leaves the rationals (:mod:`.exact`). This layer is the
oracle of everything above it and imports nothing of the package but :mod:`reference_bleu.errors`.

- :mod:`.counting`: n-grams, counts, clipping, modified precision (chapter 01, BLEU-NGRAM ... BLEU-PREC);
- :mod:`.length`: c, r and the brevity penalty (chapter 02, BLEU-LEN-*, BLEU-BP);
- :mod:`.combination`: N, the weights and the combination (chapter 03, BLEU-WEIGHTS ... BLEU-SCORE);
- :mod:`.statistics`: the sufficient statistics and their sum (chapter 04, BLEU-STATS, BLEU-CORPUS);
- :mod:`.inputs`: the form of the input and the segment rules (BLEU-INPUT, EC-004 to EC-006);
- :mod:`.smoothing`: every smoothing method (chapter 05, SMOOTH-*);
- :mod:`.exact`: exact arithmetic and one rounding (NUM-EXACT);
- :mod:`.numbers`: numbers a user gives, read exactly (NUM-INPUT).
"""
