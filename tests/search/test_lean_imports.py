"""whoosh is imported without urllib.request, asyncio and its English morphology, and nothing else notices."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHECK = """
import sys
from pathlib import Path
import kb.search.analysis  # imports whoosh (the index's tokenizer) through kb.search.lean_imports
from kb.search.engine import get_engine
get_engine("whoosh")
skipped = [m for m in ("urllib.request", "asyncio", "cached_property", "whoosh.lang.morph_en") if m in sys.modules]
assert not skipped, skipped
import functools, urllib.request, whoosh.compat, whoosh.query.terms, whoosh.reading
assert urllib.request.urlretrieve is not None and urllib.request.urlopen is not None  # the real module
assert whoosh.reading.cached_property is functools.cached_property
assert "rendered" in whoosh.query.terms.variations("render")  # the real function
print("ok")
"""


def test_whoosh_loads_without_its_unused_dependencies_which_still_import_for_real() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_a_whoosh_index_still_builds_and_answers_after_the_lean_import(kb_dir: Path) -> None:
    from kb.search.service import SearchRequest, open_session

    session = open_session(rebuild=True)
    try:
        assert session.search(SearchRequest("упорство")).results
    finally:
        session.close()
