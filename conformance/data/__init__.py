"""Real test sets shipped with the suite, xz-compressed (provenance and licences: README.md here).

The tests, the benchmarks and the runner read them from here, never from outside the
repository. Each file is one segment per line, UTF-8, compressed on its own, so the command
line reads it as it is (``reference-bleu score -r .../ref.de.xz -i .../hyp.FBK.4870.de.xz``;
spec CLI-FILES). Tools that need plain files (sacrebleu's command line, the Perl scripts) get a
decompressed copy from :func:`plain_directory`.
"""

from __future__ import annotations

import hashlib
import lzma
import os
import shutil
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

#: This folder: one sub-folder per test set, ``<file>.xz`` in each.
HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class TestSet:
    """One shipped test set: its name, the reference file names and the system file names."""

    __test__ = False  # not a pytest test class

    name: str
    references: tuple[str, ...]
    systems: tuple[str, ...]

    @property
    def compressed(self) -> Path:
        """The folder of the ``.xz`` files."""
        return HERE / self.name


#: WMT17 en-de newstest2017: 3,004 segments, one reference, 16 systems.
def _systems(folder: str) -> tuple[str, ...]:
    return tuple(sorted(path.name.removesuffix(".xz") for path in (HERE / folder).glob("hyp.*.xz")))


WMT17 = TestSet("wmt17-en-de", ("ref.de",), _systems("wmt17-en-de"))
#: WMT10 newstest2010 into English, lower-cased and tokenized: 2,489 segments, six outputs.
MULTEVAL = TestSet("multeval-example-newstest2010", ("ref.en",), _systems("multeval-example-newstest2010"))
TEST_SETS = (WMT17, MULTEVAL)


def read_text(test_set: TestSet, name: str) -> str:
    """The text of one file of ``test_set`` (``"ref.de"``, ``"hyp.FBK.4870.de"``), decompressed."""
    return lzma.decompress((test_set.compressed / f"{name}.xz").read_bytes()).decode("utf-8")


def read_lines(test_set: TestSet, name: str) -> list[str]:
    """The segments of one file, as sacrebleu's command line reads them (split on ``\\n`` only)."""
    text = read_text(test_set, name)
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n")


@cache
def plain_root() -> Path:
    """A folder holding every shipped test set decompressed, one sub-folder per set.

    Made once per machine and content: it lives in the temporary directory, named by a digest
    of the compressed files, and is filled through a private folder renamed into place, so
    concurrent test workers never see a half-written copy.
    """
    files = sorted(path for test_set in TEST_SETS for path in test_set.compressed.glob("*.xz"))
    digest = hashlib.sha256()
    for path in files:
        digest.update(f"{path.parent.name}/{path.name}".encode())
        digest.update(path.read_bytes())
    target = Path(tempfile.gettempdir()) / f"reference-bleu-data-{digest.hexdigest()[:16]}"
    if not target.is_dir():
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
        for path in files:
            folder = staging / path.parent.name
            folder.mkdir(exist_ok=True)
            (folder / path.name.removesuffix(".xz")).write_bytes(lzma.decompress(path.read_bytes()))
        try:
            os.replace(staging, target)
        except OSError:  # another process put its copy there first: the same bytes
            shutil.rmtree(staging)
    return target


def plain_directory(test_set: TestSet) -> Path:
    """The folder of ``test_set``'s decompressed files (inside :func:`plain_root`)."""
    return plain_root() / test_set.name
