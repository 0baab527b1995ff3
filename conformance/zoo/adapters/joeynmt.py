"""joeynmt 2.3.0 joeynmt.metrics.bleu: calling conventions only.

bleu(hypotheses, references, **sacrebleu_cfg) takes detokenized strings, ONE reference string
per hypothesis (it passes `references=[references]`, a single sacrebleu stream), and JoeyNMT's
default config has an empty sacrebleu_cfg (config.py:380), so sacrebleu's own defaults apply.
Input text; one reference per segment; corpus level.
"""

from __future__ import annotations

import logging

from joeynmt.metrics import bleu

from conformance.zoo.adapters._calls import capabilities, single

logging.getLogger("joeynmt").setLevel(logging.ERROR)


class Adapter:
    capabilities = capabilities("joeynmt 2.3.0 metrics.bleu", "text", ["corpus"], "percent")

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        return float(bleu(list(hypotheses), single(references)))


ADAPTER = Adapter()
