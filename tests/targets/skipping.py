"""A bleu-conform program that answers ``skipped`` to a class of questions it never declared it
cannot take (spec CONF-PROTOCOL, CONF-VERDICT's insufficient evidence).

    python tests/targets/skipping.py CLASS

It is the paper's BLEU (tests/targets/conform.py, independent_bleu) in a tool whose capabilities
declare no ``references`` (so ``any``) and that answers ``skipped`` to every question of one
class: ``empty-reference``, a question with an empty reference somewhere (a tool that cannot read
an empty line of a reference file), or ``several``, a question with another number of references
than one in some segment (a one-reference tool that does not say so). The runner must not read it
as conformant on the questions it did answer.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for tests.*

from tests.targets.conform import independent_bleu

#: Whether a question's references are of the class the target skips.
CLASSES: dict[str, Callable[[list[list[list[str]]]], bool]] = {
    "empty-reference": lambda references: any(not ref for segment in references for ref in segment),
    "several": lambda references: any(len(segment) != 1 for segment in references),
}


def say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    name = sys.argv[1]
    skipped = CLASSES[name]
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "stop":
            return
        if message["type"] == "hello":
            capabilities = {"type": "capabilities", "protocol": "bleu-conform", "version": 2}
            say({**capabilities, "name": f"skips-{name}", "input": "tokens", "levels": ["corpus"]})
            continue
        answer: dict[str, Any] = {"type": "result", "seq": message["seq"]}
        if skipped(message["references"]):
            say({**answer, "status": "skipped", "reason": f"not taken: {name}"})
            continue
        try:
            say(
                {
                    **answer,
                    "status": "ok",
                    "score": independent_bleu(message["hypotheses"], message["references"]),
                }
            )
        except (ValueError, ZeroDivisionError) as error:
            say({**answer, "status": "error", "error": f"{type(error).__name__}: {error}"})


if __name__ == "__main__":
    main()
