"""torchtext 0.18.0 torchtext.data.metrics.bleu_score: calling conventions only.

bleu_score(candidate_corpus, references_corpus) takes token lists. `import torchtext` loads the
package's C++ extension (libtorchtext.so), built for torch 2.3.0, which fails beside torch 2.13.0
CPU (torch 2.3.0 from PyPI brings CUDA, > 2 GB); the metric itself is pure Python + torch, so this
adapter registers empty package objects for `torchtext` and `torchtext.data` (their __init__ not
run) and imports the two plain modules metrics.py needs. No code of the tool is copied or changed.
Input tokens; any number of references; corpus level.
"""

from __future__ import annotations

from typing import Any

import torch  # noqa: F401 -- metrics.py's own import, first

from conformance.zoo.adapters._calls import capabilities, without_init

without_init("torchtext", "torch", ("data",))

from torchtext.data.metrics import bleu_score  # noqa: E402


class Adapter:
    capabilities = capabilities("torchtext 0.18.0 bleu_score", "tokens", ["corpus"])

    def corpus(self, hypotheses: list[Any], references: list[list[Any]]) -> float:
        return float(bleu_score(hypotheses, references))


ADAPTER = Adapter()
