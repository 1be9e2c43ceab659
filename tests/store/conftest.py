"""Helpers for the store tests: run the real ``kb`` in subprocesses (concurrency and crashes need processes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def kb_env(build: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")}
    env.update({"KB_BUILD_DIR": str(build), "LANG": "ru_RU.UTF-8", **extra})
    return env


def run_kb(build: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kb", *args], cwd=PROJECT_ROOT, env=kb_env(build, **extra),
        capture_output=True, text=True, timeout=300,
    )


def start_kb(build: Path, *args: str, **extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "kb", *args], cwd=PROJECT_ROOT, env=kb_env(build, **extra),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def small_document(path: Path, word: str) -> Path:
    """A one-section document of two rulings; its ID is the file's stem."""
    path.write_text(
        f"***Ключевое слово: Упорство***\n\n* {word}: упорство срабатывает.\n* {word}: второе разъяснение.\n",
        encoding="utf-8",
    )
    return path
