"""Shared test settings.

Hypothesis runs without per-example deadlines: CI machines are shared and a
slow moment must not fail a property that holds. The ``ci`` profile (chosen
by ``HYPOTHESIS_PROFILE=ci``) is the same with derandomised examples.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
