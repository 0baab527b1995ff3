"""Build hook: compile the optional counting kernel (spec NUM-KERNEL) where a C compiler is present.

Hatchling runs this for wheels and editable installs. The kernel is one C file against the
CPython API (reference_bleu/fast/_kernel.c), compiled and linked by one command of the platform's
compiler ($CC, else the one Python was built with). Any failure (no compiler, no Python
headers, an unknown platform) is reported as a warning and the wheel is pure Python: the
package then counts with its pure-Python fast path, which gives the same integers.
``REFERENCE_BLEU_PURE_PYTHON=1`` at build time skips the kernel.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("reference_bleu") / "fast" / "_kernel.c"


def compile_kernel(source: Path, target: Path) -> str | None:
    """Compile ``source`` into the extension module ``target``; the error's text, or ``None`` on success."""
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    link = ["-bundle", "-undefined", "dynamic_lookup"] if sys.platform == "darwin" else ["-shared"]
    include = sysconfig.get_paths()["include"]
    command = [*compiler, *link, "-fPIC", "-O2", f"-I{include}", str(source), "-o", str(target)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)  # noqa: S603
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    if done.returncode != 0 or not target.is_file():
        return (done.stderr or done.stdout or f"exit {done.returncode}").strip()[:500]
    return None


class KernelBuildHook(BuildHookInterface):  # type: ignore[misc,type-arg]  # hatchling: the build env only
    """Adds reference_bleu/fast/_kernel<EXT_SUFFIX> to the wheel (in place for an editable install)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("REFERENCE_BLEU_PURE_PYTHON") == "1":
            return
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        source = Path(self.root) / SOURCE
        if version == "editable":
            target = source.with_name(f"_kernel{suffix}")
        else:
            target = Path(tempfile.mkdtemp(prefix="reference-bleu-kernel-")) / f"_kernel{suffix}"
        error = compile_kernel(source, target)
        if error is not None:
            self.app.display_warning(
                f"reference-bleu: no compiled kernel ({error}); the pure-Python path is used"
            )
            return
        if version != "editable":
            build_data["force_include"][str(target)] = f"reference_bleu/fast/_kernel{suffix}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
