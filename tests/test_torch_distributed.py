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
from datetime import timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from conformance.data import WMT17, read_lines
from reference_bleu import (
    BleuError,
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


PADDED = 401  # rows dealt by a shuffled DistributedSampler: 401 is odd, so 2 and 4 ranks pad


def caught(make: Callable[[], object]) -> list[str] | None:
    """The BleuError ``make()`` raised, as [class name, message]; None when it returned."""
    try:
        make()
    except BleuError as error:
        return [type(error).__name__, str(error)]
    return None


def statistics(result: Any) -> list[Any]:
    return [
        list(result.matches),
        list(result.totals),
        result.hyp_len,
        result.ref_len,
        str(result.score_decimal),
    ]


def _worker(rank: int, world: int, port: int, out: str) -> None:
    """One rank: sums, padded samplers, TorchBLEU with torchmetrics' arguments, errors on every rank."""
    torch: Any = importlib.import_module("torch")
    dist: Any = importlib.import_module("torch.distributed")  # only where torch is installed
    data: Any = importlib.import_module("torch.utils.data")
    from reference_bleu.integrations.torch import TorchBLEU  # noqa: PLC0415

    address = f"tcp://127.0.0.1:{port}"
    dist.init_process_group(
        "gloo", init_method=address, rank=rank, world_size=world, timeout=timedelta(seconds=120)
    )
    try:
        hyps, refs = wmt17(PADDED)
        report: dict[str, Any] = {}
        result = distributed_bleu(hyps[rank::world], refs[rank::world], "sacrebleu")
        report["sum"] = statistics(result)
        # A shuffled sampler pads PADDED rows to a multiple of world with rows dealt twice.
        sampler = data.DistributedSampler(range(PADDED), num_replicas=world, rank=rank, shuffle=True, seed=11)
        mine = list(sampler)
        report["indices"] = mine
        indexed, plain = TorchBLEU("sacrebleu"), TorchBLEU("sacrebleu", compute_on_cpu=True)
        local = TorchBLEU("sacrebleu", sync_on_compute=False)
        for start in range(0, len(mine), 16):  # batches of 16, as a DataLoader over the sampler gives them
            batch = mine[start : start + 16]
            h, r = [hyps[i] for i in batch], [refs[i] for i in batch]
            indexed.update(h, r, indices=torch.tensor(batch))
            plain.update(h, r)
            local.update(h, r)
        report["indexed"] = statistics(indexed.result())
        report["indexed_value"] = float(indexed.compute())
        report["plain"] = statistics(plain.result())
        report["local"] = statistics(local.result())
        h, r = [hyps[i] for i in mine], [refs[i] for i in mine]
        report["bleu_indexed"] = statistics(distributed_bleu(h, r, "sacrebleu", indices=mine))
        pair = dist.new_group([0, 1])  # every rank makes the group; ranks 0 and 1 sync in it
        if rank in (0, 1):
            paired = TorchBLEU("sacrebleu", process_group=pair)
            paired.update(hyps[rank::world], refs[rank::world])
            report["pair"] = statistics(paired.result())
        dist.barrier()
        last = world - 1
        report["invalid_on_one"] = caught(
            lambda: TorchBLEU(tokenize="13a", max_order=0 if rank == last else 4)
        )
        report["mismatch"] = caught(lambda: TorchBLEU(tokenize="13a", max_order=4 if rank == 0 else 2))
        report["argument_on_one"] = caught(
            lambda: TorchBLEU("sacrebleu", sync_on_compute=rank if rank else True)
        )
        report["bleu_invalid_on_one"] = caught(
            lambda: distributed_bleu(["a b"], ["a b"], tokenize="13a" if rank else "13b")
        )
        report["bleu_mismatch"] = caught(
            lambda: distributed_bleu(["a b"], ["a b"], tokenize=("13a", "intl")[rank % 2])
        )
        report["indices_on_one"] = caught(
            lambda: distributed_bleu(["a b"], ["a b"], tokenize="13a", indices=[rank] if rank == 0 else None)
        )
        report["after"] = statistics(
            distributed_bleu(["a b"], ["a b"], tokenize="13a")
        )  # the ranks still agree
        Path(out, f"rank{rank}.json").write_text(json.dumps(report), encoding="utf-8")
    finally:
        dist.destroy_process_group()


@pytest.mark.slow
@pytest.mark.parametrize("world", [2, 4])
def test_gloo_ranks_under_a_padded_shuffled_sampler_give_one_processs_bleu(
    tmp_path: Path, world: int
) -> None:
    pytest.importorskip("torch", reason="torch.distributed needs the torch extra")
    pytest.importorskip("torchmetrics", reason="TorchBLEU needs the torchmetrics extra")
    mp: Any = importlib.import_module("torch.multiprocessing")

    mp.spawn(_worker, args=(world, _free_port(), str(tmp_path)), nprocs=world, join=True)
    reports = [json.loads((tmp_path / f"rank{k}.json").read_text(encoding="utf-8")) for k in range(world)]
    hyps, refs = wmt17(PADDED)
    whole = statistics(corpus_bleu(hyps, refs, profile="sacrebleu"))
    dealt = [i for report in reports for i in report["indices"]]
    assert len(dealt) == -(-PADDED // world) * world > PADDED  # padded: some rows dealt twice
    assert sorted(set(dealt)) == list(range(PADDED))
    twice = statistics(corpus_bleu([hyps[i] for i in dealt], [refs[i] for i in dealt], profile="sacrebleu"))
    assert twice != whole
    one = corpus_bleu(hyps, refs, profile="sacrebleu")
    for rank, report in enumerate(reports):
        assert report["sum"] == whole
        assert report["indexed"] == whole  # each dataset index once: exact under the padding
        assert report["indexed_value"] == one.score
        assert report["bleu_indexed"] == whole
        assert report["plain"] == twice  # without indices the padding counts twice
        mine = report["indices"]
        assert report["local"] == statistics(  # sync_on_compute=False: this rank's rows only
            corpus_bleu([hyps[i] for i in mine], [refs[i] for i in mine], profile="sacrebleu")
        )
        if rank in (0, 1):  # process_group: ranks 0 and 1 only
            rows = [k for k in range(PADDED) if k % world in (0, 1)]
            assert report["pair"] == statistics(
                corpus_bleu([hyps[k] for k in rows], [refs[k] for k in rows], profile="sacrebleu")
            )
        # An error on one rank is the same error on every rank, naming the rank and the option.
        assert report["invalid_on_one"] == [
            "BleuOptionError",
            f"rank {world - 1}: N (max_order) must be an int in 1..100, got 0 (spec BLEU-WEIGHTS)",
        ]
        kind, message = report["mismatch"]
        assert kind == "BleuInputError"
        assert (
            "max_order is 4 here and 2 there" if rank == 0 else "max_order is 2 here and 4 there"
        ) in message
        kind, message = report["argument_on_one"]
        assert (kind, message.split(":")[0]) == ("BleuOptionError", "rank 1")
        assert "sync_on_compute" in message
        kind, message = report["bleu_invalid_on_one"]
        assert (kind, message.split(":")[0]) == ("BleuOptionError", "rank 0")
        assert "13b" in message
        kind, message = report["bleu_mismatch"]
        assert kind == "BleuInputError"
        assert "tokenize is" in message
        assert report["indices_on_one"] == [
            "BleuInputError",
            f"rank {1 if rank == 0 else 0} adds its rows {'summed' if rank == 0 else 'indexed'} and this rank "
            f"{'indexed' if rank == 0 else 'summed'}: give every rank's dataset indices, or none (spec NUM-PARTIAL)",
        ]
        assert report["after"] == statistics(corpus_bleu(["a b"] * world, ["a b"] * world, tokenize="13a"))


def test_the_metrics_arguments_state_and_device() -> None:
    torch: Any = pytest.importorskip("torch", reason="TorchBLEU's state is a torch tensor")
    pytest.importorskip("torchmetrics", reason="TorchBLEU needs the torchmetrics extra")
    from reference_bleu.integrations.torch import TorchBLEU  # noqa: PLC0415

    metric = TorchBLEU("sacrebleu", compute_on_cpu=True, sync_on_compute=False, compute_with_cache=False)
    assert (metric.compute_on_cpu, metric.sync_on_compute, metric.compute_with_cache) == (True, False, False)
    hyps, refs = wmt17(40)
    metric.update(hyps[:30], refs[:30], indices=list(range(30)))
    metric.update(hyps[25:], refs[25:], indices=torch.arange(25, 40))  # rows 25-29 again: counted once
    whole = corpus_bleu(hyps, refs, profile="sacrebleu")
    assert statistics(metric.result()) == statistics(whole)
    value = metric.compute()
    assert (value.dtype, value.device, float(value)) == (torch.float64, metric.statistics.device, whole.score)
    assert metric.statistics.dtype == torch.int64
    with pytest.raises(BleuOptionError, match="dist_sync_on_step") as caught_error:
        TorchBLEU(dist_sync_on_step="yes")
    assert caught_error.value.spec_id == "API-OPTIONS"
    with pytest.raises(BleuInputError, match="3 indices for 2 rows"):
        metric.update(hyps[:2], refs[:2], indices=[0, 1, 2])


def test_the_state_follows_the_metric_to_a_gpu() -> None:
    torch: Any = pytest.importorskip("torch", reason="TorchBLEU's state is a torch tensor")
    pytest.importorskip("torchmetrics", reason="TorchBLEU needs the torchmetrics extra")
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device on this machine (the CPU path is tested above)")
    from reference_bleu.integrations.torch import TorchBLEU  # noqa: PLC0415

    metric = TorchBLEU("sacrebleu").to("cuda")
    hyps, refs = wmt17(40)
    metric.update(hyps, refs)
    assert metric.statistics.device.type == "cuda"
    value = metric.compute()
    assert value.device.type == "cuda"
    assert float(value) == corpus_bleu(hyps, refs, profile="sacrebleu").score


def test_each_rank_stays_below_2_to_the_24_until_about_950k_segments() -> None:
    # torchmetrics keeps its counts in float32 per process: exact up to 2^24 = 16,777,216. Under
    # DDP each rank counts its own share, so the drift starts where one rank's hypothesis unigrams
    # pass 2^24: at 17.71 whitespace tokens a segment on the 16 WMT17 systems, after 947,300
    # segments on that rank (in one process, after 947,300 segments in all).
    refs = read_lines(WMT17, "ref.de")
    tokens = sum(len(line.split()) for name in WMT17.systems for line in read_lines(WMT17, name))
    segments = 16 * len(refs)
    assert (segments, tokens) == (48_064, 851_240)
    assert 2**24 * segments // tokens == 947_300


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
