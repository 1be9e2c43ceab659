"""Fault injection for the crash tests: ``KB_FAULT=NAME`` kills the process with SIGKILL at point ``NAME``.

A test cannot otherwise stop a writer at a chosen moment; the points sit where a crash hurts most (in the
middle of a write transaction, before an index generation is swapped in). Unset, a point costs one lookup.
"""

from __future__ import annotations

import os


def point(name: str) -> None:
    if os.environ.get("KB_FAULT") == name:
        import signal  # only when the fault fires: readers import this module too

        os.kill(os.getpid(), signal.SIGKILL)
