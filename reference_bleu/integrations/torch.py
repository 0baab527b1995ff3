"""Exact BLEU under torch.distributed: one int64 all-reduce of partial statistics (spec NUM-PARTIAL).

Each rank counts its rows into a :class:`~reference_bleu.partial.Partial`; :func:`sync_partial`
checks once that every rank counted under the same conventions (one ``all_gather_object`` of
their description, naming the option that differs), adds the partials with one
``all_reduce(SUM)`` of their int64 vectors, and every rank scores the sum from Python integers.
Counts never pass through floats: a float32 count stops growing at 2^24 (torchmetrics keeps its
n-gram counts in float32), an int64 one at 2^63.

Where a sampler repeats rows (PyTorch's ``DistributedSampler`` pads the last batch with samples
from the start) or the conventions need each segment (macro averaging, nltk's denominators and
methods 5 to 7), :func:`sync_indexed` gathers one-row partials with their dataset index and
counts each index once, in index order.

Without torch, :class:`ThreadGroup` is a pure-Python reducer with the same two collectives for
ranks that are threads of one process. :class:`TorchBLEU` is a torchmetrics ``Metric`` whose
state is the int64 vector (extra ``torchmetrics``).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from reference_bleu.api import split_text_options
from reference_bleu.errors import BleuError, BleuInputError, BleuOptionError
from reference_bleu.integrations.rows import optional
from reference_bleu.partial import (
    Conventions,
    Partial,
    described_difference,
    indexed_partials,
    make_conventions,
    partial_statistics,
    rows_of,
    union_of_indexed,
)
from reference_bleu.scoring.score import BleuResult


def _torch() -> Any:
    """The torch module (with torch.distributed), or a BleuOptionError naming the extra."""
    optional("torch.distributed", "torchmetrics")
    return optional("torch", "torchmetrics")


class Reducer(Protocol):
    """The two collectives a distributed sum of partials needs."""

    def all_gather_object(self, value: object) -> list[object]:
        """Every rank's ``value``, in rank order, on every rank."""

    def all_reduce_sum(self, vector: list[int]) -> list[int]:
        """The element-wise sum of every rank's ``vector`` (int64), on every rank."""


class TorchReducer:
    """The collectives of ``torch.distributed`` (any backend with int64 SUM: gloo, nccl, mpi).

    Tensors go on ``device``: by default the current CUDA device under NCCL (which reduces device
    tensors only), else the CPU.
    """

    def __init__(self, group: Any = None, device: Any = None) -> None:
        self.torch = _torch()
        self.group = group
        if not self.torch.distributed.is_initialized():
            raise BleuOptionError("NUM-PARTIAL", "torch.distributed is not initialised (init_process_group)")
        if device is None:
            nccl = self.torch.distributed.get_backend(group) == "nccl"
            device = self.torch.device("cuda", self.torch.cuda.current_device()) if nccl else "cpu"
        self.device = device

    def all_gather_object(self, value: object) -> list[object]:
        """``torch.distributed.all_gather_object``."""
        dist = self.torch.distributed
        gathered: list[object] = [None] * dist.get_world_size(self.group)
        dist.all_gather_object(gathered, value, group=self.group)
        return gathered

    def all_reduce_sum(self, vector: list[int]) -> list[int]:
        """One ``all_reduce(SUM)`` of an int64 tensor; the result as Python ints."""
        tensor = self.torch.tensor(vector, dtype=self.torch.int64, device=self.device)
        self.torch.distributed.all_reduce(tensor, op=self.torch.distributed.ReduceOp.SUM, group=self.group)
        return [int(x) for x in tensor.cpu().tolist()]


class ThreadGroup:
    """A pure-Python reducer for ``size`` ranks that are threads of one process (no torch needed).

    Each rank calls the collectives in the same order, as with torch.distributed; ``rank(k)``
    gives rank k's view.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._barrier = threading.Barrier(size)
        self._slots: list[object] = [None] * size

    def rank(self, k: int) -> Reducer:
        """Rank ``k``'s reducer."""
        group = self

        class _Rank:
            def all_gather_object(self, value: object) -> list[object]:
                return group._exchange(k, value)

            def all_reduce_sum(self, vector: list[int]) -> list[int]:
                gathered = group._exchange(k, list(vector))
                return [sum(column) for column in zip(*gathered, strict=True)]

        return _Rank()

    def _exchange(self, k: int, value: object) -> list[object]:
        self._slots[k] = value
        self._barrier.wait()
        gathered = list(self._slots)
        self._barrier.wait()  # every rank has read before the next exchange writes
        return gathered


def _default_reducer(reducer: Reducer | None) -> Reducer:
    return reducer if reducer is not None else TorchReducer()


#: The errors a rank's failure is raised as on every rank, by name.
_ERRORS: dict[str, type[BleuError]] = {
    cls.__name__: cls for cls in (BleuError, BleuInputError, BleuOptionError)
}


def _failure(error: BleuError) -> dict[str, str]:
    """A rank's error as it travels to the others: its class, spec ID and message (without the ID)."""
    suffix = f" (spec {error.spec_id})"
    message = str(error)
    return {
        "error": type(error).__name__ if type(error).__name__ in _ERRORS else "BleuError",
        "spec_id": error.spec_id,
        "message": message[: -len(suffix)] if message.endswith(suffix) else message,
    }


def check_conventions(mine: Conventions | BleuError, reducer: Reducer, mode: str = "summed") -> None:
    """NUM-PARTIAL. One gather of every rank's conventions (or error); on every rank, the same error.

    Every rank calls it before any other collective, with its conventions or the error its
    options or rows gave (``mode``: how it will add its rows, ``summed`` or ``indexed``). Any
    rank's error is raised on every rank, naming that rank, its spec ID and the option or row;
    then conventions or modes that differ, naming the first option that differs. So an option
    invalid on one rank, or other options on another, is an error everywhere, never a rank waiting
    for a collective the failed rank will not join.
    """
    sent: dict[str, Any] = (
        _failure(mine) if isinstance(mine, BleuError) else {"conventions": mine.description(), "mode": mode}
    )
    gathered = reducer.all_gather_object(sent)
    for rank, other in enumerate(gathered):
        if isinstance(other, dict) and "error" in other:
            raise _ERRORS[other["error"]](other["spec_id"], f"rank {rank}: {other['message']}")
    for rank, other in enumerate(gathered):
        theirs = other if isinstance(other, dict) else {}
        differs = described_difference(sent["conventions"], theirs.get("conventions", {}))
        if differs is not None:
            raise BleuInputError("NUM-PARTIAL", f"rank {rank} counts under other conventions: {differs}")
        if theirs.get("mode") != mode:
            raise BleuInputError(
                "NUM-PARTIAL",
                f"rank {rank} adds its rows {theirs.get('mode')} and this rank {mode}: "
                "give every rank's dataset indices, or none",
            )


def sync_partial(partial: Partial, reducer: Reducer | None = None) -> Partial:
    """NUM-PARTIAL. The sum of every rank's partial: conventions checked once, one int64 all-reduce."""
    chosen = _default_reducer(reducer)
    check_conventions(partial.conventions, chosen)
    return Partial.from_vector(partial.conventions, chosen.all_reduce_sum(partial.to_vector()))


def sync_indexed(
    indexed: Sequence[tuple[int, Partial]], conventions: Conventions, reducer: Reducer | None = None
) -> Partial:
    """NUM-PARTIAL. Every rank's indexed one-row partials gathered, each dataset index counted once.

    For samplers that repeat rows and for conventions that need each segment; the rows travel
    as pickled partials (one all_gather_object), so it costs more than :func:`sync_partial`.
    """
    chosen = _default_reducer(reducer)
    check_conventions(conventions, chosen, "indexed")
    gathered = chosen.all_gather_object(list(indexed))
    return union_of_indexed((pair for share in gathered for pair in share), conventions)  # type: ignore[attr-defined]


def distributed_bleu(
    hypotheses: object,
    references: object,
    profile: str | None = None,
    *,
    indices: Iterable[int] | None = None,
    reducer: Reducer | None = None,
    **options: Any,
) -> BleuResult:
    """BLEU of every rank's rows, the same on every rank: this rank's share of the corpus in, the score out.

    Options and ``profile`` as :func:`~reference_bleu.corpus_bleu` (text under a tokenizer or a
    profile, else tokens). With ``indices`` (the dataset index of each row, e.g. from the
    sampler), each index counts once (:func:`sync_indexed`); without, one int64 all-reduce
    (:func:`sync_partial`), which counts padded duplicates as often as they were given. An
    option or row that fails on one rank, or options that differ between ranks, raise the same
    error on every rank (:func:`check_conventions`).
    """
    chosen = _default_reducer(reducer)
    try:
        rows = rows_of(hypotheses, references)
        conventions = _conventions(profile, options)
        if indices is None and conventions.keeps_segments:
            raise BleuInputError(
                "NUM-PARTIAL",
                "these conventions need each segment (macro, nltk's denominators or methods 5-7): "
                "give each row's dataset index (indices=...)",
            )
        if indices is None:
            summed = partial_statistics(rows, conventions)
        else:
            indexed = indexed_partials(_indexed_rows(indices, rows), conventions)
    except BleuError as error:  # raised on every rank, not only here: no rank waits for this one
        check_conventions(error, chosen)
        raise
    if indices is None:
        return sync_partial(summed, chosen).score()
    return sync_indexed(indexed, conventions, chosen).score()


def _conventions(profile: str | None, options: dict[str, Any]) -> Conventions:
    """The conventions of a profile and options: text under a tokenizer or a profile, else tokens."""
    text = bool(split_text_options(options)[0]) or profile is not None
    return make_conventions(profile, text=text, **options)


def _indexed_rows(indices: object, rows: list[tuple[object, object]]) -> list[tuple[int, object, object]]:
    """Each row with its dataset index (a sequence or a tensor of ints, one per row)."""
    listed = indices.tolist() if hasattr(indices, "tolist") else indices
    if isinstance(listed, int) or not isinstance(listed, Iterable):
        raise BleuInputError("NUM-PARTIAL", "indices must be a sequence (or a tensor) of dataset indices")
    numbers = list(listed)
    if len(numbers) != len(rows):
        raise BleuInputError("NUM-PARTIAL", f"{len(numbers)} indices for {len(rows)} rows: one index per row")
    return [(index, h, r) for index, (h, r) in zip(numbers, rows, strict=True)]


def _metric_base() -> Any:
    try:  # an optional extra
        return importlib.import_module("torchmetrics").Metric
    except ImportError:
        return object


_METRIC = _metric_base()


#: torchmetrics' own ``Metric`` arguments, passed to it with their meaning (the rest are BLEU's options).
METRIC_ARGUMENTS = (
    "compute_on_cpu",
    "dist_sync_on_step",
    "process_group",
    "dist_sync_fn",
    "distributed_available_fn",
    "sync_on_compute",
    "compute_with_cache",
)


class TorchBLEU(_METRIC):  # type: ignore[misc,valid-type]
    """A torchmetrics ``Metric``: the state is NUM-PARTIAL's int64 vector, summed exactly on sync.

    ``update(preds, target)`` takes lines of text (under a tokenizer or a profile) or token
    lists and one entry of ``target`` per prediction; ``update(preds, target, indices)`` with
    each row's dataset index (as a ``DistributedSampler`` deals them) keeps those rows as
    indexed one-row vectors, gathered on sync, each index counted once: a sampler's padding
    (rows dealt twice to fill the last batch) is not counted twice. ``compute()`` returns the
    score as a float64 tensor on the metric's device (``result()`` the full
    :class:`~reference_bleu.BleuResult`). The state lives on the metric's device (``.to(device)``;
    NCCL gathers device tensors). torchmetrics' arguments (:data:`METRIC_ARGUMENTS`:
    ``sync_on_compute``, ``dist_sync_on_step``, ``process_group``, ``compute_on_cpu``, ...) keep
    their meaning; every other keyword is a BLEU option.

    Where the metric syncs across ranks, it is made on every rank of its group (as DDP's modules
    are) and its constructor gathers every rank's conventions once: an option invalid on one
    rank, or options that differ, raise the same error on every rank, naming the rank and the
    option. The conventions' fingerprint is a state too, reduced first on every sync by a check
    that every rank has the same. Conventions that need each segment are refused: use
    :func:`distributed_bleu` with indices.
    """

    full_state_update = False
    is_differentiable = False
    higher_is_better = True
    indexed: Any  # the states (add_state sets them)
    statistics: Any

    def __init__(self, profile: str | None = None, **options: Any) -> None:
        torch = _torch()
        if _METRIC is object:
            raise BleuOptionError(
                "NUM-PARTIAL", "TorchBLEU needs torchmetrics: pip install 'reference-bleu[torchmetrics]'"
            )
        arguments = {name: options.pop(name) for name in METRIC_ARGUMENTS if name in options}
        mine: Conventions | BleuError | None = None
        try:
            super().__init__(**arguments)
        except (TypeError, ValueError) as error:  # told to every rank below, as a bad option is
            super().__init__(process_group=arguments.get("process_group"))
            mine = BleuOptionError("API-OPTIONS", f"torchmetrics' Metric arguments: {error}")
        if mine is None:
            try:
                mine = _conventions(profile, options)
                if mine.keeps_segments:
                    raise BleuOptionError(
                        "NUM-PARTIAL",
                        "these conventions need each segment (macro, nltk's denominators or methods 5-7); "
                        "a summed state cannot carry them: use distributed_bleu with indices",
                    )
            except BleuError as error:
                mine = error
        if self._syncs_across_ranks():
            check_conventions(mine, TorchReducer(self.process_group, device="cpu"), "metric")
        if isinstance(mine, BleuError):
            raise mine
        self.conventions = mine
        length = mine.vector_length
        digest = int(mine.fingerprint[:15], 16)  # 60 bits: fits an int64
        # The fingerprint first: its reduction raises on every rank before differing statistics are stacked.
        self.add_state("fingerprint", default=torch.tensor([digest], dtype=torch.int64), dist_reduce_fx=_same)
        self.add_state("statistics", default=torch.zeros(length, dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("indexed", default=[], dist_reduce_fx="cat")

    def _syncs_across_ranks(self) -> bool:
        """Whether this metric will gather from other ranks (torch.distributed up, a group of 2 or more)."""
        if not (self.sync_on_compute or self.dist_sync_on_step) or not self.distributed_available_fn():
            return False
        return int(_torch().distributed.get_world_size(self.process_group)) > 1

    def update(self, preds: object, target: object, indices: object = None) -> None:
        """Count a batch into the int64 state; with ``indices``, as indexed rows (each index counted once)."""
        torch = _torch()
        rows = rows_of(preds, target)
        device = self.statistics.device
        if indices is None:
            part = partial_statistics(rows, self.conventions)
            self.statistics += torch.tensor(part.to_vector(), dtype=torch.int64, device=device)
            return
        counted = indexed_partials(_indexed_rows(indices, rows), self.conventions)
        vectors = [[index, *part.to_vector()] for index, part in counted]
        width = 1 + self.conventions.vector_length
        self.indexed.append(torch.tensor(vectors, dtype=torch.int64, device=device).reshape(-1, width))

    def _sync_dist(self, *args: Any, **kwargs: Any) -> None:
        """torchmetrics' sync; no rank's indexed rows an empty list (its stand-in would be a float tensor)."""
        if isinstance(self.indexed, list) and not self.indexed:
            width = 1 + self.conventions.vector_length
            self.indexed = [_torch().zeros((0, width), dtype=_torch().int64, device=self.statistics.device)]
        super()._sync_dist(*args, **kwargs)

    def _state_partial(self) -> Partial:
        """The summed state plus the indexed rows, each index once (NUM-PARTIAL), from Python integers."""
        total = Partial.from_vector(self.conventions, [int(x) for x in self.statistics.cpu().tolist()])
        rows: Any = self.indexed
        if isinstance(rows, list):
            rows = _torch().cat(rows) if rows else None
        if rows is None or not rows.numel():
            return total
        indexed = [(row[0], Partial.from_vector(self.conventions, row[1:])) for row in rows.cpu().tolist()]
        return total + union_of_indexed(indexed, self.conventions)

    def result(self) -> BleuResult:
        """The full result of every rank's state (synced as ``compute`` syncs, then left local)."""
        if self._is_synced:
            return self._state_partial().score()
        with self.sync_context(should_sync=self.sync_on_compute, should_unsync=True):
            return self._state_partial().score()

    def compute(self) -> Any:
        """The score, as a float64 tensor on the metric's device; torchmetrics syncs around it."""
        torch = _torch()
        return torch.tensor(
            self._state_partial().score().score, dtype=torch.float64, device=self.statistics.device
        )


def _same(gathered: Any) -> Any:
    """The reduction of the fingerprint state: every rank's must be equal."""
    flat = gathered.reshape(-1)
    if bool((flat != flat[0]).any()):
        raise BleuInputError("NUM-PARTIAL", "the ranks' TorchBLEU metrics count under other conventions")
    return flat[:1]
