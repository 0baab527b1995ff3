"""bleu-mp 0.0.1 compute_bleu: calling conventions only.

compute_bleu(pred_corpus, target_corpus) takes token lists (tensorflow/nmt's signature, with
the arguments in the other order) and returns (bleu, precisions, bp, ratio, c, r); above 500
segments it counts in worker processes (shared memory). Input tokens; any number of
references; corpus level.
"""

from __future__ import annotations

from typing import Any

from bleu_mp import compute_bleu

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("bleu-mp 0.0.1 compute_bleu", "tokens", ["corpus"])

    def corpus(self, hypotheses: list[Any], references: list[list[Any]]) -> float:
        return float(compute_bleu(hypotheses, references)[0])


ADAPTER = Adapter()
