"""PaddleNLP 2.8.1 paddlenlp.metrics.BLEU used as an ordinary class: calling conventions only.

BLEU().add_inst(cand, ref_list) takes one tokenized candidate and its tokenized references;
score() gives the corpus BLEU of every instance added (its docstring's first usage). The
package's __init__ imports PaddleNLP's whole transformers stack, whose pinned web of
huggingface-hub / datasets / aistudio-sdk / pyarrow versions does not resolve here; bleu.py needs
only paddle and paddlenlp/metrics/utils.py, so this adapter registers empty package objects for
`paddlenlp` and `paddlenlp.metrics` (their __init__ not run) and imports that module. No code of
the tool is copied or changed. Input tokens; any number of references; corpus level.
"""

from __future__ import annotations

from typing import Any

import paddle  # noqa: F401 -- bleu.py's own import, first

from conformance.zoo.adapters._calls import capabilities, without_init

without_init("paddlenlp", "paddle", ("metrics",))

from paddlenlp.metrics.bleu import BLEU  # noqa: E402


class Adapter:
    capabilities = capabilities("paddlenlp 2.8.1 metrics.BLEU", "tokens", ["corpus"])

    def corpus(self, hypotheses: list[Any], references: list[list[Any]]) -> float:
        metric = BLEU()
        for hypothesis, refs in zip(hypotheses, references, strict=True):
            metric.add_inst(hypothesis, refs)
        return float(metric.score())


ADAPTER = Adapter()
