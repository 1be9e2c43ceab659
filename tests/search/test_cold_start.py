"""Cold start: the fast path for ``kb search`` / ``kb show``, lazy imports, the stored vocabulary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kb.cli import fast_invocation

ROOT = Path(__file__).resolve().parents[2]


def test_fast_path_parses_plain_search_and_show() -> None:
    lang, command, values = fast_invocation(["search", "упорство", "--set", "SHM", "-n", "3", "--json"]) or (0, 0, 0)
    assert (lang, command) == (None, "search")
    assert values == {"query": "упорство", "set_": "SHM", "card": None, "mechanic": None, "kind": None,
                      "lang": None, "limit": 3, "current": False, "as_json": True}
    show = fast_invocation(["--lang", "en", "show", "shm/persist/3"])
    assert show == ("en", "show", {"entry_id": "shm/persist/3", "as_json": False})
    assert fast_invocation(["search", "x", "--kind=ruling", "--current"])[2]["kind"] == "ruling"  # type: ignore[index]


@pytest.mark.parametrize(
    "args",
    [
        ["search"],  # missing query: typer words the error
        ["search", "a", "b"],
        ["search", "a", "--limit", "0"],
        ["search", "a", "--limit", "x"],
        ["search", "a", "--limit", "501"],
        ["search", "a", "--help"],
        ["search", "a", "--unknown"],
        ["search", "--", "-a"],
        ["search", "a", "--json=1"],
        ["show", "x", "--set", "SHM"],
        ["--lang", "fr", "search", "a"],
        ["--version"],
        ["verify", "--all"],
        [],
    ],
)
def test_anything_else_goes_through_typer(args: list[str]) -> None:
    assert fast_invocation(args) is None


def _kb(args: list[str], env: dict[str, str], entry: str) -> subprocess.CompletedProcess[str]:
    code = f"import sys; sys.argv = ['kb', *sys.argv[1:]]; {entry}"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True)


@pytest.mark.parametrize(
    "args",
    [
        ["search", "может ли мироходец атаковать", "--json"],
        ["search", "упорство", "--set", "shm", "--kind", "ruling"],
        ["search", "упорство", "--set", "xyz", "--json"],  # an error, under --json
        ["search", "упорство", "--set", "xyz"],  # an error, on stderr
        ["--lang", "en", "search", "мироходец"],
    ],
)
def test_fast_path_answers_exactly_as_typer(kb_dir: Path, args: list[str]) -> None:
    env = {**os.environ, "KB_BUILD_DIR": str(kb_dir)}
    _kb(["index"], env, "from kb.cli import main; main()")
    fast = _kb(args, env, "from kb.cli import main; main()")
    typer = _kb(args, env, "from kb.cli import app; app(prog_name='kb')")
    assert (fast.returncode, fast.stdout, fast.stderr) == (typer.returncode, typer.stdout, typer.stderr)
    assert fast.stdout or fast.stderr


@pytest.mark.parametrize(("known", "first", "unseen", "analyser"), [
    ("мироходцы атаковать", "lrw/planeswalker/1", "рывком", "pymorphy3"),
    ("copy create separate", "shm/conspire-en/1", "dashing", "whoosh.lang.porter2"),  # Porter2: pure Python
])
def test_search_loads_no_morphology_for_words_of_the_corpus(kb_dir: Path, known: str, first: str, unseen: str,
                                                            analyser: str) -> None:
    """Words the index holds are analysed from its stored vocabulary: pymorphy3 (Russian) and the Porter2
    stemmer (English) are imported only for a word the corpus never had."""
    env = {**os.environ, "KB_BUILD_DIR": str(kb_dir)}
    code = (
        "import sys, json\n"
        "from kb.search.service import SearchRequest, open_session\n"
        "s = open_session()\n"
        f"before = {analyser!r} in sys.modules\n"
        "r = s.search(SearchRequest(sys.argv[1]))\n"
        f"print(json.dumps([before, {analyser!r} in sys.modules, [x.id for x in r.results]]))\n"
    )
    _kb(["index"], env, "from kb.cli import main; main()")
    found = subprocess.run([sys.executable, "-c", code, known], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True)
    before, after, ids = json.loads(found.stdout)
    assert ids and ids[0] == first
    assert (before, after) == (False, False)
    other = subprocess.run([sys.executable, "-c", code, f"{known} {unseen}"], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True)
    assert json.loads(other.stdout)[1] is True  # a word the corpus never had: the analyser answers it




def test_vocabulary_matches_the_analysers(session: object) -> None:
    """The stored terms are what pymorphy3 and the Porter2 stemmer say (the same terms the index holds)."""
    from whoosh.lang.porter2 import stem

    from ingest.morphology import lemmas
    from kb.search import index as index_mod
    from kb.search.analysis import _CYRILLIC_RE

    vocabulary = index_mod.read_vocabulary(session.state.directory)  # type: ignore[attr-defined]
    assert "мироходцы" in vocabulary and "упорства" in vocabulary and vocabulary["create"] == ("creat",)
    for word, stored in vocabulary.items():
        assert stored == (lemmas(word) if _CYRILLIC_RE.search(word) else (stem(word),)), word


@pytest.mark.parametrize(("args", "absent"), [
    (["search", "мироходец", "--json"], ("typer", "rich")),
    (["search", "мироходец"], ("typer", "rich.console", "rich.text")),
])
def test_search_does_not_import_typer(kb_dir: Path, args: list[str], absent: tuple[str, ...]) -> None:
    """typer and rich cost a tenth of a second to import: ``kb search --json`` needs neither, the text output
    off a terminal only rich's small wrapping modules (``kb.plain``, ``kb.commands.search_run``)."""
    env = {**os.environ, "KB_BUILD_DIR": str(kb_dir)}
    _kb(["index"], env, "from kb.cli import main; main()")
    check = "import json; print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'rich'))),"
    check += " file=sys.stderr)"
    run = _kb(args, env, f"from kb.cli import main; main(); {check}")
    assert run.returncode == 0 and run.stdout, run.stderr
    loaded = set(json.loads(run.stderr.strip().splitlines()[-1]))
    assert not {m for m in loaded if m.split(".")[0] in absent or m in absent}, loaded
    assert "rich" in {m.split(".")[0] for m in loaded} or "--json" in args  # the check sees what is imported
