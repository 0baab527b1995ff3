"""The resampling of SIG-BOOTSTRAP, SIG-PAIRED-BS and SIG-PAIRED-AR computed all at once, against the tool.

The significance tests sum every resample as an integer matrix product and score all resamples
together (``reference_bleu.analysis.significance``); the oracle is sacrebleu 2.6.0 itself: its
``BLEU.compute_bleu`` on each row, given the numbers in the types its own procedures give it
(numpy int64 sums for the randomization, float32 sums for the bootstrap), and its
``_bootstrap_resample`` on the same statistics and seed. The sums are checked against Python's
integers. Whole command lines are compared byte for byte in tests/test_cli_printed.py.
"""

from __future__ import annotations

import importlib.util
import random
from typing import Any

import pytest

from reference_bleu.analysis import significance
from reference_bleu.analysis.significance import (
    _exact_product,
    _Resampler,
    paired_randomization_tests,
    sacrebleu_scores,
)
from reference_bleu.conventions.space import resolve_point
from reference_bleu.formulas.statistics import Statistics
from reference_bleu.scoring.floating import sacrebleu_row

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("numpy") is None or importlib.util.find_spec("sacrebleu") is None,
    reason="resampling needs numpy (the significance extra); the oracle is sacrebleu (the test extra)",
)


def _rng(seed: object) -> random.Random:
    return random.Random(str(seed))  # noqa: S311 -- reproducible test data, not a secret


def _options(smoothing: str, effective: bool, order: int = 4) -> Any:
    eff = "true" if effective else "false"
    return resolve_point(f"sacrebleu[smooth={smoothing},eff={eff}]", {"max_order": order}).options


def _rows(rng: random.Random, count: int, order: int, scale: int) -> list[list[int]]:
    """Summed statistics [c, r, m_1..m_N, l_1..l_N] as sums of segments give them, with the edges:
    c = 0, c < r, orders without matches, zero totals above a short candidate."""
    rows = []
    for _ in range(count):
        c = rng.choice([0, 1, 2, 3, rng.randint(0, 8), rng.randint(0, scale)])
        r = rng.choice([c, c + 1, max(0, c - 2), rng.randint(0, scale)])
        totals = [
            max(0, c - n) if rng.random() < 0.7 else rng.randint(0, max(0, c - n)) for n in range(order)
        ]
        matches = [0 if rng.random() < 0.1 else rng.choice([t, rng.randint(0, t)]) for t in totals]
        rows.append([c, r, *matches, *totals])
    return rows


def _theirs(row: list[Any], options: Any) -> float:
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    order = options.max_order
    value = None if options.smoothing_value is None else float(options.smoothing_value)
    return float(
        BLEU.compute_bleu(
            list(row[2 : 2 + order]),
            list(row[2 + order :]),
            int(row[0]),
            int(row[1]),
            options.smoothing,
            value,
            options.effective_order,
            order,
        ).score
    )


@pytest.mark.parametrize("smoothing", ["none", "floor", "add-k", "exp"])
@pytest.mark.parametrize("effective", [False, True])
@pytest.mark.parametrize("order", [1, 2, 4])
def test_all_rows_at_once_are_sacrebleus_compute_bleu_row_by_row(
    smoothing: str, effective: bool, order: int
) -> None:
    """Integer sums (the randomization's, numpy int64 in sacrebleu) and float32 sums (its bootstrap's):
    every score the very double sacrebleu computes from the same numbers."""
    import numpy as np  # noqa: PLC0415

    options = _options(smoothing, effective, order)
    rows = _rows(_rng(f"{smoothing}{effective}{order}"), 400, order, 60)
    integers = np.array(rows, dtype=np.int64)
    mine = sacrebleu_scores(integers, options).tolist()
    assert mine == [_theirs(list(row), options) for row in integers]
    binary32 = integers.astype(np.float32)
    mine32 = sacrebleu_scores(binary32, options, binary32=True).tolist()
    assert mine32 == [_theirs(list(row), options) for row in binary32]
    assert sum(1 for s in mine if s > 0) > 20  # the positive path is exercised, not only the zeros


def test_exact_products_are_the_integer_sums_in_every_format() -> None:
    """binary32, binary64 and int64 chosen by the size of the partial sums, each giving Python's integers."""
    import numpy as np  # noqa: PLC0415

    rng = _rng(7)
    for largest in (50, 2**22, 2**40, 2**58):  # binary32, binary64, binary64, int64
        segments = 30
        rows = [
            [rng.randint(-largest // segments, largest // segments) for _ in range(5)]
            for _ in range(segments)
        ]
        weights = [[rng.randint(0, 2) for _ in range(segments)] for _ in range(7)]
        expected = [
            [sum(w * row[j] for w, row in zip(ws, rows, strict=True)) for j in range(5)] for ws in weights
        ]
        got = _exact_product(np.array(weights), np.array(rows, dtype=np.int64), segments)
        assert got.tolist() == expected, largest


def _statistics(rng: random.Random, segments: int, big: bool = False) -> list[Statistics]:
    out = []
    for _ in range(segments):
        c = rng.randint(1, 30) * (10**6 if big else 1)
        totals = tuple(max(0, c - n) for n in range(4))
        matches = tuple(rng.randint(0, t) for t in totals)
        out.append(Statistics(matches, totals, c, rng.randint(1, 30) * (10**6 if big else 1)))
    return out


@pytest.mark.parametrize("big", [False, True], ids=["exact sums", "float32 sums that round"])
def test_bootstrap_scores_are_sacrebleus_bootstrap_resample(
    big: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIG-BOOTSTRAP: the resampled scores equal those of sacrebleu's own ``_bootstrap_resample`` (its seed,
    its float32 sums, its compute_bleu), both where the float32 sums are exact and where they round
    (segments of millions of tokens: the sums then pass 2^24 and sacrebleu's order of addition counts)."""
    import numpy as np  # noqa: PLC0415
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415
    from sacrebleu.significance import _bootstrap_resample  # noqa: PLC0415

    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    segments = _statistics(_rng(3), 200, big)
    options = _options("exp", False)
    rows = [sacrebleu_row(s, 4) for s in segments]
    _, theirs = _bootstrap_resample(rows, BLEU(), 300)  # type: ignore[arg-type]
    resampler = _Resampler([segments], options)
    indices = significance._resample_indices(significance._generator(12345), len(segments), 300)
    mine = resampler.bootstrap(indices)(0).tolist()
    assert mine == [float(score.score) for score in theirs]
    rounded = np.array(rows, dtype=np.float32)[indices].sum(1) != np.array(rows)[indices].sum(1)
    assert rounded.any() == big  # the second case does reach float32's rounding


def test_randomization_sums_are_the_swapped_pseudo_systems() -> None:
    """SIG-PAIRED-AR's definition, in Python integers: the first pseudo-system takes the baseline's row
    where a segment is kept and the system's where it is swapped; the second the other one."""
    import numpy as np  # noqa: PLC0415

    rng = _rng(11)
    base, other = _statistics(rng, 50), _statistics(rng, 50)
    resampler = _Resampler([base, other], _options("none", False))
    swap = np.array([[rng.random() < 0.5 for _ in range(50)] for _ in range(20)])
    first, second = resampler.randomization(swap, 1)
    rows = [[sacrebleu_row(s, 4) for s in system] for system in (base, other)]
    for trial, selected in enumerate(swap.tolist()):
        a = [sum(rows[1 if s else 0][i][j] for i, s in enumerate(selected)) for j in range(10)]
        b = [sum(rows[0 if s else 1][i][j] for i, s in enumerate(selected)) for j in range(10)]
        assert (first[trial].tolist(), second[trial].tolist()) == (a, b)


def test_paired_randomization_is_sacrebleus_at_other_points_too() -> None:
    """SIG-PAIRED-AR at sacrebleu's floor and add-k points, all systems against the baseline at once:
    p-values equal to those of sacrebleu's procedure run with its own arithmetic (int64 sums,
    compute_bleu per trial) on the same statistics and selectors."""
    import numpy as np  # noqa: PLC0415
    from sacrebleu.metrics.bleu import BLEU  # noqa: PLC0415

    rng = _rng(5)
    systems = [_statistics(rng, 80) for _ in range(3)]
    for smoothing in ("floor", "add-k"):
        options = _options(smoothing, False)
        tests = paired_randomization_tests(systems[0], systems[1:], options, samples=400, seed=9)
        metric = BLEU(smooth_method=smoothing)
        stats = [np.array([sacrebleu_row(s, 4) for s in system], dtype=np.int64) for system in systems]
        keep = np.random.default_rng(9).integers(2, size=(400, 80), dtype=bool)
        base_score = metric._compute_score_from_stats(stats[0].sum(0)).score
        for k, result in enumerate(tests.systems, start=1):
            a, b = keep @ stats[0] + ~keep @ stats[k], ~keep @ stats[0] + keep @ stats[k]
            trials = np.abs(
                np.array([metric._compute_score_from_stats(x).score for x in a])
                - np.array([metric._compute_score_from_stats(x).score for x in b])
            )
            observed = metric._compute_score_from_stats(stats[k].sum(0)).score
            expected = (np.sum(trials > abs(base_score - observed)).item() + 1) / 401
            assert (result.score, result.p_value) == (observed, expected)
