"""Test configuration: hypothesis profiles chosen by BLEU_HYPOTHESIS_PROFILE (spec CONF-PROFILES).

- ``ci`` (the default when CI is set): derandomized, so the same run gives the same result;
- ``dev`` (the default otherwise): random, a moderate number of examples;
- ``thorough``: many more examples, for deep runs by hand.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from tests import once

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=150,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None, print_blob=True)
settings.register_profile(
    "thorough",
    max_examples=3000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("BLEU_HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

#: Programs and modules that attack the runner (tests/test_hostile.py): run in their own
#: processes, never imported here. hostile_module patches copy.deepcopy and json.loads when
#: imported, which --doctest-modules collection would do to this very process.
collect_ignore = ["targets/hostile.py", "targets/hostile_module.py"]


@pytest.fixture(scope="session", autouse=True)
def _shared_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The folder the session's xdist workers share for tests/once.py: their base temporary folders'
    parent (each worker's is a sub-folder of it); none without xdist."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        once.FOLDER = tmp_path_factory.getbasetemp().parent
