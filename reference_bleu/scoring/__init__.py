"""From statistics to the score: one scoring pass under a point of the convention space
(spec BLEU-EVAL, NUM-EXACT, NUM-SENTENCE, CONV-ARITH, CLI-FILES).

- :mod:`.score`: the pass every caller takes (:func:`~.score.score`): statistics and a
  point's options in, the :class:`~.score.BleuResult` out;
- :mod:`.evaluation`: the exact evaluation, conventions applied in one stated order (BLEU-EVAL);
- :mod:`.decide`: the score's correctly rounded double decided from integers where it can be
  (NUM-SENTENCE), without decimal arithmetic;
- :mod:`.floating`: a tool's floating-point arithmetic, where the point names one (CONV-ARITH);
- :mod:`.sentences`: each row's sentence score at float speed (NUM-SENTENCE);
- :mod:`.files`: parallel text files streamed into statistics (CLI-FILES).
"""
