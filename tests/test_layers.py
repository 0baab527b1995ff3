"""The package tree is the architecture: every import goes down the layers, and none goes round in a circle.

``reference_bleu/`` is built in layers, one folder each (ARCHITECTURE.md draws them): the paper's
formulas at the bottom, then the fast counting path, text, the convention space, the scoring
pass, the API, what is built on the API (partial statistics, analysis, the integrations), the
conformance suite and runner, and the command line on top. A module may import its own layer
and the layers below it, never one above; no two modules import each other, directly or round a
longer circle. The imports are read from the source (``ast``): module-level and deferred ones.

Run alone: ``python -m pytest tests/test_layers.py``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("reference_bleu", "conformance")

#: The layers, lowest first: a module belongs to the first prefix it starts with (longest wins).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("reference_bleu.errors", "reference_bleu.interrupts"),
    ("reference_bleu.formulas",),
    ("reference_bleu.fast",),
    ("reference_bleu.text",),
    ("reference_bleu.conventions",),
    ("reference_bleu.scoring",),
    ("reference_bleu.api",),
    ("reference_bleu.partial", "reference_bleu.analysis"),
    ("reference_bleu.integrations",),
    ("conformance.data", "conformance.peers"),
    ("conformance.suite",),
    ("conformance.faults",),
    ("conformance.runner",),
    ("conformance.zoo",),
    ("reference_bleu.cli",),
    ("reference_bleu", "reference_bleu.__main__", "conformance"),
)
#: The longest module of each layer, in lines, unless its docstring says why it is longer.
LONGEST = 800
LONG_REASON = "It is long because"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def layer(module: str) -> int:
    best, rank = -1, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, rank = len(prefix), index
    assert rank >= 0, f"{module} is in no layer"
    return rank


def imported(path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The project's modules ``path`` imports, each with the line that imports it (every level)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # ``from package import module`` imports the module; ``from module import name`` the module
            names = [
                f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in known else node.module
                for a in node.names
            ]
        for name in names:
            if name.split(".")[0] in PACKAGES and isinstance(node, ast.stmt):
                yield name, node.lineno


GRAPH: dict[str, set[str]] = defaultdict(set)
LINES: dict[tuple[str, str], int] = {}
for _name, _path in modules().items():
    for _target, _line in imported(_path, modules()):
        if _target != _name:
            GRAPH[_name].add(_target)
            LINES[_name, _target] = _line


def test_every_module_is_in_a_layer_and_every_layer_has_a_docstring() -> None:
    for name, path in modules().items():
        layer(name)
        if path.name == "__init__.py":
            assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))), f"{path} says nothing"


def test_no_import_runs_up_a_layer() -> None:
    upward = [
        f"{source} (layer {layer(source)}) imports {target} (layer {layer(target)}) at line {LINES[source, target]}"
        for source, targets in GRAPH.items()
        for target in targets
        if layer(target) > layer(source)
    ]
    assert upward == []


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module of ``graph`` (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle() -> None:
    assert cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_circle_of_three() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_no_module_is_longer_than_the_limit_without_saying_why() -> None:
    long = [
        f"{name}: {lines} lines"
        for name, path in modules().items()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST
        and LONG_REASON not in (ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or "")
    ]
    assert long == []
