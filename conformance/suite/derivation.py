"""Evaluate the hand derivations written in the vectors, independently of the reference.

A vector's ``score_derivation`` is an arithmetic expression in decimal numbers,
``+ - * / **``, parentheses, ``exp`` and ``log``, written by hand from the counts (for
example ``exp(1 - 34/32) * (25/32 * 11/30 * 7/28 * 4/26)**(1/4)``). It is evaluated with
mpmath, an arbitrary-precision library that shares no code with ``reference_bleu``, so a
vector's expected score has an origin other than the code under test.

``python -m conformance.suite.derivation FILE...`` fills in the ``score`` and ``brevity_penalty``
decimal strings of each vector from its derivations, and reports any that disagree.
"""

from __future__ import annotations

import ast
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import mpmath

#: Digits used to evaluate, and digits written into the vectors.
EVAL_DIGITS = 80
WRITTEN_DIGITS = 45

_FUNCTIONS: dict[str, Callable[[Any], Any]] = {"exp": mpmath.exp, "log": mpmath.log}
_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
}


class DerivationError(ValueError):
    """A derivation uses something other than numbers, + - * / **, exp and log."""


def _eval(node: ast.AST) -> Any:
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, int | float)
        and not isinstance(node.value, bool)
    ):
        return mpmath.mpf(str(node.value))  # from the written digits, not the float
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_eval(node.left), _eval(node.right))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and len(node.args) == 1
        and not node.keywords
    ):
        return _FUNCTIONS[node.func.id](_eval(node.args[0]))
    raise DerivationError(f"not allowed in a derivation: {ast.dump(node)}")


def evaluate(expression: str, digits: int = EVAL_DIGITS) -> Any:
    """The value of ``expression`` as an mpmath number at ``digits`` significant digits."""
    with mpmath.workdps(digits):
        return _eval(ast.parse(expression, mode="eval"))


def as_decimal_string(expression: str, digits: int = WRITTEN_DIGITS) -> str:
    """``expression`` evaluated and written with ``digits`` significant digits."""
    value = evaluate(expression)
    if value == 0:
        return "0"
    with mpmath.workdps(EVAL_DIGITS):
        text: str = mpmath.nstr(value, digits, strip_zeros=True, min_fixed=-30, max_fixed=30)
    return text


def fill(path: Path) -> list[str]:
    """Fill in missing decimal strings of ``path`` from derivations; return disagreements."""
    data = json.loads(path.read_text(encoding="utf-8"))
    problems: list[str] = []
    for test in data["tests"]:
        expected = test["expected"]
        for key in ("score", "brevity_penalty"):
            derivation = expected.get(f"{key}_derivation")
            if derivation is None:
                continue
            value = as_decimal_string(derivation)
            if key not in expected:
                expected[key] = value
            elif expected[key] != value:
                problems.append(f"{test['id']}: {key} {expected[key]} but derivation gives {value}")
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return problems


def main(argv: list[str]) -> int:
    """Fill every file named in ``argv``; exit 1 when a written value disagrees."""
    problems = [p for name in argv for p in fill(Path(name))]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
