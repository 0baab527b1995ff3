"""Evaluate the hand derivations written in the vectors, independently of the reference.

A vector's ``score_derivation`` is an arithmetic expression in decimal numbers,
``+ - * / **``, parentheses, ``exp`` and ``log``, written by hand from the counts (for
example ``exp(1 - 34/32) * (25/32 * 11/30 * 7/28 * 4/26)**(1/4)``). It is evaluated with
mpmath, an arbitrary-precision library that shares no code with ``reference_bleu``, so a
vector's expected score has an origin other than the code under test.

``python -m conformance.suite.derivation FILE...`` checks the ``score`` and ``brevity_penalty``
decimal strings of each vector against its derivations (as numbers, within the vector's
tolerance) and reports any that disagree or are missing; with ``--write`` it fills in the missing
ones, leaving every other byte of the file as it was.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
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


class VectorFileError(ValueError):
    """A file that is not a vector file (spec CONF-VECTORS), or that the tool cannot edit in place."""


def agrees(written: str, derivation: str, tolerance: str) -> bool:
    """Whether the decimal string ``written`` lies within ``tolerance`` of ``derivation``'s value.

    Values are compared, not strings ("1" and "1.0" are the same number): exactly, in mpmath at
    :data:`EVAL_DIGITS` digits, with the vector's ``tolerance`` as the bound on the absolute
    difference (spec CONF-VECTORS, "What a tolerance means").
    """
    with mpmath.workdps(EVAL_DIGITS):
        return bool(abs(mpmath.mpf(written) - evaluate(derivation)) <= mpmath.mpf(tolerance))


def _insert(text: str, test_id: str, key: str, value: str) -> str:
    """``text`` with ``"key": "value",`` written just before the test's ``key_derivation``.

    Everything else stays as it was, byte for byte: the new member takes the derivation's line
    (its indentation) or, in a compact layout, its place on the line.
    """
    anchors = [m.end() for m in re.finditer(rf'"id"\s*:\s*{re.escape(json.dumps(test_id))}', text)]
    if len(anchors) != 1:
        raise VectorFileError(f"test {test_id}: its id is not written once in the file, cannot fill {key}")
    found = re.compile(rf'"{key}_derivation"\s*:').search(text, anchors[0])
    if found is None:
        raise VectorFileError(f"test {test_id}: no {key}_derivation after its id")
    at = found.start()
    line_start = text.rfind("\n", 0, at) + 1
    indent = text[line_start:at]
    separator = "\n" + indent if indent.strip() == "" else " "
    return f"{text[:at]}{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},{separator}{text[at:]}"


def fill(path: Path, write: bool = False) -> list[str]:
    """Check the decimal values of ``path`` against their derivations; return what is wrong.

    A written ``score`` or ``brevity_penalty`` must agree with its derivation within the
    vector's tolerance (:func:`agrees`). A missing one is reported, or, with ``write``, filled
    in from the derivation (:func:`as_decimal_string`) and the file rewritten with every other
    byte as it was; the file is never written otherwise.
    """
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except ValueError as error:
        raise VectorFileError(f"{path}: not JSON: {error}") from None
    tests = data.get("tests") if isinstance(data, dict) else None
    if not isinstance(tests, list):
        raise VectorFileError(f'{path}: not a vector file (no "tests" list)')
    problems: list[str] = []
    filled = text
    for test in tests:
        expected = test.get("expected", {})
        for key in ("score", "brevity_penalty"):
            derivation = expected.get(f"{key}_derivation")
            if derivation is None:
                continue
            if key not in expected:
                value = as_decimal_string(derivation)
                if write:
                    filled = _insert(filled, test["id"], key, value)
                    expected[key] = value
                else:
                    problems.append(
                        f"{test['id']}: {key} missing, derivation gives {value} (--write fills it in)"
                    )
            elif "tolerance" not in expected:
                raise VectorFileError(f"{path}: test {test['id']} has no tolerance")
            elif not agrees(expected[key], derivation, expected["tolerance"]):
                value = as_decimal_string(derivation)
                problems.append(
                    f"{test['id']}: {key} {expected[key]} but derivation gives {value} "
                    f"(tolerance {expected['tolerance']})"
                )
    if filled != text:
        if json.loads(filled) != data:  # the edit must add exactly the filled values
            raise VectorFileError(f"{path}: the filled values could not be written in place")
        path.write_text(filled, encoding="utf-8")
    return problems


def main(argv: list[str]) -> int:
    """Check every file named in ``argv`` (``--write``: fill in missing values).

    Exit 0 when every written value agrees with its derivation (and none is missing), 1 when
    one disagrees or is missing, 2 when a file cannot be read as a vector file.
    """
    parser = argparse.ArgumentParser(
        prog="python -m conformance.suite.derivation",
        description="Check the vectors' decimal values against their hand derivations (spec CONF-VECTORS).",
        allow_abbrev=False,
    )
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="vector files (JSON)")
    parser.add_argument(
        "--write", action="store_true", help="fill in missing values from the derivations (else only check)"
    )
    args = parser.parse_args(argv)
    problems: list[str] = []
    for path in args.files:
        try:
            problems += fill(path, write=args.write)
        except (OSError, ValueError, SyntaxError) as error:  # ValueError: a DerivationError, a bad decimal
            print(f"error: {error}", file=sys.stderr)
            return 2
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
