"""What BLEU numbers mean: significance, attribution, identification and the hand computation
(spec chapters 14-15: SIG-*, ATTR-*, IDENT-*; BLEU-PREC's tables).

- :mod:`.significance`: bootstrap intervals and paired tests, with sacrebleu's numbers (SIG-*);
- :mod:`.counted`: a test set counted once per text convention, scored at any point (ATTR-COST);
- :mod:`.attribution`: why two BLEU numbers differ, axis by axis (ATTR);
- :mod:`.identification`: which BLEU printed a number (IDENT);
- :mod:`.explain`: the hand computation, printed as the tutorials draw it.
"""
