"""Test configuration: hypothesis profiles chosen by BLEU_HYPOTHESIS_PROFILE (spec CONF-PROFILES).

- ``ci`` (the default when CI is set): derandomized, so the same run gives the same result;
- ``dev`` (the default otherwise): random, a moderate number of examples;
- ``thorough``: many more examples, for deep runs by hand.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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
collect_ignore = ["hostile_target.py", "hostile_module.py"]
