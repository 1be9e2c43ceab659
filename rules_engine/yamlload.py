"""YAML loading that keeps line numbers, so every format error can name ``file:line``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml


class LDict(dict[str, Any]):
    """A mapping that remembers the 1-based line it starts on."""

    line: int = 0
    key_lines: dict[str, int]


class LList(list[Any]):
    line: int = 0
    item_lines: list[int]


_BASE: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available


class _Loader(_BASE):  # type: ignore[valid-type,misc]
    """SafeLoader with YAML 1.2 booleans: ``on`` / ``off`` / ``yes`` / ``no`` stay strings (``on: target``)."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def _mapping(loader: _Loader, node: yaml.MappingNode) -> LDict:
    out = LDict()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        out[str(key)] = loader.construct_object(value_node, deep=True)
        out.key_lines[str(key)] = key_node.start_mark.line + 1
    return out


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> LList:
    out = LList(loader.construct_object(child, deep=True) for child in node.value)
    out.line = node.start_mark.line + 1
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


def load_yaml(path: Path) -> Any:
    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_Loader)


def load_yaml_text(text: str) -> Any:
    return yaml.load(text, Loader=_Loader)


def line_of(node: Any, key: str | None = None, default: int = 0) -> int:
    """The line of a mapping key (or of the node itself) when known."""
    if isinstance(node, LDict):
        if key is not None and key in node.key_lines:
            return node.key_lines[key]
        return node.line
    if isinstance(node, LList):
        return node.line
    return default
