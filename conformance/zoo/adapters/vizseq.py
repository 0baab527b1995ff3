"""vizseq 0.2.1 BLEUScorer: calling conventions only.

vizseq.scorers.bleu.BLEUScorer(corpus_level, sent_level).score(hypothesis, references) takes the
hypotheses as strings and the references as sacrebleu-style streams (references[k][i] is the k-th
reference of segment i; None where a segment has fewer, which sacrebleu skips). Default tokenizer
'none' (extra_args), so text is split on whitespace. Input text; any number of references;
corpus level (corpus_score) and sentence level (sent_scores, a different sacrebleu setting).
"""

from __future__ import annotations

from vizseq.scorers.bleu import BLEUScorer

from conformance.zoo.adapters._calls import capabilities, streams


class Adapter:
    capabilities = capabilities("vizseq 0.2.1 BLEUScorer", "text", ["corpus", "sentence"], "percent")

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        scorer = BLEUScorer(corpus_level=True, sent_level=False)
        return float(scorer.score(list(hypotheses), streams(references)).corpus_score)

    def sentence(self, hypothesis: str, references: list[str]) -> float:
        scorer = BLEUScorer(corpus_level=False, sent_level=True)
        return float(scorer.score([hypothesis], streams([list(references)])).sent_scores[0])


ADAPTER = Adapter()
