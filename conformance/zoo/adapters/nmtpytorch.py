"""nmtpytorch 4.0.0 nmtpytorch.metrics.multibleu.BLEUScorer: calling conventions only.

BLEUScorer().compute(refs, hyps) takes the reference FILE names (one file per reference index,
one line per segment, as nmtpytorch's evaluation passes them) and the hypotheses as a list of
strings, runs the multi-bleu.perl shipped in the package and returns a Metric whose .score is
the printed 2-decimal percent. This adapter writes each reference stream to a temporary file
(one line per segment, newline-terminated). Input text; the same number of references for every
segment; corpus level.
"""

from __future__ import annotations

import os
import tempfile

from nmtpytorch.metrics.multibleu import BLEUScorer

from conformance.zoo.adapters._calls import capabilities


class Adapter:
    capabilities = capabilities("nmtpytorch 4.0.0 multibleu.BLEUScorer", "text", ["corpus"], "percent")

    def corpus(self, hypotheses: list[str], references: list[list[str]]) -> float:
        width = {len(r) for r in references}
        if len(width) != 1:
            raise ValueError(
                "multi-bleu.perl reads one reference file per index: every segment needs as many"
            )
        with tempfile.TemporaryDirectory() as folder:
            files = []
            for k in range(width.pop()):
                path = os.path.join(folder, f"ref{k}")
                with open(path, "w", encoding="utf-8") as out:
                    out.write("".join(r[k] + "\n" for r in references))
                files.append(path)
            return float(BLEUScorer().compute(files, list(hypotheses)).score)


ADAPTER = Adapter()
