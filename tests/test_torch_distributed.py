"""BLEU under torch.distributed (spec NUM-PARTIAL): two gloo processes give one process's statistics.

The oracle is one ``corpus_bleu`` over the whole corpus (checked against sacrebleu in
tests/test_text_api.py). The float32 undercount is computed by hand below.
"""

from __future__ import annotations

import importlib
import json
import socket
import threading
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conformance.data import WMT17, read_lines
from reference_bleu import (
    BleuInputError,
    BleuOptionError,
    Partial,
    corpus_bleu,
    make_conventions,
    partial_statistics,
)
from reference_bleu.integrations.torch import ThreadGroup, distributed_bleu, sync_partial

SIZE = 400  # WMT17 segments scored in the two-process test


def wmt17(n: int = SIZE) -> tuple[list[str], list[str]]:
    return read_lines(WMT17, WMT17.systems[0])[:n], read_lines(WMT17, "ref.de")[:n]


def run_ranks(rank: Callable[[int], None], size: int) -> None:
    """``rank(k)`` for k = 0..size-1, each in its own thread, as the ranks of a ThreadGroup."""
    threads = [threading.Thread(target=rank, args=(k,)) for k in range(size)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_the_float32_undercount_that_an_int64_sum_avoids() -> None:
    numpy = pytest.importorskip("numpy", reason="numpy shows binary32 arithmetic")
    # By hand: 2^24 + 1 = 16,777,217 lies between the binary32 neighbours 16,777,216 and
    # 16,777,218 (their spacing is 2 from 2^24 on); the tie rounds to the even significand,
    # 16,777,216. So a float32 count at 2^24 stops growing: adding 1 eight times leaves it there.
    count = numpy.float32(2**24)
    for _ in range(8):
        count += numpy.float32(1)
    assert int(count) == 16_777_216  # exact: 16,777,224
    # The same in a sync: rank 0 holds 2^23 + 1 = 8,388,609 unigrams, rank 1 holds 2^23 = 8,388,608
    # (both exact in binary32); their float32 sum 16,777,217 rounds to 16,777,216.
    ranks = numpy.array([2**23 + 1, 2**23], dtype=numpy.float32)
    assert int(ranks.sum(dtype=numpy.float32)) == 16_777_216
    assert int(numpy.array([2**23 + 1, 2**23], dtype=numpy.int64).sum()) == 16_777_217
    # Partials with those unigram totals (one segment each, 1 match, r = 1), summed as int64
    # vectors [segments, c, r, m_1, l_1] the way an all-reduce adds them: l_1 = 16,777,217 exactly.
    conventions = make_conventions(text=False, max_order=1)
    one = Partial(conventions, 1, (1,), (2**23 + 1,), 2**23 + 1, (1,))
    other = Partial(conventions, 1, (1,), (2**23,), 2**23, (1,))
    vectors = numpy.array([one.to_vector(), other.to_vector()], dtype=numpy.int64)
    summed = [int(x) for x in vectors.sum(axis=0)]
    assert summed == [2, 16_777_217, 2, 2, 16_777_217]
    total = Partial.from_vector(conventions, summed)
    assert total == one + other
    # p_1 = 2 / 16,777,217 exactly; float32 totals would have given 2 / 16,777,216.
    assert total.score().precisions[0] == Fraction(2, 16_777_217)


def test_ranks_as_threads_sum_their_partials_exactly_without_torch() -> None:
    hyps, refs = wmt17(300)
    group = ThreadGroup(3)
    results: dict[int, Any] = {}

    def rank(k: int) -> None:
        results[k] = distributed_bleu(hyps[k::3], refs[k::3], "sacrebleu", reducer=group.rank(k))

    run_ranks(rank, 3)
    whole = corpus_bleu(hyps, refs, profile="sacrebleu")
    assert [results[k].statistics for k in range(3)] == [whole.statistics] * 3
    assert {results[k].score_decimal for k in range(3)} == {whole.score_decimal}


def test_ranks_under_other_conventions_fail_on_every_rank_naming_the_option() -> None:
    group = ThreadGroup(2)
    errors: dict[int, str] = {}

    def rank(k: int) -> None:
        conventions = make_conventions(tokenize=("13a", "intl")[k])
        try:
            sync_partial(partial_statistics([("a b", ["a b"])], conventions), group.rank(k))
        except BleuInputError as error:
            errors[k] = str(error)

    run_ranks(rank, 2)
    assert "rank 1 counts under other conventions: tokenize is '13a' here and 'intl' there" in errors[0]
    assert "rank 0 counts under other conventions: tokenize is 'intl' here and '13a' there" in errors[1]


def test_padded_duplicates_count_once_with_indices_threads() -> None:
    # DistributedSampler(5 samples, 2 replicas, shuffle=False) gives rank 0 indices 0, 2, 4 and
    # rank 1 indices 1, 3, 0: index 0 is padded in twice.
    hyps, refs = wmt17(5)
    shares = {0: [0, 2, 4], 1: [1, 3, 0]}
    group = ThreadGroup(2)
    summed: dict[int, Any] = {}
    indexed: dict[int, Any] = {}

    def rank(k: int) -> None:
        mine = shares[k]
        h, r = [hyps[i] for i in mine], [refs[i] for i in mine]
        summed[k] = distributed_bleu(h, r, tokenize="13a", reducer=group.rank(k))
        indexed[k] = distributed_bleu(h, r, tokenize="13a", indices=mine, reducer=group.rank(k))

    run_ranks(rank, 2)
    whole = corpus_bleu(hyps, refs, tokenize="13a")
    once_more = corpus_bleu([*hyps, hyps[0]], [*refs, refs[0]], tokenize="13a")
    assert summed[0].statistics == summed[1].statistics == once_more.statistics != whole.statistics
    assert indexed[0].statistics == indexed[1].statistics == whole.statistics


# --- two processes, gloo ---------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _worker(rank: int, world: int, port: int, out: str) -> None:
    """One rank: sum, padding-safe gather, the torchmetrics wrapper, and a conventions mismatch."""
    dist: Any = importlib.import_module("torch.distributed")  # only where torch is installed
    data: Any = importlib.import_module("torch.utils.data")
    from reference_bleu.integrations.torch import TorchBLEU  # noqa: PLC0415

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    try:
        hyps, refs = wmt17()
        report: dict[str, Any] = {}
        result = distributed_bleu(hyps[rank::world], refs[rank::world], "sacrebleu")
        report["sum"] = [list(result.matches), list(result.totals), result.hyp_len, result.ref_len]
        report["sum_score"] = str(result.score_decimal)
        sampler = data.DistributedSampler(range(5), num_replicas=world, rank=rank, shuffle=False)
        mine = list(sampler)
        h, r = [hyps[i] for i in mine], [refs[i] for i in mine]
        report["indices"] = mine
        report["padded"] = list(distributed_bleu(h, r, tokenize="13a").totals)
        report["indexed"] = list(distributed_bleu(h, r, tokenize="13a", indices=mine).totals)
        metric = TorchBLEU("sacrebleu")
        for start in range(rank * 50, SIZE, world * 50):  # batches of 50 rows, dealt to the ranks in turn
            metric.update(hyps[start : start + 50], refs[start : start + 50])
        report["metric"] = [list(metric.result().matches), str(metric.result().score_decimal)]
        report["metric_value"] = float(metric.compute())
        try:
            distributed_bleu(["a b"], ["a b"], tokenize=("13a", "intl")[rank])
        except BleuInputError as error:
            report["mismatch"] = str(error)
        Path(out, f"rank{rank}.json").write_text(json.dumps(report), encoding="utf-8")
    finally:
        dist.destroy_process_group()


@pytest.mark.slow
def test_two_gloo_processes_give_one_processs_statistics(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason="torch.distributed needs the torch extra")
    pytest.importorskip("torchmetrics", reason="TorchBLEU needs the torchmetrics extra")
    mp: Any = importlib.import_module("torch.multiprocessing")

    mp.spawn(_worker, args=(2, _free_port(), str(tmp_path)), nprocs=2, join=True)
    reports = [json.loads((tmp_path / f"rank{k}.json").read_text(encoding="utf-8")) for k in range(2)]
    hyps, refs = wmt17()
    whole = corpus_bleu(hyps, refs, profile="sacrebleu")
    expected = [list(whole.matches), list(whole.totals), whole.hyp_len, whole.ref_len]
    five = corpus_bleu(hyps[:5], refs[:5], tokenize="13a")
    padded = corpus_bleu([*hyps[:5], hyps[0]], [*refs[:5], refs[0]], tokenize="13a")
    for report in reports:
        assert report["sum"] == expected
        assert report["sum_score"] == str(whole.score_decimal)
        assert report["metric"] == [list(whole.matches), str(whole.score_decimal)]
        assert report["metric_value"] == whole.score
        assert report["padded"] == list(padded.totals) != list(five.totals)
        assert report["indexed"] == list(five.totals)
    assert sorted(reports[0]["indices"] + reports[1]["indices"]) == [0, 0, 1, 2, 3, 4]  # 0 padded in twice
    assert "tokenize is '13a' here and 'intl' there" in reports[0]["mismatch"]
    assert "tokenize is 'intl' here and '13a' there" in reports[1]["mismatch"]


def test_without_torch_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys  # noqa: PLC0415

    from reference_bleu.integrations.torch import TorchReducer  # noqa: PLC0415

    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    with pytest.raises(BleuOptionError, match=r"reference-bleu\[torchmetrics\]") as caught:
        TorchReducer()
    assert caught.value.spec_id == "NUM-PARTIAL"


def test_the_metrics_fingerprint_state_refuses_other_conventions_and_kept_segments() -> None:
    torch: Any = pytest.importorskip("torch", reason="the state's reduction runs on torch tensors")
    pytest.importorskip("torchmetrics", reason="TorchBLEU needs the torchmetrics extra")
    from reference_bleu.integrations.torch import TorchBLEU, _same  # noqa: PLC0415

    assert _same(torch.tensor([[7], [7]], dtype=torch.int64)).tolist() == [7]
    with pytest.raises(BleuInputError, match="other conventions"):
        _same(torch.tensor([[7], [8]], dtype=torch.int64))
    with pytest.raises(BleuOptionError, match="need each segment"):
        TorchBLEU("nltk")  # nltk's per-segment denominator (EC-015): a sum cannot carry it
