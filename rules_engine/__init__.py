"""A two-player Magic: The Gathering rules engine driven by data.

Card behaviour comes from card definitions (``data/cards/*.yaml``) built from the engine's vocabulary of
keywords, abilities and effects; scenarios (``data/scenarios/*.yaml``) script a game and state what must be
true afterwards. The engine imports nothing from ``kb`` or ``ingest``, and its own modules import one way,
game state at the bottom (``docs/engine.md``).
"""

from rules_engine.errors import DecisionMissing, EngineError, IllegalAction, ScenarioFormatError
from rules_engine.options import RulesOptions

__all__ = ["DecisionMissing", "EngineError", "IllegalAction", "RulesOptions", "ScenarioFormatError"]
