"""pycocoevalcap-cn 0.0.1 pycocoevalcap_cn.bleu.Bleu: calling conventions only.

Bleu(4).compute_score(gts, res) takes, per image id, a list of reference caption strings and a
one-element list with the candidate string (whitespace-split inside); it returns ([Bleu_1..4],
per-image lists). This adapter serves Bleu_4, as the zoo's `coco` target does for pycocoevalcap.
Input text; any number of references; corpus level.
"""

from __future__ import annotations

from pycocoevalcap_cn.bleu.bleu import Bleu

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("pycocoevalcap-cn 0.0.1 Bleu_4", "text", ["corpus"])

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        scores, _ = Bleu(4).compute_score(
            {i: list(r) for i, r in enumerate(references)}, {i: [h] for i, h in enumerate(hypotheses)}
        )
        return float(scores[3])


ADAPTER = Adapter()
