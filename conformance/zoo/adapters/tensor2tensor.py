"""tensor2tensor 1.15.7 tensor2tensor.utils.bleu_hook.compute_bleu: calling conventions only.

compute_bleu(reference_corpus, translation_corpus) takes ONE reference token list per
translation (its docstring says 'list of references for each translation', but each is counted
as one token sequence, bleu_hook.py:87-89) and returns an np.float32. Input tokens; one reference
per segment; corpus level.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

from tensor2tensor.utils import bleu_hook

from conformance.zoo.adapters._calls import capabilities, single


class Adapter:
    capabilities = capabilities("tensor2tensor 1.15.7 bleu_hook.compute_bleu", "tokens", ["corpus"])

    def corpus(self, hypotheses: list[Any], references: list[list[Any]]) -> float:
        return float(bleu_hook.compute_bleu(single(references), hypotheses))


ADAPTER = Adapter()
