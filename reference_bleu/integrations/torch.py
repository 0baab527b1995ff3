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
from reference_bleu.errors import BleuInputError, BleuOptionError
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
    """The collectives of ``torch.distributed`` (any backend with int64 SUM: gloo, nccl, mpi)."""

    def __init__(self, group: Any = None, device: Any = None) -> None:
        self.torch = _torch()
        self.group = group
        self.device = device if device is not None else "cpu"
        if not self.torch.distributed.is_initialized():
            raise BleuOptionError("NUM-PARTIAL", "torch.distributed is not initialised (init_process_group)")

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


def check_conventions(conventions: Conventions, reducer: Reducer) -> None:
    """NUM-PARTIAL. One gather of the ranks' conventions; on every rank, an error naming what differs."""
    mine = conventions.description()
    for rank, other in enumerate(reducer.all_gather_object(mine)):
        differs = described_difference(mine, other if isinstance(other, dict) else {})
        if differs is not None:
            raise BleuInputError("NUM-PARTIAL", f"rank {rank} counts under other conventions: {differs}")


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
    check_conventions(conventions, chosen)
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
    (:func:`sync_partial`), which counts padded duplicates as often as they were given.
    """
    rows = rows_of(hypotheses, references)
    text = bool(split_text_options(options)[0]) or profile is not None
    conventions = make_conventions(profile, text=text, **options)
    if indices is None and not conventions.keeps_segments:
        return sync_partial(partial_statistics(rows, conventions), reducer).score()
    if indices is None:
        raise BleuInputError(
            "NUM-PARTIAL",
            "these conventions need each segment (macro, nltk's denominators or methods 5-7): "
            "give each row's dataset index (indices=...)",
        )
    keyed = [(index, h, r) for index, (h, r) in zip(indices, rows, strict=True)]
    return sync_indexed(indexed_partials(keyed, conventions), conventions, reducer).score()


def _metric_base() -> Any:
    try:  # an optional extra
        return importlib.import_module("torchmetrics").Metric
    except ImportError:
        return object


_METRIC = _metric_base()


class TorchBLEU(_METRIC):  # type: ignore[misc,valid-type]
    """A torchmetrics ``Metric``: the state is NUM-PARTIAL's int64 vector, summed exactly on sync.

    ``update(preds, target)`` takes lines of text (under a tokenizer or a profile) or token
    lists and one entry of ``target`` per prediction; ``compute()`` returns the score as a
    float64 tensor (``result()`` the full :class:`~reference_bleu.BleuResult`). The conventions'
    fingerprint is a state too, reduced by a check that every rank has the same. Conventions
    that need each segment are refused: use :func:`distributed_bleu` with indices.
    """

    full_state_update = False
    is_differentiable = False
    higher_is_better = True

    def __init__(self, profile: str | None = None, **options: Any) -> None:
        torch = _torch()
        if _METRIC is object:
            raise BleuOptionError(
                "NUM-PARTIAL", "TorchBLEU needs torchmetrics: pip install 'reference-bleu[torchmetrics]'"
            )
        super().__init__()
        text = bool(split_text_options(options)[0]) or profile is not None
        self.conventions = make_conventions(profile, text=text, **options)
        if self.conventions.keeps_segments:
            raise BleuOptionError(
                "NUM-PARTIAL",
                "these conventions need each segment (macro, nltk's denominators or methods 5-7); "
                "a summed state cannot carry them: use distributed_bleu with indices",
            )
        length = self.conventions.vector_length
        self.add_state("statistics", default=torch.zeros(length, dtype=torch.int64), dist_reduce_fx="sum")
        digest = int(self.conventions.fingerprint[:15], 16)  # 60 bits: fits an int64
        self.add_state("fingerprint", default=torch.tensor([digest], dtype=torch.int64), dist_reduce_fx=_same)

    def update(self, preds: object, target: object) -> None:
        """Count a batch into the int64 state."""
        torch = _torch()
        part = partial_statistics(rows_of(preds, target), self.conventions)
        self.statistics += torch.tensor(part.to_vector(), dtype=torch.int64, device=self.statistics.device)

    def _state_result(self) -> BleuResult:
        return Partial.from_vector(self.conventions, [int(x) for x in self.statistics.cpu().tolist()]).score()

    def result(self) -> BleuResult:
        """The full result of every rank's state (synced as ``compute`` syncs, then left local)."""
        if self._is_synced:
            return self._state_result()
        with self.sync_context(should_sync=True, should_unsync=True):
            return self._state_result()

    def compute(self) -> Any:
        """The score, as a float64 tensor (the double of the exact BLEU); torchmetrics syncs around it."""
        return _torch().tensor(self._state_result().score, dtype=_torch().float64)


def _same(gathered: Any) -> Any:
    """The reduction of the fingerprint state: every rank's must be equal."""
    flat = gathered.reshape(-1)
    if bool((flat != flat[0]).any()):
        raise BleuInputError("NUM-PARTIAL", "the ranks' TorchBLEU metrics count under other conventions")
    return flat[:1]
