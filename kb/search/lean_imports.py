"""whoosh without the parts of its import that search never uses: about 45 ms of a cold ``kb search``.

whoosh imports ``urllib.request`` (with http.client, ssl and email: ~24 ms) only to re-export
``urlretrieve``; the ``cached_property`` package, which imports asyncio (~16 ms), for one property of
its segment reader; and its English morphology tables (``whoosh.lang.morph_en``, ~5 ms) for the
``Variations`` query. ``prepare_whoosh`` imports whoosh's modules that bind those names while stand-ins
sit in ``sys.modules`` (functools' ``cached_property``; functions that import the real module on their
first call), then removes the stand-ins: any later ``import urllib.request`` gets the real module.
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
from collections.abc import Callable
from typing import Any

# whoosh's modules that import the names below (each imported once, inside the window)
_WHOOSH_MODULES = ("whoosh.compat", "whoosh.reading", "whoosh.query.terms")


def _deferred(module: str, name: str) -> Callable[..., Any]:
    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def _stand_ins() -> dict[str, dict[str, Any]]:
    return {
        "urllib.request": {"urlretrieve": _deferred("urllib.request", "urlretrieve")},
        "cached_property": {"cached_property": functools.cached_property},
        "whoosh.lang.morph_en": {"variations": _deferred("whoosh.lang.morph_en", "variations")},
    }


def prepare_whoosh() -> None:
    """Import whoosh's core modules without their unused dependencies (a no-op once any is loaded)."""
    if any(name in sys.modules for name in _WHOOSH_MODULES):
        return
    placed: dict[str, types.ModuleType] = {}
    for name, attributes in _stand_ins().items():
        if name not in sys.modules:  # already imported for real: whoosh binds the real one
            module = types.ModuleType(name, "stand-in while whoosh is imported (kb.search.lean_imports)")
            module.__dict__.update(attributes)
            placed[name] = sys.modules[name] = module
    try:
        for name in _WHOOSH_MODULES:
            importlib.import_module(name)
    finally:
        for name, module in placed.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
