"""Publish a directory of exported files in one step, world-readable, and clean up after a killed run.

Files are written into a staging directory beside the target, then swapped in, so a reader (or a web
server) sees the old site or the new one, never half of each; a failed export removes its staging
directory and leaves the old site. Why not ``tempfile.mkdtemp`` alone:

- its directory is mode 0700, and renamed into place the whole site would be unreadable to a web server:
  every directory is made 0755 and every file 0644 here (a site is public by nature, whatever the umask);
- a SIGKILLed export cannot clean up after itself: staging directories carry the writer's PID in their
  name (``.site.kb-staging-1234-x8f2``), and the next export removes those whose process is gone;
- the target may be the current directory (``kb export site .``): it has no name to put a sibling beside,
  and renaming the directory a shell stands in would leave that shell in a deleted directory. Such a
  target is resolved to an absolute path and its *contents* are swapped instead (entry by entry, each a
  rename: the site's few top-level entries are replaced within microseconds).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DIR_MODE = 0o755
FILE_MODE = 0o644
STAGING = ".kb-staging-"
OLD = ".kb-old-"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _writer_pid(name: str, prefix: str) -> int | None:
    """The PID in ``<prefix><pid>-<random>``; None for a name that is not ours."""
    rest = name[len(prefix):] if name.startswith(prefix) else ""
    pid, _, _random = rest.partition("-")
    return int(pid) if pid.isdigit() else None


def _leftovers(directory: Path, prefixes: tuple[str, ...]) -> Iterator[Path]:
    """Staging / old directories in ``directory`` whose writer process is gone."""
    if not directory.is_dir():
        return
    for child in directory.iterdir():
        for prefix in prefixes:
            pid = _writer_pid(child.name, prefix)
            if pid is not None and not _pid_alive(pid):
                yield child


def clean_leftovers(target: Path) -> list[Path]:
    """Remove what killed exports to ``target`` left (beside it, and inside it for in-place targets)."""
    target = target.absolute()
    removed: list[Path] = []
    beside = (f".{target.name}{STAGING}", f".{target.name}{OLD}")
    for path in [*_leftovers(target.parent, beside), *_leftovers(target, (STAGING, OLD))]:
        shutil.rmtree(path, ignore_errors=True) if path.is_dir() else path.unlink(missing_ok=True)
        removed.append(path)
    return removed


def in_place(target: Path) -> bool:
    """Swap the contents rather than the directory: the target is (or holds) the current directory."""
    resolved, cwd = target.resolve(), Path.cwd().resolve()
    return resolved == cwd or resolved in cwd.parents or resolved.parent == resolved


def is_ours(name: str) -> bool:
    """Entries an export keeps inside an in-place target while it works (not the user's files)."""
    return name.startswith((STAGING, OLD))


def make_public(root: Path) -> None:
    """0755 for every directory, 0644 for every file under ``root`` (and ``root`` itself)."""
    os.chmod(root, DIR_MODE)
    for directory, subdirectories, files in os.walk(root):
        for name in subdirectories:
            os.chmod(os.path.join(directory, name), DIR_MODE)
        for name in files:
            os.chmod(os.path.join(directory, name), FILE_MODE)


@contextmanager
def publish(target: Path) -> Iterator[Path]:
    """Yield an empty staging directory; when the block succeeds, it becomes ``target``'s content.

    On any failure the staging directory is removed and ``target`` is left as it was.
    """
    target = target.absolute()
    clean_leftovers(target)
    swap_contents = target.is_dir() and in_place(target)
    where, prefix = (target, STAGING) if swap_contents else (target.parent, f".{target.name}{STAGING}")
    where.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=where))
    try:
        yield staging
        make_public(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if swap_contents:
        _swap_contents(staging, target)
        os.chmod(target, DIR_MODE)  # the site's root, like every directory of the site
    else:
        _swap_directory(staging, target)


def _swap_directory(staging: Path, target: Path) -> None:
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}{OLD}{os.getpid()}-", dir=target.parent))
    try:
        if target.exists():
            os.replace(target, old / "site")
        os.replace(staging, target)
    except BaseException:
        if (old / "site").exists() and not target.exists():
            os.replace(old / "site", target)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(old, ignore_errors=True)


def _swap_contents(staging: Path, target: Path) -> None:
    """Move the old entries aside, the new ones in; the target directory itself stays where it is."""
    old = Path(tempfile.mkdtemp(prefix=f"{OLD}{os.getpid()}-", dir=target))
    moved: list[str] = []
    try:
        for entry in sorted(target.iterdir()):
            if not is_ours(entry.name):
                os.replace(entry, old / entry.name)
                moved.append(entry.name)
        for entry in sorted(staging.iterdir()):
            os.replace(entry, target / entry.name)
    except BaseException:  # put the old site back as it was
        for entry in sorted(target.iterdir()):
            if not is_ours(entry.name):
                shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink(missing_ok=True)
        for name in moved:
            os.replace(old / name, target / name)
        raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)
