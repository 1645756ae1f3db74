"""Shared test settings."""

from __future__ import annotations

from hypothesis import settings

# Timings on a shared 2-core CI machine vary too much for a per-example
# deadline to mean anything; a real hang is caught by pytest's timeout.
settings.register_profile("default", deadline=None)
settings.load_profile("default")
