"""bleu-torch 1.0.0 DifferentiableBLEUModule on hard token IDs: calling conventions only.

DifferentiableBLEUModule(vocab_size)(candidate_ids, [reference_ids, ...]) scores ONE candidate
given as a 1-D tensor of token IDs (its hard-ID path, bleu_torch.py `_to_token_distributions`)
against a list of 1-D reference ID tensors. This adapter numbers the tokens of each question
(sorted, so the numbering is deterministic) and runs the module in eval mode. Input tokens; any
number of references; sentence level.
"""

from __future__ import annotations

from typing import Any

import torch
from bleu_torch import DifferentiableBLEUModule

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities(
        "bleu-torch 1.0.0 DifferentiableBLEUModule (token IDs)", "tokens", ["sentence"]
    )

    def sentence(self, hypothesis: list[str], references: list[list[str]]) -> float:
        vocabulary = {w: i for i, w in enumerate(sorted({w for s in [hypothesis, *references] for w in s}))}
        module = DifferentiableBLEUModule(vocab_size=max(1, len(vocabulary)))
        module.eval()

        def ids(segment: list[str]) -> Any:
            return torch.tensor([vocabulary[w] for w in segment], dtype=torch.long)

        with torch.no_grad():
            return float(module(ids(hypothesis), [ids(r) for r in references]))


ADAPTER = Adapter()
