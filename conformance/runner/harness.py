"""Serve a Python BLEU over the bleu-conform protocol (spec CONF-PROTOCOL).

``python -m conformance.runner.harness TARGET [--input tokens|text]`` where TARGET is a built-in
(``reference``, ``nltk``, ``sacrebleu``, ``bleuscore``, ``torchmetrics``, ``ignite``, ``coco``,
``fast-bleu``, each optionally configured as ``name[key=value,...]``) or ``module:attr``. The
runner starts every Python target through this harness, in its own process, so a target that
hangs or crashes its interpreter is killed and restarted without stopping the run, exactly as
a ``--command`` target in another language is. The harness also reports what the target left of its input
(a digest the runner compares with what it sent, and its own comparison with a fresh decoding
of the question), and keeps the protocol on private copies of stdin and stdout, so a target
that reads stdin or writes to stdout (even from native code) cannot disturb it.

A ``module:attr`` target is either a callable ``f(hypotheses, references) -> float`` with the
reference API's layout, or an adapter object with a ``capabilities`` dict (``input``,
``levels``, ``statistics``, ``scale``) and methods ``corpus(hypotheses, references)`` and,
optionally, ``sentence(hypothesis, references)``, each returning a number or a dict with
``score`` and optionally ``statistics`` (``matches``, ``totals``, ``hyp_len``, ``ref_len``)
and ``brevity_penalty``.
"""

from __future__ import annotations

import importlib
import logging
import numbers
import os
import sys
import threading
import warnings
from argparse import Namespace
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any, TextIO

from conformance.faults.catalogue import by_id
from conformance.peers.targets import reference_streams
from conformance.runner.protocol import PROTOCOL, VERSION, encode, input_digest, loads_json
from reference_bleu.api import corpus_bleu, sentence_bleu
from reference_bleu.conventions.options import VERSION as REFERENCE_VERSION
from reference_bleu.conventions.options import make_options
from reference_bleu.conventions.registry import BY_NAME, OPTION_FIELDS, canonical

#: Bound before any target is imported: a target that replaces ``json.loads`` later does not
#: change what the harness reads (it can still reach into this module: spec CONF-ROBUST).
_loads = loads_json

Scorer = Callable[[str, list[Any], list[list[Any]]], Any]


class HarnessError(Exception):
    """The target cannot be served (not installed, not found, bad parameters)."""

    def __init__(self, reason: str, install: str = "") -> None:
        super().__init__(reason)
        self.reason, self.install = reason, install


@dataclass
class Served:
    """A Python target ready to serve: its capabilities and one function for both levels."""

    name: str
    input: str
    levels: list[str]
    statistics: bool
    score: Scorer
    scale: str | None = None
    versions: dict[str, str] = field(default_factory=dict)


# --- built-in targets ------------------------------------------------------------------------

EXTRA = "pip install 'reference-bleu[peers]'"


def parse_builtin(spec: str) -> tuple[str, dict[str, str]]:
    """``nltk[method=3,auto_reweigh=true]`` -> ("nltk", {"method": "3", "auto_reweigh": "true"})."""
    name, _, rest = spec.partition("[")
    params: dict[str, str] = {}
    if rest:
        if not rest.endswith("]"):
            raise HarnessError(f"bad target {spec!r}: parameters are written name[key=value,...]")
        for item in filter(None, rest[:-1].split(",")):
            key, sep, value = item.partition("=")
            if not sep:
                raise HarnessError(f"bad parameter {item!r} in {spec!r}: expected key=value")
            params[key.strip()] = value.strip()
    return name, params


def _flag(value: str) -> bool:
    if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
        raise HarnessError(f"expected true or false, got {value!r}")
    return value.lower() in ("true", "1", "yes")


def _version(module: str) -> str:
    try:
        return version(module)
    except PackageNotFoundError:
        return "unknown"


def _import(module: str, pip_name: str, install: str = EXTRA) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise HarnessError(f"{pip_name} is not installed", install) from None


def _check_params(name: str, params: dict[str, str], known: tuple[str, ...]) -> None:
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise HarnessError(f"{name}: unknown parameter(s) {', '.join(unknown)}; known: {', '.join(known)}")


def _reference(params: dict[str, str]) -> Served:
    """The reference at any point (its options as parameters); with ``fault=FAULT-ID``, the reference
    with that fault of the catalogue (spec CONF-DIAGNOSIS): scores only, as the faulty code gives them."""
    fault = params.pop("fault", None)
    params = {canonical(key, "reference[NAME=VALUE]"): value for key, value in params.items()}
    _check_params("reference", params, OPTION_FIELDS)
    options: dict[str, Any] = {}
    for key, value in params.items():  # each read as the registry's field declares it
        kind = BY_NAME[key].kind
        options[key] = int(value) if kind == "int" else _flag(value) if kind == "flag" else value

    if fault is not None:
        return _faulty(fault, options)

    def score(level: str, hyps: list[Any], refs: list[list[Any]]) -> dict[str, Any]:
        result = (
            sentence_bleu(hyps[0], refs[0], **options)
            if level == "sentence"
            else corpus_bleu(hyps, refs, **options)
        )
        return {
            "score": result.score,
            "statistics": {
                "matches": list(result.matches),
                "totals": list(result.totals),
                "hyp_len": result.hyp_len,
                "ref_len": float(result.ref_len),
            },
            "brevity_penalty": result.brevity_penalty,
        }

    return Served(
        "reference",
        "tokens",
        ["corpus", "sentence"],
        True,
        score,
        "unit",
        {"reference-bleu": REFERENCE_VERSION},
    )


def _faulty(fault: str, options: dict[str, Any]) -> Served:
    """``reference[fault=FAULT-ID,...]``: the fault's computation at the options (an error where the
    faulty code raises, which the runner sees as the target's error answer)."""
    faults = by_id()
    if fault not in faults:
        raise HarnessError(f"reference: unknown fault {fault!r}; the catalogue's: {', '.join(faults)}")
    compute, at = faults[fault].compute, make_options(**options)

    def score(level: str, hyps: list[Any], refs: list[list[Any]]) -> dict[str, Any]:
        answer = compute(at, hyps, refs)
        if answer is None:  # the fault says nothing here (c = 0 under a BP fault): the reference's
            answer = corpus_bleu(hyps, refs, **options).score
        if not isinstance(answer, float):  # ERROR: where the faulty code raises
            raise ValueError(f"{fault}: the faulty computation fails here")
        return {"score": answer}

    return Served(f"reference with {fault}", "tokens", ["corpus", "sentence"], False, score, "unit", {})


def _nltk(params: dict[str, str]) -> Served:
    _check_params("nltk", params, ("method", "auto_reweigh"))
    bleu_score = _import("nltk.translate.bleu_score", "nltk")
    method = int(params.get("method", "0"))
    if not 0 <= method <= 7:
        raise HarnessError(f"nltk: method must be 0..7, got {method}")
    reweigh = _flag(params.get("auto_reweigh", "false"))
    smoothing = getattr(bleu_score.SmoothingFunction(), f"method{method}")

    def score(level: str, hyps: list[Any], refs: list[list[Any]]) -> float:
        # nltk's own entry points, called as a user would: no copies (a mutation would show).
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if level == "sentence":
                return float(
                    bleu_score.sentence_bleu(
                        refs[0], hyps[0], smoothing_function=smoothing, auto_reweigh=reweigh
                    )
                )
            return float(
                bleu_score.corpus_bleu(refs, hyps, smoothing_function=smoothing, auto_reweigh=reweigh)
            )

    name = f"nltk[method={method}{',auto_reweigh=true' if reweigh else ''}]"
    return Served(name, "tokens", ["corpus", "sentence"], False, score, "unit", {"nltk": _version("nltk")})


def _sacrebleu(params: dict[str, str]) -> Served:
    _check_params("sacrebleu", params, ("smooth", "value", "effective_order"))
    bleu = _import("sacrebleu.metrics.bleu", "sacrebleu")
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    smooth = params.get("smooth", "exp")
    value = float(params["value"]) if "value" in params else None
    eff = _flag(params.get("effective_order", "false"))
    installed = _version("sacrebleu")
    if installed.startswith("1."):
        # sacrebleu 1.x takes its settings as an argparse namespace (sacrebleu/compat.py:30-34)
        # and the effective order per call (metrics/bleu.py:248-250).

        settings = Namespace(
            smooth_method=smooth, smooth_value=value, force=True, short=False, lc=False, tokenize="none"
        )
        old = bleu.BLEU(settings)

        def run(level: str, hyps: list[Any], refs: list[list[Any]]) -> Any:
            if level == "sentence":
                return old.sentence_score(hyps[0], refs[0], use_effective_order=eff)
            return old.corpus_score(hyps, reference_streams(refs), use_effective_order=eff)

        family = "sacrebleu-1.5"
    else:
        metric = bleu.BLEU(tokenize="none", smooth_method=smooth, smooth_value=value, effective_order=eff)

        def run(level: str, hyps: list[Any], refs: list[list[Any]]) -> Any:
            if level == "sentence":
                return metric.sentence_score(hyps[0], refs[0])
            return metric.corpus_score(hyps, reference_streams(refs))

        family = "sacrebleu"

    def score(level: str, hyps: list[Any], refs: list[list[Any]]) -> dict[str, Any]:
        result = run(level, hyps, refs)
        return {
            "score": result.score,
            "statistics": {
                "matches": list(result.counts),
                "totals": list(result.totals),
                "hyp_len": result.sys_len,
                "ref_len": result.ref_len,
            },
        }

    parts = [f"smooth={smooth}"] + ([f"value={value}"] if value is not None else [])
    parts += ["effective_order=true"] if eff else []
    parts += ["tokenize=none"]  # the runner's tokens, joined with spaces, are split again as they are
    return Served(
        f"{family}[{','.join(parts)}]",
        "text",
        ["corpus", "sentence"],
        True,
        score,
        "percent",
        {"sacrebleu": installed},
    )


def _bleuscore(params: dict[str, str]) -> Served:
    _check_params("bleuscore", params, ("smooth",))
    module = _import("bleuscore", "bleuscore")
    smooth = _flag(params.get("smooth", "false"))

    def score(level: str, hyps: list[Any], refs: list[list[Any]]) -> float:
        return float(module.compute(refs, hyps, 4, smooth)["bleu"])

    return Served(
        f"bleuscore[smooth={str(smooth).lower()}]",
        "text",
        ["corpus"],
        False,
        score,
        "unit",
        {"bleuscore": _version("bleuscore")},
    )


def _torchmetrics(params: dict[str, str]) -> Served:
    _check_params("torchmetrics", params, ("smooth",))
    functional = _import(
        "torchmetrics.functional.text",
        "torchmetrics",
        "pip install 'reference-bleu[torchmetrics]' (torch, CPU build)",
    )
    smooth = _flag(params.get("smooth", "false"))

    def score(level: str, hyps: list[Any], refs: list[list[Any]]) -> float:
        return float(functional.bleu_score(hyps, refs, n_gram=4, smooth=smooth))

    return Served(
        f"torchmetrics[smooth={str(smooth).lower()}]",
        "text",
        ["corpus"],
        False,
        score,
        "unit",
        {"torchmetrics": _version("torchmetrics"), "torch": _version("torch")},
    )


def _ignite(params: dict[str, str]) -> Served:
    _check_params("ignite", params, ("smooth", "average"))
    nlp = _import("ignite.metrics.nlp", "pytorch-ignite", "pip install 'reference-bleu[torchmetrics,zoo]'")
    smooth, average = params.get("smooth", "no_smooth"), params.get("average", "macro")

    def score(level: str, hyps: list[Any], refs: list[list[Any]]) -> float:
        metric = nlp.Bleu(ngram=4, smooth=smooth, average=average)
        metric.update((hyps, refs))
        return float(metric.compute())

    return Served(
        f"ignite[smooth={smooth},average={average}]",
        "tokens",
        ["corpus"],
        False,
        score,
        "unit",
        {"pytorch-ignite": _version("pytorch-ignite"), "torch": _version("torch")},
    )


def _coco(params: dict[str, str]) -> Served:
    _check_params("coco", params, ())
    module = _import("pycocoevalcap.bleu.bleu", "pycocoevalcap", "pip install 'reference-bleu[zoo]'")

    def score(level: str, hyps: list[Any], refs: list[list[Any]]) -> float:
        gts = {i: [" ".join(r) for r in rs] for i, rs in enumerate(refs)}
        res = {i: [" ".join(h)] for i, h in enumerate(hyps)}
        scores, _ = module.Bleu(4).compute_score(gts, res, verbose=0)
        return float(scores[3])

    return Served(
        "coco", "tokens", ["corpus"], False, score, "unit", {"pycocoevalcap": _version("pycocoevalcap")}
    )


def _fast_bleu(params: dict[str, str]) -> Served:
    _check_params("fast-bleu", params, ("smoothing",))
    module = _import("fast_bleu", "fast-bleu", "pip install 'reference-bleu[zoo]'")
    smoothing = params.get("smoothing", "1")  # fast_bleu/__python_wrapper__.py:71: 1 by default
    if smoothing not in ("0", "1"):
        raise HarnessError(f"fast-bleu: smoothing must be 0 or 1, got {smoothing!r}")

    def score(level: str, hyps: list[Any], refs: list[list[Any]]) -> float:
        # fast-bleu scores each hypothesis alone against one reference set given up front: a
        # sentence-level BLEU (no corpus entry point), asked one sentence at a time.
        metric = module.BLEU(refs[0], {"bleu": (0.25, 0.25, 0.25, 0.25)}, smoothing_func=int(smoothing))
        return float(metric.get_score(hyps)["bleu"][0])

    return Served(
        f"fast-bleu[smoothing={smoothing}]",
        "tokens",
        ["sentence"],
        False,
        score,
        "unit",
        {"fast-bleu": _version("fast-bleu")},
    )


BUILTINS: dict[str, Callable[[dict[str, str]], Served]] = {
    "reference": _reference,
    "nltk": _nltk,
    "sacrebleu": _sacrebleu,
    "bleuscore": _bleuscore,
    "torchmetrics": _torchmetrics,
    "ignite": _ignite,
    "coco": _coco,
    "fast-bleu": _fast_bleu,
}


# --- module:attr -----------------------------------------------------------------------------


def _user(spec: str, input_kind: str) -> Served:
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # an import can fail in any way: say how, and go no further
        raise HarnessError(f"cannot import {module_name!r}: {type(error).__name__}: {error}") from None
    obj: Any = module
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise HarnessError(f"{module_name!r} has no attribute {attr!r}")
        obj = getattr(obj, part)
    capabilities = getattr(obj, "capabilities", None)
    if isinstance(capabilities, dict):  # an adapter object
        levels = list(capabilities.get("levels", ["corpus"]))

        def adapter_score(level: str, hyps: list[Any], refs: list[list[Any]]) -> Any:
            if level == "sentence":
                return obj.sentence(hyps[0], refs[0])
            return obj.corpus(hyps, refs)

        return Served(
            str(capabilities.get("name", spec)),
            str(capabilities.get("input", input_kind)),
            levels,
            bool(capabilities.get("statistics", False)),
            adapter_score,
            capabilities.get("scale"),
        )
    if not callable(obj):
        raise HarnessError(f"{spec} is neither callable nor an adapter with a capabilities dict")

    def call(level: str, hyps: list[Any], refs: list[list[Any]]) -> Any:
        return obj(hyps, refs)

    return Served(spec, input_kind, ["corpus"], False, call)


def resolve(spec: str, input_kind: str = "tokens") -> Served:
    """A target spec (built-in or ``module:attr``) made ready to serve; the built-ins: spec CONF-ZOO."""
    if ":" in spec:
        return _user(spec, input_kind)
    name, params = parse_builtin(spec)
    if name not in BUILTINS:
        raise HarnessError(f"unknown target {name!r}; built-ins: {', '.join(BUILTINS)}; or module:attr")
    return BUILTINS[name](params)


# --- serving ---------------------------------------------------------------------------------


def _number(value: Any) -> Any:
    """A number for JSON (NaN and infinities included); anything else as its repr in a list."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    if hasattr(value, "item") and callable(value.item):  # a NumPy scalar or 0-d tensor
        try:
            return _number(value.item())
        except (TypeError, ValueError):
            pass
    return ["not a number", repr(value)[:200]]


def _is_answer(error: BaseException) -> bool:
    """Whether an error the target raised is its answer (spec CONF-ROBUST), not the end of it.

    Every Exception is. So is a Rust panic in a PyO3 extension: PyO3 raises it as
    ``pyo3_runtime.PanicException``, a BaseException (so that ``except Exception`` does not
    swallow it), with the interpreter intact and the caller able to catch it; bleuscore raises
    it on a segment without references. SystemExit, KeyboardInterrupt and the like are not:
    the process is ending, which the runner sees as a crash.
    """
    kind = type(error)
    return isinstance(error, Exception) or (kind.__module__, kind.__name__) == (
        "pyo3_runtime",
        "PanicException",
    )


def _called(served: Served, level: str, hyps: list[Any], refs: list[Any], context: str | None) -> Any:
    """The target's answer, called where the question asks (spec CONF-OPEN): here; in a worker thread
    (a target whose configuration lives in thread-local state, or that is not thread-safe); or in a
    child process forked for the question (a target whose state does not survive a fork). What the
    target raises is raised here, as the same exception type's name and message."""
    if context == "thread":
        box: list[Any] = []

        def run() -> None:
            try:
                box.append(("ok", _plain_call(served, level, hyps, refs)))
            except BaseException as error:  # re-raised in this thread, as the target raised it
                box.append(("raised", error))

        worker = threading.Thread(target=run, name="bleu-conform-worker")
        worker.start()
        worker.join()
        kind, value = box[0]
        if kind == "raised":
            raise value
        return value
    if context == "fork":
        return _in_child(served, level, hyps, refs)
    return _plain_call(served, level, hyps, refs)


def _plain_call(served: Served, level: str, hyps: list[Any], refs: list[Any]) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return served.score(level, hyps, refs)


class ChildError(Exception):
    """What the target raised in a child forked for a question, named as it was raised there."""


def _in_child(served: Served, level: str, hyps: list[Any], refs: list[Any]) -> Any:
    """The target called in a child forked for this question; its answer (or what it raised) comes
    back as JSON through a pipe, and the child ends without touching the protocol's streams."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, report, and leave at once (no clean-up of the parent's state)
        os.close(read_end)
        try:
            result: dict[str, Any] = {"ok": _plain_call(served, level, hyps, refs)}
        except BaseException as error:
            result = {"raised": f"{type(error).__name__}: {error}"[:500]}
        try:
            payload = encode(result).encode("utf-8")
        except (TypeError, ValueError):
            payload = encode({"raised": "the answer is not JSON"}).encode("utf-8")
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(payload)
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    if not data:
        raise ChildError("the child forked for the question ended without an answer")
    result = _loads(data.decode("utf-8"))
    if "raised" in result:
        raise ChildError(result["raised"])
    return result["ok"]


def answer(served: Served, request: dict[str, Any], line: str) -> dict[str, Any]:
    """The result message for one score request (``line``: the request as it came)."""
    seq, level = request["seq"], request["level"]
    hyps, refs = request["hypotheses"], request["references"]
    try:
        value = _called(served, level, hyps, refs, request.get("context"))
    except BaseException as error:
        if not _is_answer(error):
            raise
        return {  # the target's failure is the answer
            "type": "result",
            "seq": seq,
            "status": "error",
            "error": f"{type(error).__name__}: {error}"[:500],
        }
    out: dict[str, Any] = {"type": "result", "seq": seq, "status": "ok"}
    if isinstance(value, dict):
        out["score"] = _number(value.get("score"))
        if value.get("statistics") is not None:
            out["statistics"] = value["statistics"]
        if value.get("brevity_penalty") is not None:
            out["brevity_penalty"] = _number(value["brevity_penalty"])
    else:
        out["score"] = _number(value)
    # What the target left of its input, for the runner to compare with what it sent (spec
    # CONF-ROBUST); and, as before, the harness's own comparison with a fresh decoding of the line.
    out["input_digest"] = input_digest(hyps, refs)
    fresh = _loads(line)
    if [hyps, refs] != [fresh["hypotheses"], fresh["references"]]:
        out["mutated"] = True
    return out


def serve(served: Served, stdin: TextIO, stdout: TextIO) -> None:
    """Answer requests until ``stop`` or end of input."""
    for line in stdin:
        request = _loads(line)
        if request.get("type") == "stop":
            return
        if request.get("type") == "hello":
            message: dict[str, Any] = {
                "type": "capabilities",
                "protocol": PROTOCOL,
                "version": VERSION,
                "name": served.name,
                "input": served.input,
                "levels": served.levels,
                "statistics": served.statistics,
                "versions": {"python": sys.version.split()[0], **served.versions},
            }
            if served.scale:
                message["scale"] = served.scale
            if hasattr(os, "fork"):  # a question may ask for a worker thread or a forked child
                message["contexts"] = ["thread", "fork"]
        else:
            message = answer(served, request, line)
        stdout.write(encode(message))
        stdout.flush()


def _private_streams() -> tuple[TextIO, TextIO]:
    """The protocol's own copies of stdin and stdout; fd 0 becomes /dev/null and fd 1 a copy of stderr.

    A target that reads standard input cannot take a question, and one that writes to standard
    output (print, or native code writing to fd 1) writes to stderr, not into the protocol.
    """
    protocol_in = os.fdopen(os.dup(0), "r", encoding="utf-8", newline="\n")
    protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdout.flush()
    os.dup2(2, 1)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 -- for the process's lifetime
    sys.stdout = sys.stderr
    return protocol_in, protocol_out


def main(argv: list[str]) -> int:
    """Serve one target on standard input and output (through private copies of them)."""
    spec = argv[0] if argv else ""
    input_kind = argv[2] if len(argv) > 2 and argv[1] == "--input" else "tokens"
    protocol_in, protocol_out = _private_streams()
    try:
        served = resolve(spec, input_kind)
    except HarnessError as error:
        for line in protocol_in:  # answer the hello with why the target cannot run
            protocol_out.write(
                encode({"type": "unavailable", "reason": error.reason, "install": error.install})
            )
            protocol_out.flush()
            if _loads(line).get("type") == "hello":
                break
        return 0
    serve(served, protocol_in, protocol_out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
