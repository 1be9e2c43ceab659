"""Mutation check: break one rules-engine mechanism at a time and see whether the scenario suite notices.

A proof that cannot fail proves nothing. Each mutant below is a textual edit of one engine source file that
deletes or inverts one rule (the legend rule, first strike, deathtouch...). For each mutant the script copies
``rules_engine/`` to a temporary directory, applies the edit there (the real source is never touched, even
when interrupted: only the copy is edited, and it is deleted on exit), and plays every scenario
(``data/scenarios``, ``tests/engine/external``, ``tests/engine/cr``) through ``rules_engine.scenario`` in a
subprocess that has the copy first on ``sys.path``. A mutant is *killed* when at least one scenario fails
(or the engine crashes or hangs); otherwise it *survived*: nothing in the suite depends on that rule.

Usage:
  .venv/bin/python scripts/mutate.py                 # every mutant: table and kill ratio
  .venv/bin/python scripts/mutate.py --json          # the same as one JSON document
  .venv/bin/python scripts/mutate.py --only legend-rule --only wither
  .venv/bin/python scripts/mutate.py --list          # the mutants, without running anything
  .venv/bin/python scripts/mutate.py --check         # every edit still applies to the current source

Exit code: 0 when every must-kill mutant is killed; 1 when one survived; 2 on a broken mutant definition
(its snippet is not in the source exactly once, or the edited file does not compile) or a red baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "rules_engine"
SUITES = ("data/scenarios", "tests/engine/external", "tests/engine/cr")
TIMEOUT = 120.0


@dataclass(frozen=True)
class Mutant:
    """One broken mechanism: in ``file`` (under ``rules_engine/``) the exact ``snippet`` becomes ``replacement``."""

    name: str
    rule: str  # the Comprehensive Rules number of the mechanism the edit deletes
    file: str
    snippet: str
    replacement: str
    must_kill: bool = True
    why: str = ""  # for a mutant allowed to survive: why no scenario can tell it apart


MUTANTS: tuple[Mutant, ...] = (
    # -- state-based actions (rule 704) -----------------------------------------------------------------
    Mutant(
        "sba-once",
        "704.3",
        "sba.py",
        "    for _ in range(100):\n        if not check_once(game):\n            return\n",
        "    check_once(game)\n    return\n",
    ),
    Mutant("sba-life-zero", "704.5a", "sba.py", "if p.life <= 0:", "if p.life < 0:"),
    Mutant("sba-empty-library", "704.5b", "sba.py", "elif p.drew_from_empty_library:", "elif False:"),
    Mutant("sba-poison", "704.5c", "sba.py", "elif p.poison >= limit:", "elif p.poison > limit:"),
    Mutant("sba-token-ceases", "704.5d", "sba.py", "(o.card.is_token or o.is_copy)", "o.is_copy"),
    Mutant("sba-zero-toughness", "704.5f", "sba.py", "if chars.toughness <= 0:", "if False:"),
    Mutant(
        "zero-toughness-not-destruction",
        "704.5f",
        "sba.py",
        "if chars.toughness <= 0:",
        'if chars.toughness <= 0 and "indestructible" not in chars.keywords:',
    ),
    Mutant("sba-lethal-damage", "704.5g", "sba.py", "obj.damage >= chars.toughness > 0 or", "False or"),
    Mutant(
        "sba-indestructible",
        "702.12b",
        "sba.py",
        'if lethal and "indestructible" not in chars.keywords:',
        "if lethal:",
    ),
    Mutant("sba-deathtouch", "704.5h", "sba.py", "chars.toughness > 0 or deathtouched", "chars.toughness > 0"),
    Mutant(
        "deathtouch-since-last-check",
        "704.5h",
        "sba.py",
        "deathtouched, obj.deathtouch_damage = obj.deathtouch_damage, False",
        "deathtouched = obj.deathtouch_damage",
    ),
    Mutant("sba-loyalty-zero", "704.5i", "sba.py", 'obj.counters.get("loyalty", 0) <= 0', "False"),
    Mutant("legend-rule", "704.5j", "sba.py", "to_graveyard += _legend_rule(game)", "to_graveyard += []"),
    Mutant(
        "legend-rule-same-name",
        "704.5j",
        "sba.py",
        "groups[(owner_key, chars.name)].append(obj)",
        'groups[(owner_key, "")].append(obj)',
    ),
    Mutant(
        "legend-rule-per-controller",
        "704.5j",
        "sba.py",
        'owner_key = "*" if game.options.legend_rule_all_players else game.controller(obj)',
        'owner_key = "*"',
    ),
    Mutant("sba-aura", "704.5m", "sba.py", "not _aura_legal(game, obj)", "False"),
    Mutant(
        "counter-annihilation",
        "704.5q",
        "sba.py",
        'if obj.counters.get("+1/+1", 0) > 0 and obj.counters.get("-1/-1", 0) > 0:',
        "if False:",
    ),
    # -- keywords ------------------------------------------------------------------------------------------
    Mutant(
        "first-strike",
        "702.7b",
        "combat.py",
        "    kw = game.chars(obj).keywords\n    if not split:",
        '    kw = {k: v for k, v in game.chars(obj).keywords.items() if k != "first_strike"}\n    if not split:',
    ),
    Mutant(
        "double-strike",
        "702.4b",
        "combat.py",
        'return obj.oid not in game.first_strikers or "double_strike" in kw',
        "return obj.oid not in game.first_strikers",
    ),
    Mutant(
        "first-strike-gained-late",
        "702.7c",
        "combat.py",
        'return obj.oid not in game.first_strikers or "double_strike" in kw',
        'return "first_strike" not in kw or "double_strike" in kw',
    ),
    Mutant(
        "first-strike-lost-late",
        "702.7c",
        "combat.py",
        'return obj.oid not in game.first_strikers or "double_strike" in kw',
        'return obj.oid not in game.first_strikers or "double_strike" in kw or "first_strike" not in kw',
    ),
    Mutant("deathtouch", "702.2b", "replacement.py", 'if "deathtouch" in chars.keywords:', "if False:"),
    Mutant("indestructible", "702.12b", "replacement.py", 'if "indestructible" in chars.keywords:', "if False:"),
    Mutant("trample-lethal-first", "702.19c", "combat.py", "if given < needed:", "if False:"),
    Mutant(
        "trample-deathtouch-lethal",
        "702.2c",
        "combat.py",
        "needed = sum(min(n, 1) if deathtouch else n for n in left)",
        "needed = sum(left)",
    ),
    Mutant(
        "trample-no-blockers",
        "702.19d",
        "combat.py",
        "if not blockers and not trample:\n            continue",
        "if not blockers:\n            continue",
    ),
    Mutant(
        "flying",
        "702.9b",
        "combat.py",
        'if "flying" in akw and not ({"flying", "reach"} & set(chars.keywords)):',
        "if False:",
    ),
    Mutant(
        "reach", "702.17b", "combat.py", '{"flying", "reach"} & set(chars.keywords)', '{"flying"} & set(chars.keywords)'
    ),
    Mutant("fear", "702.36b", "combat.py", 'if "fear" in akw and not', "if False and not"),
    Mutant("landwalk", "702.14c", "combat.py", "if walk and any(", "if False and any("),
    Mutant("vigilance", "702.20b", "combat.py", 'if "vigilance" not in game.chars(obj).keywords:', "if True:"),
    Mutant(
        "defender",
        "702.3b",
        "combat.py",
        'if "defender" in chars.keywords:',
        "if False:",
    ),
    Mutant(
        "haste",
        "702.10b",
        "costs.py",
        'if not chars.is_("Creature") or "haste" in chars.keywords:',
        'if not chars.is_("Creature"):',
    ),
    Mutant(
        "summoning-sickness",
        "302.6",
        "costs.py",
        "return obj.steady_controller != game.controller(obj)",
        "return False",
    ),
    Mutant(
        "lifelink",
        "702.15b",
        "replacement.py",
        'lifelink = "lifelink" in chars.keywords and not game.options.lifelink_triggered',
        "lifelink = False",
    ),
    Mutant(
        "wither",
        "702.80a",
        "replacement.py",
        'if "wither" in chars.keywords or infect:  # rule 120.3d',
        "if infect:",
    ),
    Mutant(
        "persist-no-counter-condition",
        "702.79a",
        "triggers.py",
        '            "condition": {"had_no_counters": "-1/-1"},\n',
        "",
    ),
    Mutant("evoke-only-if-paid", "702.74a", "triggers.py", '            "condition": {"paid": "evoke"},\n', ""),
    Mutant(
        "dash-no-haste",
        "702.109a",
        "dash.py",
        "    return ContinuousEffect(\n",
        "    return None\n    return ContinuousEffect(\n",
    ),
    Mutant("dash-no-return", "702.109a", "stack.py", "        dash.on_resolve(game, spell, new)\n", ""),
    Mutant(
        "dash-cost-is-mana-cost",
        "702.109a",
        "stack.py",
        'cost = parse_cost(str(chars.keywords["dash"]))',
        "cost = chars.cost or ManaCost()",
    ),
    Mutant("rebound-never", "702.88a", "stack.py", "    if rebound.applies(game, spell):\n", "    if False:\n"),
    Mutant("rebound-from-anywhere", "702.88a", "rebound.py", '        and spell.cast_from == "hand"\n', ""),
    Mutant(
        "prowess-creature-spells", "702.108a", "triggers.py", '            "filter": {"not_types": ["Creature"]},\n', ""
    ),
    Mutant(
        "as-long-as-ignored",
        "611.3a",
        "layers.py",
        "    if not _condition_holds(game, effect, source, result):\n",
        "    if False:\n",
    ),
    Mutant(
        "becomes-tapped-when-already-tapped",
        "701.26a",
        "tapping.py",
        "    if obj.tapped:\n        return False\n",
        "",
    ),
    Mutant(
        "exiled-card-not-linked",
        "607.2a",
        "effects.py",
        '        _link(ctx.game, ctx.source.oid, "exiled", exiled)\n',
        "        pass\n",
    ),
    Mutant(
        "until-next-turn-never-ends",
        "611.2a",
        "layers.py",
        'not (e.duration == "until_your_next_turn" and e.controller == game.active)',
        "True",
    ),
    Mutant("delve-pays-coloured", "702.66a", "delve.py", "    if len(cards) > generic:\n", "    if False:\n"),
    Mutant("delve-exiles-nothing", "702.66a", "delve.py", '        game.move(card, "exile")\n', "        pass\n"),
    Mutant(
        "reveal-any-card",
        "118.8",
        "reveal.py",
        '    if not matches(game, card, game.chars(card), spec.get("filter"), player, card_obj):\n',
        "    if False:\n",
    ),
    Mutant("reveal-control-ignored", "601.2i", "reveal.py", "    if wanted is not None and any(\n",
           "    if False and any(\n"),
    Mutant("reveal-copy-keeps-control", "707.10", "reveal.py", "    return tuple(p for p in paid if p != CONTROLLED)\n",
           "    return paid\n"),
    Mutant("counter-unless-never-paid", "118.12a", "effects.py", '        if answer in (True, "yes"):\n',
           "        if False:\n"),
    Mutant("cant-be-countered-ignored", "101.2", "countering.py", "    if cant_be_countered(game, obj):\n",
           "    if False:\n"),
    Mutant(
        "play-permission-forever",
        "601.3",
        "playfrom.py",
        "        if p.player == player and p.oid == obj.oid and game.turn <= p.last_turn:\n",
        "        if p.player == player and p.oid == obj.oid:\n",
    ),
    Mutant(
        "play-exiled-by-any-source",
        "607.2a",
        "playfrom.py",
        '        if obj.oid not in game.linked.get((source.oid, str(value.get("link", "exiled"))), []):\n',
        "        if False:\n",
    ),
    Mutant(
        "play-exiled-no-spell-limit",
        "101.2",
        "playfrom.py",
        "        if game.history.cast_by_permission[source.oid] >= int(limit):\n",
        "        if False:\n",
    ),
    Mutant("enter-attacking-not-attacking", "508.4", "attacking.py", "    obj.attacking = target\n", "    pass\n"),
    Mutant(
        "cost-increase-ignores-targets",
        "601.2f",
        "stack.py",
        '    """Whether a chosen target is ``player`` or a permanent that player controls ("you or yours")."""\n',
        '    """Whether a chosen target is ``player`` or a permanent that player controls ("you or yours")."""\n'
        "    return True\n",
    ),
    Mutant(
        "dies-power-not-last-known",
        "608.2h",
        "effects.py",
        '        if ref == "it" and event is not None and left and event.lki is not None:\n',
        "        if False:\n",
    ),
    Mutant(
        "enchanted-dies-any-creature",
        "603.10a",
        "snapfilter.py",
        '    if filt.get("attached") and (source is None or getattr(source, "attached_to", None) != snap.oid):\n',
        '    if filt.get("attached") and source is None:\n',
    ),
    Mutant(
        "token-in-hand-discarded",
        "111.8",
        "effects.py",
        "        hand = [c for c in game.players[p].hand if not c.card.is_token]\n",
        "        hand = game.players[p].hand\n",
    ),
    Mutant(
        "creature-leaves-any-permanent",
        "603.6c",
        "triggers.py",
        '            return "Creature" in lki.chars.types and _snap_matches(game, lki, filt, controller, source)',
        "            return _snap_matches(game, lki, filt, controller, source)",
    ),
    Mutant(
        "token-copy-not-attacking",
        "508.4",
        "effects.py",
        "        if v.get(\"attacking\"):  # \"a token that's a copy",
        "        if False:  # \"a token that's a copy",
    ),
    Mutant(
        "token-copy-not-made",
        "603.7",
        "effects.py",
        "        ctx.made.append(token)  # \"exile the token at end of combat\"",
        "        pass  # \"exile the token at end of combat\"",
    ),
    Mutant(
        "enter-attacking-outside-combat",
        "506.3b",
        "attacking.py",
        "    if game.step not in COMBAT_STEPS or not teams.is_active(game, controller):\n",
        "    if False:\n",
    ),
    Mutant(
        "enter-attacking-is-declared",
        "508.4",
        "attacking.py",
        "    obj.attacking = target\n",
        "    obj.attacking = target\n    from rules_engine import triggers\n    from rules_engine.events import Event\n"
        '    triggers.collect(game, Event("attacks", obj=obj))\n',
    ),
    Mutant(
        "until-never-returns",
        "610.3",
        "game.py",
        '            until.source_left(self, obj.oid)  # rule 610.3: what it exiled "until it leaves" returns now\n',
        "            pass\n",
    ),
    Mutant(
        "until-source-gone-ignored",
        "610.3a",
        "until.py",
        '    if source is None or source.zone != "battlefield":\n',
        "    if False:\n",
    ),
    Mutant(
        "anchor-abilities-all",
        "614.12c",
        "layers.py",
        '    if any("anchor" in a.spec for a in chars.abilities):  # rule 614.12c: the chosen word only\n',
        "    if False:\n",
    ),
    Mutant("anchor-choice-forgotten", "614.12c", "anchors.py", "    obj.chosen = answer\n", "    pass\n"),
    # -- modal triggered abilities (rules 603.3c, 700.2b) ---------------------------------------------
    Mutant("modal-trigger-mode-without-targets", "700.2b", "modes.py", "    if answer - 1 not in legal:\n",
           "    if False:\n"),
    Mutant("modal-trigger-no-mode-stays", "603.3c", "modes.py", "    if not legal:\n", "    if False:\n"),
    Mutant("modal-trigger-first-mode", "700.2b", "modes.py", "    item.spec = {**rest, **modes[answer - 1]}\n",
           "    item.spec = {**rest, **modes[0]}\n"),
    # -- damage divided among targets (rules 601.2c, 601.2d) ------------------------------------------------
    Mutant("divide-zero-share", "601.2d", "divide.py", "    if any(n < 1 for n in picked):\n", "    if False:\n"),
    Mutant("divide-any-sum", "601.2d", "divide.py", "    if sum(picked) != total:\n", "    if False:\n"),
    Mutant("divide-any-number-of-targets", "601.2c", "divide.py", "        if not low <= n <= high:\n",
           "        if False:\n"),
    Mutant("divide-shares-to-first", "601.2d", "divide.py",
           "        run(ctx, {\"damage\": {\"amount\": share, \"to\": f\"target{i}\"}})\n",
           "        run(ctx, {\"damage\": {\"amount\": share, \"to\": \"target0\"}})\n"),
    Mutant("divide-copy-forgets", "707.10", "stack.py",
           "    copy.division = spell.division  # rule 707.10: the number of targets and the division can't be "
           "changed\n",
           "    copy.division = ()\n"),
    # -- words and colours chosen as a permanent enters (614.12) or as an effect resolves (608.2d) ----------
    Mutant("choose-color-colorless", "105.4", "colorchoice.py", "        if color not in COLORS:\n",
           "        if False:\n"),
    Mutant("choose-color-one-is-many", "105.4", "colorchoice.py", "    if len(picked) > 1 and not many:\n",
           "    if False:\n"),
    Mutant("enter-choice-any-word", "614.12a", "anchors.py", "    if answer not in words:\n", "    if False:\n"),
    Mutant("exile-as-enters-unlinked", "607.2a", "anchors.py",
           "        game.linked.setdefault((obj.oid, str(value[\"link\"])), []).append(exiled.oid)\n",
           "        pass\n"),
    Mutant("may-sacrifice-gone-anyway", "608.2c", "ifyoudo.py",
           "уже не на поле битвы: пожертвовать ее нельзя, остальное не происходит\")\n        return\n",
           "уже не на поле битвы: пожертвовать ее нельзя, остальное не происходит\")\n"
           "        run(ctx, v[\"then\"])\n        return\n"),
    Mutant("may-sacrifice-then-lost", "608.2c", "ifyoudo.py",
           "    game.move(live, \"graveyard\")\n    run(ctx, v[\"then\"])\n", "    game.move(live, \"graveyard\")\n"),
    Mutant("option-any-word", "608.2d", "colorchoice.py", "    if answer not in words:\n", "    if False:\n"),
    Mutant("option-ignored", "608.2d", "colorchoice.py", "    run(ctx, bind_to(v[\"then\"], (answer,)))\n",
           "    run(ctx, bind_to(v[\"then\"], (words[0],)))\n"),
    Mutant("add-colors-overwrite", "613.1e", "layers.py",
           "        chars.colors |= {c.upper() for c in data[\"colors\"]}\n",
           "        chars.colors = {c.upper() for c in data[\"colors\"]}\n"),
    Mutant("add-colors-battlefield-only", "613.1e", "layers.py", "        pool = list(by_id.values())\n",
           "        pool = game.battlefield\n"),
    Mutant("chosen-undefined-triggers", "614.12", "triggers.py",
           "            if choices.bind(ability.spec[\"state\"], choices.of_object(source)) is None:\n",
           "            if False:\n"),
    Mutant("mana-value-parity-ignored", "614.12", "layers.py",
           "    if \"mana_value_parity\" in filt and (\"even\" if chars.mana_value % 2 == 0 else \"odd\") != "
           "filt[\"mana_value_parity\"]:\n",
           "    if False:\n"),
    Mutant(
        "reveal-copy-forgets-cost",
        "707.10",
        "stack.py",
        "    copy.paid_additional = reveal.copied(spell.paid_additional)  # 707.10: costs paid, not the cast itself\n",
        "    pass\n",
    ),
    Mutant(
        "another-target-may-repeat",
        "601.2c",
        "targets.py",
        '    another = isinstance(spec, dict) and bool(spec.get("another"))\n',
        "    another = False\n",
    ),
    Mutant("cant-lose-life-ignored", "119.8", "life.py", "    if source is not None:\n", "    if False:\n"),
    Mutant(
        "activate-only-if-ignored",
        "602.5b",
        "stack.py",
        '    if spec.get("condition") and not triggers.check_condition(game, spec["condition"], obj, None):\n',
        "    if False:\n",
    ),
    Mutant(
        "formidable-ignores-negative-power",
        "602.5b",
        "triggers.py",
        "            game.chars(o).power or 0\n            for o in game.battlefield",
        "            max(game.chars(o).power or 0, 0)\n            for o in game.battlefield",
    ),
    Mutant(
        "exploit-no-lookback",
        "702.110b",
        "triggers.py",
        '    if event.kind == "exploits" and event.obj is None and event.lki is not None:\n',
        "    if False:\n",
    ),
    Mutant(
        "exploit-not-sacrificed",
        "702.110a",
        "effects.py",
        '    game.move(chosen, "graveyard")\n    if source_snap',
        "    if source_snap",
    ),
    Mutant(
        "manifested-instant-turns-face-up",
        "701.40g",
        "effects.py",
        '        if obj.definition.types & {"Instant", "Sorcery"}:\n            game.log(f"{narr.obj(game, obj)} показ',
        '        if False:\n            game.log(f"{narr.obj(game, obj)} показ',
    ),
    Mutant(
        "bolster-any-creature",
        "701.39a",
        "effects.py",
        "pool = [o for o in mine if (game.chars(o).toughness or 0) == least]",
        "pool = mine",
    ),
    Mutant(
        "evolve-toughness",
        "702.100a",
        "triggers.py",
        " or (new_chars.toughness or 0) > (me.toughness or 0)",
        "",
    ),
    Mutant(
        "battalion",
        "702.101a",
        "triggers.py",
        'return attackers >= int((filt or {}).get("min_attackers", 1))',
        "return True",
    ),
    Mutant(
        "hexproof",
        "702.11b",
        "targets.py",
        '    if "hexproof" not in chars.keywords or chars.controller == controller:\n        return False\n',
        "    return False\n",
    ),
    Mutant("shroud", "702.18a", "targets.py", '("shroud" in chars.keywords or _hexproof_applies(',
           "(False or _hexproof_applies("),
    Mutant(
        "changeling",
        "702.73a",
        "layers.py",
        '        if "changeling" in chars.keywords:\n            chars.subtypes.add(ALL_CREATURE_TYPES)\n',
        "        pass\n",
    ),
    Mutant(
        "conspire-shared-colour",
        "702.78a",
        "stack.py",
        "if not (game.chars(found[0]).colors & chars.colors):",
        "if False:",
    ),
    Mutant(
        "megamorph-counter",
        "702.37b",
        "actions.py",
        '    if via == "morph" and "megamorph" in definition.keywords:\n        obj.counters["+1/+1"] += 1\n',
        "",
    ),
    Mutant(
        "manifest-only-creature-cards",
        "701.31b",
        "actions.py",
        'if obj.manifested and "Creature" in definition.types and definition.cost is not None:',
        "if obj.manifested and definition.cost is not None:",
    ),
    Mutant(
        "hideaway-enters-tapped",
        "702.75a",
        "replacement.py",
        'if "hideaway" in chars.keywords:  # rule 502.75a of the time: "This permanent enters tapped"',
        "if False:",
    ),
    Mutant(
        "extort-once-per-trigger",
        "702.99a",
        "effects.py",
        '    run(ctx, v["then"])\n\n\n@effect("shuffle_into_library")',
        '    run(ctx, v["then"])\n    _pay_optional(ctx, v)\n\n\n@effect("shuffle_into_library")',
    ),
    Mutant(
        "persist-returns-with-counter",
        "702.79a",
        "triggers.py",
        '"counters": {"-1/-1": 1}}},',
        '"counters": {}}},',
    ),
    Mutant("evolve-power", "702.100a", "triggers.py", "(new_chars.power or 0) > (me.power or 0) or ", ""),
    Mutant(
        "manifest-pile-without-self",
        "701.31a",
        "effects.py",
        'if live is not None and live.zone == "battlefield":\n            pile.append(',
        'if False:\n            pile.append(',
    ),
    Mutant(
        "manifest-pile-any-card",
        "701.31a",
        "effects.py",
        'if matches(game, card, game.chars(card), v.get("filter"), p, None):\n                    pile.append(',
        'if True:\n                    pile.append(',
    ),
    Mutant(
        "one-or-more-damaged-each",
        "510.2",
        "triggers.py",
        'if not (ability.spec.get("filter") or {}).get("one_or_more"):',
        "if True:",
    ),
    Mutant(
        "each-counter-once", "603.2c", "triggers.py", "return max(1, int(event.amount or 1))", "return 1"
    ),
    Mutant(
        "hybrid-both-colours",
        "202.2",
        "mana.py",
        "for c in s.colors if c in COLORS)",
        "for c in s.colors[:1] if c in COLORS)",
    ),
    Mutant("mono-hybrid-mana-value", "202.3f", "mana.py", "total += max(s.amount, 1)", "total += 1"),
    Mutant(
        "hideaway-exiles-face-down",
        "702.75a",
        "effects.py",
        'exiled = game.move(chosen, "exile", face_down=True)',
        'exiled = game.move(chosen, "exile")',
    ),
    Mutant("conspire-taps", "702.78a", "stack.py", "            tapping.tap(game, creature)\n", "            pass\n"),
    # -- looking at and revealing the top of a library (looking.py, helper rv) --------------------------------
    Mutant("reveal-until-first-match", "701.20a", "looking.py", "            if len(found) >= n:\n",
           "            if len(found) >= 1:\n"),
    Mutant(
        "look-rest-on-top-not-bottom",
        "401.4",
        "looking.py",
        "            lib[0:0] = list(reversed(ordered))  # stored bottom first: the last listed is the very bottom\n",
        "            lib.extend(reversed(ordered))\n",
    ),
    Mutant("look-take-ignores-filter", "608.2c", "looking.py", "        if card not in fits:\n", "        if False:\n"),
    Mutant("shuffle-library-effect", "701.24a", "looking.py", "        shuffle_library(ctx.game, who, ctx.source)\n",
           "        pass\n"),
    Mutant("reveal-rest-not-shuffled", "701.24a", "looking.py", "        shuffle_library(game, owner, ctx.source)\n",
           "        pass\n"),
    Mutant("look-cast-clause-casts-nothing", "608.2g", "looking.py",
           "            play_without_paying(ctx, card)  # not cast", "            pass  # not cast"),
    Mutant(
        "if-you-do-always",
        "608.2c",
        "effects.py",
        "        return any(matches(game, o, game.chars(o), dict(cond[\"made\"]), ctx.controller, None)"
        " for o in ctx.made)",
        "        return True",
    ),
    Mutant(
        "cast-this-way-not-exiled",
        "614.1a",
        "replacement.py",
        'if shield["kind"] == "exile_if_graveyard" and shield["oid"] == obj.oid:',
        "if False:",
    ),
    Mutant(
        "x-can-be-zero",
        "601.2b",
        "stack.py",
        'if ability.kind == "cost" and ability.name == "x_at_least" and x < int(ability.spec["n"]):',
        'if ability.kind == "cost" and ability.name == "x_at_least" and x < 0:',
    ),
    Mutant("that-player-counted-once", "608.2c", "effects.py", "            ctx.each = p\n",
           "            ctx.each = None\n"),
    Mutant(
        "most-discarded-by-you",
        "608.2c",
        "effects.py",
        "        value = max(ctx.discarded.values(), default=0)",
        "        value = ctx.discarded.get(ctx.controller, 0)",
    ),
    Mutant(
        "morph-costs-3",
        "702.37c",
        "stack.py",
        'parse_cost("{3}")\n    elif params.get("without_paying"):',
        'parse_cost("{2}")\n    elif params.get("without_paying"):',
    ),
    Mutant("face-down-is-2-2", "708.2a", "objects.py", "power=2, toughness=2", "power=1, toughness=1"),
    Mutant(
        "power-at-most-filter",
        "208.1",
        "layers.py",
        'chars.power > _filter_number(game, filt["power_at_most"], you, source)',
        'chars.power >= _filter_number(game, filt["power_at_most"], you, source)',
    ),
    Mutant(
        "power-of-target-lki",
        "608.2h",
        "effects.py",
        "elif (snap := _target_lki(ctx, ref)) is not None:",
        "elif False and (snap := _target_lki(ctx, ref)) is not None:",
    ),
    Mutant(
        "instant-stays-off-battlefield",
        "400.4a",
        "game.py",
        'if to_zone == "battlefield" and not face_down and obj.zone != "battlefield" and (',
        'if False and (',
    ),
    Mutant(
        "enters-with-counters-triggers",
        "122.6",
        "game.py",
        'triggers.collect(self, Event("counters", obj=new, counter=kind, amount=n))',
        "pass",
    ),
    Mutant(
        "intervening-if-on-trigger",
        "603.4",
        "triggers.py",
        "if _matches(game, ability, source, chars, controller, event) and check_condition(\n"
        '                game, ability.spec.get("condition"), source, event\n'
        "            ):",
        "if _matches(game, ability, source, chars, controller, event):",
    ),
    # -- damage, replacement and prevention -----------------------------------------------------------------
    Mutant(
        "planeswalker-damage-loyalty",
        "306.8",
        "replacement.py",
        'game.remove_counters(recipient, "loyalty", amount)',
        "pass",
    ),
    Mutant(
        "exile-instead-of-graveyard",
        "614.1a",
        "replacement.py",
        "        if _exile_instead_matches(game, holder, ability, obj):",
        "        if False:",
    ),
    Mutant("cost-increase", "601.2f", "stack.py", "for extra in increases:", "for extra in []:"),
    # the replacement framework itself (616.1, 614.5, 614.15) and what goes through it
    Mutant(
        "replacement-order-not-asked",
        "616.1e",
        "replacement.py",
        "    who = chooser(game, ev)\n",
        "    return pool[0]\n    who = chooser(game, ev)\n",
    ),
    Mutant("replacement-applies-once", "614.5", "replacement.py", "        ev.applied.add(chosen.key)\n", ""),
    Mutant("self-replacement-first", "616.1a", "replacement.py", "    pool = own or candidates\n",
           "    pool = candidates\n"),
    Mutant("redirect-and-split", "614.9", "replacement.py",
           "return [ev.but(affected=target, amount=n), ev.but(amount=ev.amount - n)]",
           "return [ev.but(affected=target, amount=n)]"),
    Mutant("cant-be-prevented-shield", "615.12", "replacement.py",
           "        if ev.unpreventable:  # rule 615.12: the shield applies, prevents nothing and is not reduced",
           "        if False:"),
    Mutant("cant-be-prevented-static", "615.12", "replacement.py",
           "unpreventable=cant_be_prevented or _unpreventable(game, source),", "unpreventable=cant_be_prevented,"),
    Mutant("cant-be-prevented-this-turn", "615.12", "replacement.py",
           'if any(d["kind"] == "damage_cant_be_prevented" for d in game.delayed):', "if False:"),
    Mutant("static-prevention", "615.10", "replacement.py", '_statics(game, "prevent_damage")', "[]"),
    Mutant("modify-damage", "614.1a", "replacement.py", '_statics(game, "modify_damage")', "[]"),
    Mutant("modify-counters", "614.16", "replacement.py", '_statics(game, "modify_counters")', "[]"),
    Mutant("infect-poison", "702.90b", "replacement.py",
           "        if infect:  # rule 120.3b: poison counters instead of loss of life", "        if False:"),
    Mutant("infect-counters", "702.90c", "replacement.py", 'if "wither" in chars.keywords or infect:  # rule 120.3d',
           'if "wither" in chars.keywords:'),
    Mutant("cant-have-counters", "614.17", "replacement.py", '_statics(game, "cant_have_counters")', "[]"),
    Mutant("counter-unless-pays-x", "107.3", "effects.py",
           '.replace("{X}", f"{{{x}}}")', ""),
    Mutant("put-counter-cost-cant-have", "118.3", "costs.py",
           "if not cant_have_counters(game, o, cost.counter)", "if True"),
    Mutant("damage-as-though-wither", "702.80a", "replacement.py", '_statics(game, "damage_as_though_wither")', "[]"),
    Mutant("unblocked-after-blockers", "509.1h", "layers.py",
           "not obj.blocked and game.step in _AFTER_BLOCKERS", "not obj.blocked"),
    Mutant("damage-dealt-this-way", "608.2c", "effects.py",
           "ctx.dealt += replacement.deal_damage(", "replacement.deal_damage("),
    Mutant("pump-counted-continuously", "611.3a", "layers.py",
           "_apply(counted, result[o.oid], game)", "_apply(effect, result[o.oid], game)"),
    Mutant("count-cards-in-zone", "608.2h", "effects.py",
           'elif isinstance(expr, dict) and "count" in expr and "zone" in expr["count"]:', "elif False:"),
    Mutant("cant-get-counters", "614.17", "replacement.py", '_statics(game, "cant_get_counters")', "[]"),
    Mutant("entering-counters-can-be-stopped", "122.6", "replacement.py",
           "new.counters[kind] += counters_put(game, new, kind, n)", "new.counters[kind] += n"),
    Mutant("cant-gain-life-static", "119.7", "replacement.py", '_statics(game, "cant_gain_life")', "[]"),
    Mutant("cant-gain-life-this-turn", "119.7", "replacement.py",
           'if any(d["kind"] == "cant_gain_life" and d["player"] in team for d in game.delayed):',
           "if False:"),
    Mutant("exile-if-dies", "614.1a", "replacement.py",
           'if shield["kind"] == "exile_if_dies" and shield["oid"] == obj.oid:', "if False:"),
    Mutant("instead-of-dying", "614.1a", "replacement.py", '_statics(game, "instead_of_dying")', "[]"),
    Mutant("enters-tapped", "614.1d", "replacement.py",
           '_refs(holder), "входит повернутым", _enters_tapped,',
           '_refs(holder), "входит повернутым", partial(_enters_with, counters=Counter()),'),
    Mutant("enters-with-counters", "614.1c", "replacement.py",
           "    return [ev.but(counters=ev.counters + counters)]\n", "    return [ev]\n"),
    Mutant("enters-tapped-unless-pay", "614.1c", "replacement.py",
           '    game.log(f"{narr.player(who)} не платит жизнь: {narr.obj(game, new)} входит повернутым")\n'
           "    return [ev.but(tapped=True)]\n",
           '    game.log(f"{narr.player(who)} не платит жизнь: {narr.obj(game, new)} входит повернутым")\n'
           "    return [ev]\n"),
    Mutant("draw-replacement", "614.11", "effects.py",
           "    for _ in range(replacement.draws_after_replacement(game, player)):", "    for _ in range(1):"),
    Mutant("draw-replacement-optional", "614.11", "replacement.py",
           '    if value.get("optional"):\n', "    if False:\n"),
    Mutant("own-enters-ability-general", "614.12", "replacement.py",
           'if holder.oid == new.oid and ability.spec.get("affects", {"self": True}) != {"self": True}:',
           "if False:"),
    Mutant("printed-loyalty-enters", "306.5b", "replacement.py",
           '    if chars.loyalty is not None:  # rule 306.5b', '    if False:  # rule 306.5b'),
    Mutant("cant-be-regenerated", "701.19c", "replacement.py",
           "    if ev.no_regeneration:  # rule 701.19c: the shields are not applied", "    if False:"),
    Mutant(
        "prevention",
        "615.7",
        "replacement.py",
        '        if shield["kind"] in ("prevent", "redirect") and _matches_recipient(game, shield, recipient, '
        "ev.source):",
        '        if shield["kind"] == "redirect" and _matches_recipient(game, shield, recipient, ev.source):',
    ),
    Mutant("regeneration", "701.19a", "replacement.py", "    for i in range(obj.regeneration_shields):",
           "    for i in range(0):"),
    Mutant(
        "cleanup-removes-damage",
        "514.2",
        "turn.py",
        "        obj.damage = 0\n        obj.deathtouch_damage = False\n",
        "        pass\n",
    ),
    Mutant(
        "end-of-turn-effects-end",
        "514.2",
        "layers.py",
        'game.effects = [e for e in game.effects if e.duration != "end_of_turn"]',
        "pass",
    ),
    Mutant(
        "old-redirection-noncombat-only",
        "306.7 (2007)",
        "replacement.py",
        "if game.options.planeswalker_redirection and not combat and isinstance(recipient, str):",
        "if game.options.planeswalker_redirection and isinstance(recipient, str):",
    ),
    Mutant(
        "mana-empties-each-step",
        "500.4",
        "turn.py",
        "if game.options.mana_burn and PHASES[current] == PHASES[nxt]:",
        "if PHASES[current] == PHASES[nxt]:",
    ),
    Mutant(
        "mana-burn-at-phase-end",
        "300.3 (2007)",
        "turn.py",
        "if game.options.mana_burn and PHASES[current] == PHASES[nxt]:",
        "if False:",
    ),
    Mutant("mana-burn", "300.3 (2007)", "turn.py", "if unused and game.options.mana_burn:", "if False:"),
    Mutant(
        "lifelink-trigger-2008",
        "502.68a (2008)",
        "triggers.py",
        "if options is not None and getattr(options, option) and keyword in chars.keywords:",
        "if False:",
    ),
    Mutant(
        "land-types-give-no-mana",
        "305.6",
        "layers.py",
        "return [ability for subtype, ability in _LAND_TYPE_ABILITIES.items() if subtype in have]",
        "return []",
    ),
    Mutant(
        "land-type-mana-before-type-change",
        "305.7",
        "layers.py",
        '        if layer == "5":\n            _land_type_abilities(result.values())',
        '        if layer == "4":\n            _land_type_abilities(result.values())',
    ),
    Mutant(
        "object-cost-needs-resources",
        "118.3",
        "costs.py",
        "if part.action not in _SELF_COUNTERS and len(have) < part.n:",
        "if False:",
    ),
    Mutant(
        "counter-put-as-cost",
        "602.2b",
        "costs.py",
        "        game.put_counters(target, cost.counter, cost.n)\n",
        "        pass\n",
    ),
    Mutant(
        "object-cost-another",
        "602.2b",
        "costs.py",
        "if not (cost.other and o.oid == obj.oid) and matches(",
        "if matches(",
    ),
    Mutant(
        "hideaway-look-old-rule",
        "702.74a (2015)",
        "effects.py",
        "if game.options.hideaway_former_controllers_may_look:",
        "if False:",
    ),
    Mutant(
        "hideaway-look-today",
        "702.75a",
        "effects.py",
        "if game.options.hideaway_former_controllers_may_look:",
        "if True:",
    ),
    Mutant(
        "split-card-combined",
        "709.4",
        "effects.py",
        "return values if game.options.split_card_two_sets_of_characteristics else [sum(values)]",
        "return values",
    ),
    # -- triggered abilities -------------------------------------------------------------------------------
    Mutant(
        "apnap-triggers",
        "603.3b",
        "triggers.py",
        "for player in game.apnap():",
        "for player in reversed(game.apnap()):",
    ),
    Mutant("leave-together-look-back", "603.10a", "triggers.py", "if game._batch is not None:", "if False:"),
    Mutant(
        "intervening-if-on-resolution",
        "603.4",
        "stack.py",
        "if item.triggered and not triggers.check_condition(",
        "if False and not triggers.check_condition(",
    ),
    # -- casting, resolving, turn structure ----------------------------------------------------------------
    Mutant(
        "fizzle-all-targets-illegal",
        "608.2b",
        "stack.py",
        '    if specs and not any(legal):\n        game.log(f"Все цели заклинания',
        '    if False:\n        game.log(f"Все цели заклинания',
    ),
    Mutant(
        "sorcery-timing",
        "307.1",
        "stack.py",
        "return teams.is_active(game, player) and game.step in SORCERY_STEPS and not game.stack",
        "return True",
    ),
    Mutant(
        "one-land-per-turn",
        "305.2",
        "actions.py",
        "if game.players[player].land_plays >= landplays.allowance(game, player):",
        "if False:",
    ),
    Mutant(
        "loyalty-once-per-turn",
        "606.3",
        "stack.py",
        "if cost.loyalty is not None and obj.oid in game.loyalty_used:",
        "if False:",
    ),
    Mutant(
        "tapped-cant-attack",
        "508.1a",
        "combat.py",
        "    if obj.tapped:\n        return IllegalAction(",
        "    if False:\n        return IllegalAction(",
    ),
    Mutant(
        "tapped-cant-block",
        "509.1a",
        "combat.py",
        "    if blocker.tapped:\n        raise IllegalAction(",
        "    if False:\n        raise IllegalAction(",
    ),
    Mutant(
        "blocked-stays-blocked",
        "509.1h",
        "combat.py",
        "        if not attacker.blocked:\n",
        "        if not blockers:\n",
    ),
    Mutant(
        "mono-hybrid-generic",
        "107.4e",
        "mana.py",
        '        if s.kind == "mono_hybrid":\n            # {2/B}',
        "        if False:\n            # {2/B}",
    ),
    Mutant(
        "layer-7b-before-7c",
        "613.4",
        "layers.py",
        'for layer in ("7b", "7c"):',
        'for layer in ("7c", "7b"):',
    ),
    Mutant(
        "set-types-drops-subtypes",
        "205.1a",
        "layers.py",
        '        if "subtypes" in data:\n            chars.subtypes = set(data["subtypes"])',
        '        if False:\n            chars.subtypes = set(data["subtypes"])',
    ),
    # -- numbers, targets, characteristics of split cards and face-down spells (107.1b, 115.3, 608.2, 709, 708) ---
    Mutant(
        "negative-calculation-kept",
        "107.1b",
        "effects.py",
        'keep = pt == "set" or (pt == "modify" and game.options.negative_amounts_modify_pt)',
        "keep = pt is not None",
    ),
    Mutant(
        "old-107.1b-never-applies",
        "107.1b",
        "effects.py",
        '(pt == "modify" and game.options.negative_amounts_modify_pt)',
        '(pt == "modify" and False)',
    ),
    Mutant(
        "printed-negative-clamped",
        "107.1b",
        "effects.py",
        "return literal if pt is not None else max(0, literal)",
        "return max(0, literal)",
    ),
    Mutant(
        "changeling-any-subtype",
        "702.73a",
        "layers.py",
        "(ALL_CREATURE_TYPES in chars.subtypes and is_creature_type(subtype))",
        "(ALL_CREATURE_TYPES in chars.subtypes)",
    ),
    Mutant(
        "face-down-spell-cost-sees-card",
        "708.4",
        "stack.py",
        "    if face_down:\n        card_obj = GameObject(oid=-1,",
        "    if False:\n        card_obj = GameObject(oid=-1,",
    ),
    Mutant(
        "same-object-affected-twice",
        "608.2c",
        "effects.py",
        "                if key not in seen:\n",
        "                if True:\n",
    ),
    Mutant(
        "one-word-target-twice",
        "115.3",
        "targets.py",
        "(another or pairs[i][1] == word)",
        "another",
    ),
    Mutant(
        "target-count-ignored",
        "115.3",
        "targets.py",
        'count = int(spec.get("count", 1)) if isinstance(spec, dict) else 1',
        "count = 1",
    ),
    Mutant(
        "target-relations-ignored",
        "601.2c",
        "target_relations.py",
        "        if found and not test([here, *found]):\n",
        "        if False:\n",
    ),
    Mutant(
        "target-relations-not-rechecked",
        "608.2b",
        "targets.py",
        "    return rel.flags(game, pairs, chosen, legal)\n",
        "    return legal\n",
    ),
    Mutant(
        "targets-not-chosen-as-a-set",
        "601.2c",
        "targets.py",
        "    return any(_completes(game, pairs, pools, [*chosen, t]) for t in pools[len(chosen)])\n",
        "    return True\n",
    ),
    Mutant(
        "split-card-halves-not-combined",
        "709.4b",
        "cards.py",
        "            cost=combined_cost(h.cost for h in parsed),\n",
        "            cost=None,\n",
    ),
    Mutant(
        "split-half-whole-on-stack",
        "709.3b",
        "stack.py",
        "        spell.half = card_obj.half  # rule 709.3b",
        "        spell.half = None  # rule 709.3b",
    ),
    # -- protection (rule 702.16), evasion and attack / block restrictions, removal from combat, fight --------
    Mutant(
        "protection-targeting",
        "702.16b",
        "targets.py",
        '    if obj.zone == "battlefield" and protection.protection_from(game, chars, source) is not None:\n'
        "        return False",
        "    pass",
    ),
    Mutant(
        "protection-targeting-rule",
        "702.16b",
        "targets.py",
        '            return "702.16b"',
        '            return "601.2c"',
    ),
    Mutant(
        "protection-source-left",
        "702.16b",
        "triggers.py",
        "item.targets = divide.choose_targets(game, item, player, live or trig.source)",
        "item.targets = divide.choose_targets(game, item, player, live)",
    ),
    Mutant(
        "protection-damage",
        "702.16e",
        "replacement.py",
        "quality = protection.protection_from(game, game.chars(recipient), ev.source)",
        "quality = None",
    ),
    Mutant(
        "protection-aura",
        "702.16c",
        "sba.py",
        'if "Aura" in chars.subtypes and (quality := _host_protection(game, obj)) is not None:',
        "if False and (quality := _host_protection(game, obj)) is not None:",
    ),
    Mutant(
        "protection-equipment",
        "702.16d",
        "sba.py",
        'if "Equipment" in chars.subtypes and obj.attached_to is not None and not _equipment_legal(game, obj):',
        "if False:",
    ),
    Mutant(
        "protection-blocking",
        "702.16f",
        "combat.py",
        "quality = protection.protection_from(game, game.chars(attacker), blocker)",
        "quality = None",
    ),
    Mutant(
        "protection-from-colors",
        "702.16a",
        "protection.py",
        'if set(quality.get("colors", ())) & source.colors:',
        "if False:",
    ),
    Mutant(
        "protection-from-card-types",
        "702.16a",
        "protection.py",
        'if set(quality.get("types", ())) & source.types:',
        "if False:",
    ),
    Mutant(
        "protection-from-subtypes",
        "702.16a",
        "protection.py",
        'return any(has_subtype(source, s) for s in quality.get("subtypes", ()))',
        "return False",
    ),
    Mutant(
        "protection-from-everything",
        "702.16j",
        "protection.py",
        "        return True  # rule 702.16j: protection from each object regardless of its characteristics",
        "        return False",
    ),
    Mutant(
        "protection-granted",
        "702.16",
        "layers.py",
        "chars.keywords[name] = [*chars.keywords.get(name, []), param]",
        "pass",
    ),
    Mutant(
        "intimidate",
        "702.13b",
        "combat.py",
        'if "intimidate" in akw and not (chars.is_("Artifact") or chars.colors & game.chars(attacker).colors):',
        "if False:",
    ),
    Mutant("menace", "702.111b", "combat.py", 'if "menace" in game.chars(attacker).keywords and n < 2:', "if False:"),
    Mutant("min-blockers", "509.1b", "combat.py", 'if n < int(spec["value"]["n"]):', "if False:"),
    Mutant("max-blockers", "509.1b", "combat.py", 'if n > int(spec["value"]["n"]):', "if False:"),
    Mutant(
        "cant-be-blocked",
        "509.1b",
        "combat.py",
        "if by is None or matches(game, blocker, game.chars(blocker), by, game.controller(source), source):",
        "if by is not None and matches(game, blocker, game.chars(blocker), by, game.controller(source), source):",
    ),
    Mutant(
        "cant-be-blocked-by",
        "509.1b",
        "combat.py",
        "if by is None or matches(game, blocker, game.chars(blocker), by, game.controller(source), source):",
        "if by is None:",
    ),
    Mutant(
        "can-block-only",
        "509.1b",
        "combat.py",
        "if not matches(game, attacker, game.chars(attacker), only, game.controller(source), source):",
        "if False:",
    ),
    Mutant(
        "cant-attack-you",
        "508.1c",
        "combat.py",
        'if any(game.controller(src) == defender for src, _ in statics_affecting(game, obj, "cant_attack_you")):',
        "if False:",
    ),
    Mutant(
        "attacks-each-combat",
        "508.1d",
        "combat.py",
        "        if obj.oid not in declared:\n",
        "        if False:\n",
    ),
    Mutant(
        "attacks-each-combat-no-declaration",
        "508.1d",
        "turn.py",
        "        if forced:  # rule 508.1d",
        "        if False:  # rule 508.1d",
    ),
    Mutant(
        "remove-from-combat",
        "506.4",
        "combat.py",
        "    obj.attacking = None\n    obj.blocking = []\n    obj.blocked = False\n    game.touch()\n",
        "    game.touch()\n",
    ),
    Mutant(
        "removed-attacker-still-dealt-damage",
        "506.4",
        "combat.py",
        "a.oid in blocker.blocking and a.attacking is not None]",
        "a.oid in blocker.blocking]",
    ),
    Mutant(
        "fight-one-way",
        "701.14a",
        "effects.py",
        "        replacement.deal_damage(game, b, a, power_b)\n",
        "        pass\n",
    ),
    Mutant(
        "fight-despite-illegal-target",
        "701.14b",
        "effects.py",
        "if len(first) < 1 or len(second) < 1 or len(fighters) < 2:",
        "if not fighters:",
    ),
    Mutant(
        "fight-itself-once",
        "701.14c",
        "effects.py",
        "replacement.deal_damage(game, a, a, 2 * power_a)",
        "replacement.deal_damage(game, a, a, power_a)",
    ),
    # -- delayed triggered abilities, trigger events, this turn's history (rules 603.7, 119.9, 608.2i) -----------
    Mutant(
        "delayed-triggers-every-time",
        "603.7b",
        "triggers.py",
        "        if not delayed.this_turn:\n            game.delayed_triggers.remove(delayed)\n",
        "        pass\n",
    ),
    Mutant(
        "delayed-this-turn-never-ends",
        "603.7b",
        "turn.py",
        "    game.delayed_triggers = [d for d in game.delayed_triggers if not d.this_turn]\n",
        "",
    ),
    Mutant(
        "delayed-about-any-object",
        "603.7c",
        "triggers.py",
        "        if lki.oid not in delayed.about:\n            return False\n",
        "",
    ),
    Mutant(
        "delayed-that-follows-the-card",
        "603.7c",
        "effects.py",
        "        live_about = [game.find(oid) for oid in ctx.about]\n",
        "        cards = [game.lki[oid].card for oid in ctx.about if oid in game.lki]\n"
        "        live_about = [game.find(oid) for oid in ctx.about]"
        " + [o for o in game.battlefield if o.card in cards]\n",
    ),
    Mutant(
        "delayed-controller-of-that-live-only",
        "603.7c",
        "effects.py",
        "        snap = game.lki.get(oid)\n        return [snap.controller] if snap is not None else []",
        "        return []",
    ),
    Mutant(
        "no-turned-face-up-event",
        "702.37e",
        "actions.py",
        '    triggers.collect(game, Event("turned_face_up", obj=obj, player=player))\n',
        "",
    ),
    Mutant(
        "no-life-gained-event",
        "119.9",
        "game.py",
        '        triggers.collect(self, Event("life_gained", player=player, amount=n))\n',
        "",
    ),
    Mutant(
        "gaining-zero-life-is-an-event",
        "119.9",
        "game.py",
        "        if n <= 0:\n            return 0\n        self.players[player].life += n",
        "        if n < 0:\n            return 0\n        self.players[player].life += n",
    ),
    Mutant(
        "no-becomes-target-event",
        "601.2c",
        "stack.py",
        "    triggers.targeted(game, chosen_targets, player)\n",
        "",
    ),
    Mutant(
        "no-countered-event",
        "701.6a",
        "countering.py",
        '    triggers.collect(game, Event("countered", lki=snap, player=snap.controller))  # rule 701.6a\n',
        "",
    ),
    Mutant(
        "damage-trigger-any-source",
        "120.3",
        "triggers.py",
        '        if not _snap_matches(game, event.lki, filt["source"], controller, source):\n'
        "            return False\n",
        "        pass\n",
    ),
    Mutant(
        "damage-trigger-any-recipient",
        "120.3",
        "triggers.py",
        '    return recipient_matches(game, event.target, filt.get("to"), controller)\n',
        "    return True\n",
    ),
    Mutant(
        "multicolored-filter-ignored",
        "105.2b",
        "layers.py",
        '(len(chars.colors) > 1) != bool(filt["multicolored"])',
        "False",
    ),
    Mutant(
        "opponent-casts-includes-you",
        "105.2b",
        "triggers.py",
        "            and is_opponent(game, controller, event.player)\n",
        "",
    ),
    Mutant(
        "no-counters-removed-event",
        "122.1",
        "game.py",
        '        triggers.collect(self, Event("counters_removed", obj=obj, counter=kind, amount=n))\n',
        "",
    ),
    Mutant(
        "history-attackers-not-recorded",
        "608.2i",
        "history.py",
        "        h.attacked_with[game.controller(event.obj)] += 1\n",
        "        pass\n",
    ),
    Mutant(
        "history-life-not-recorded",
        "608.2i",
        "history.py",
        "        h.life_gained[event.player] += event.amount\n",
        "        pass\n",
    ),
    Mutant(
        "history-deaths-not-recorded",
        "608.2i",
        "history.py",
        "        h.creatures_died += 1\n",
        "        pass\n",
    ),
    Mutant(
        "history-never-reset",
        "608.2i",
        "turn.py",
        "    game.history = TurnHistory()  # conditions on \"this turn\" look at the new turn only\n",
        "",
    ),
    Mutant(
        "put-into-graveyard-any-zone",
        "603.2c",
        "triggers.py",
        "            and (origin is None or event.from_zone == origin)\n",
        "",
    ),
    Mutant(
        "becomes-target-ignores-who",
        "601.2c",
        "triggers.py",
        "        if by and (event.player is None or not _whose(game, by, event.player, controller)):\n",
        "        if False:\n",
    ),
    Mutant(
        "it-is-not-the-damage-source",
        "120.3",
        "effects.py",
        '        if oid is None and event is not None and event.kind == "damage" and event.lki is not None:\n',
        "        if False:\n",
    ),
    Mutant(
        "exiled-card-not-that-card",
        "603.7c",
        "effects.py",
        '        ctx.made.append(ctx.game.move(obj, "exile"))\n',
        '        ctx.game.move(obj, "exile")\n',
    ),
    Mutant(
        "history-spells-not-recorded",
        "608.2i",
        "history.py",
        "        h.spells_cast[event.player] += 1\n",
        "        pass\n",
    ),
    # -- players: three or more, Two-Headed Giant, emblems, player counters (101.4, 102.3, 114, 122, 800, 805, 810)
    Mutant("apnap-not-from-active", "101.4", "teams.py", "    start = order.index(active_players(game)[0])\n",
           "    start = 0\n"),
    Mutant("teammate-is-opponent", "102.3", "teams.py",
           "    return other != player and other not in team_of(game, player)\n", "    return other != player\n"),
    Mutant("attack-anyone", "508.1b", "combat.py", "            if str(target) not in defenders:\n",
           "            if False:\n"),
    Mutant("block-any-attacker", "802.4a", "combat.py",
           "    return defender is not None and defender in teams.team_of(game, blocker_controller)\n",
           "    return True\n"),
    Mutant("team-blocks-only-own-attackers", "805.10d", "combat.py",
           "    return defender is not None and defender in teams.team_of(game, blocker_controller)\n",
           "    return defender == blocker_controller\n"),
    Mutant("leaving-player-keeps-objects", "800.4a", "sba.py", "            teams.leave_game(game, name)\n",
           "            pass\n"),
    Mutant("left-player-takes-turns", "800.4k", "teams.py", "        if p not in current and in_game(game, p):\n",
           "        if p not in current:\n"),
    Mutant("damage-to-left-player", "800.4e", "combat.py",
           "        if isinstance(defender, str) and game.players[defender].left:\n",
           "        if False:\n"),
    Mutant("life-not-shared", "810.9", "objects.py",
           "        if self.team is not None:\n            self.team.life = value\n",
           "        if False:\n            self.team.life = value\n"),
    Mutant("team-loses-alone", "810.8a", "teams.py", "        for member in team_of(game, p):\n",
           "        for member in (p,):\n"),
    Mutant("team-poison-ten", "810.8d", "teams.py",
           "        return TEAM_POISON_TO_LOSE + 5 * (len(team.members) - 2)\n", "        return POISON_TO_LOSE\n"),
    Mutant("old-poison-shared", "810.10", "teams.py",
           "    shared = not game.options.two_headed_giant_individual_poison\n", "    shared = True\n"),
    Mutant("team-cant-gain-life-only-you", "810.9g", "replacement.py",
           "        return player in teams.team_of(game, you) if team else player == you\n",
           "        return player == you\n"),
    Mutant("only-one-player-draws", "805.4b", "turn.py", "        for player in teams.active_players(game):\n",
           "        for player in (game.active,):\n"),
    Mutant("only-one-player-untaps", "805.4", "turn.py",
           "        if teams.is_active(game, game.controller(obj)):\n",
           "        if game.controller(obj) == game.active:\n"),
    Mutant("exchange-one-way", "701.12b", "effects.py",
           "    for obj, gains in ((first, had_second), (second, had_first)):\n",
           "    for obj, gains in ((first, had_second),):\n"),
    Mutant("power-filter-ignored", "207.2c", "layers.py",  # ferocious is an ability word
           'if "power_at_least" in filt and (chars.power is None or chars.power < int(filt["power_at_least"])):',
           'if "power_at_least" in filt and chars.power is None:'),
    Mutant("move-counters-ignores-cant-have", "122.5", "effects.py",
           "        reason = replacement.counters_forbidden(game, dst, kind, n)\n", "        reason = None\n"),
    Mutant("move-counters-not-removed", "122.5", "effects.py", "        game.remove_counters(src, kind, n)\n",
           "        pass\n"),
    Mutant("doesnt-untap-ignored", "502.3", "turn.py", "            if obj.skips_next_untap:  #",
           "            if False:  #"),
    Mutant("doesnt-untap-never-used-up", "502.3", "turn.py", "                obj.skips_next_untap = False\n",
           "                pass\n"),
    Mutant("static-doesnt-untap-ignored", "611.3a", "turn.py", "            elif _static_keeps_tapped(game, obj):\n",
           "            elif False:\n"),
    Mutant("redirect-to-teammates-planeswalker", "306.7", "replacement.py",
           "            if game.controller(o) == recipient and game.chars(o).is_(\"Planeswalker\")\n",
           "            if game.controller(o) in teams.team_of(game, recipient)\n"
           "            and game.chars(o).is_(\"Planeswalker\")\n"),
    Mutant("emblem-abilities-dont-function", "114.4", "game.py",
           "        return self.battlefield + emblems if emblems else self.battlefield\n",
           "        return self.battlefield\n"),
    Mutant("player-counters-not-counted", "122.1", "effects.py",
           "        value = sum(game.players[p].counter_count(kind) for p in who)\n", "        value = 0\n"),
    Mutant("player-counters-dont-trigger", "122.1", "triggers.py",
           "            event.kind == \"player_counters\"\n", "            event.kind == \"never\"\n"),
    Mutant("player-counters-not-removed", "122.1", "effects.py",
           "        ctx.game.remove_player_counters(p, str(v[\"kind\"]), amount(ctx, v.get(\"n\", 1)))\n",
           "        pass\n"),
    # -- copy effects and layers (rules 707, 613, 604.3) ----------------------------------------------------
    Mutant(
        "copy-effects-ignored",
        "707.2",
        "layers.py",
        '            index[oid] = effect.data["values"]\n',
        "            pass\n",
    ),
    Mutant(
        "copy-face-down-status-ignored",
        "708.2",
        "layers.py",
        '    if face_down and obj.face_down and obj.zone in ("battlefield", "stack"):\n        return FACE_DOWN',
        '    if False:\n        return FACE_DOWN',
    ),
    Mutant(
        "copy-takes-printed-values",
        "707.3",
        "copies.py",
        'copied = with_exceptions(copiable_values(game, original), spec.get("except"), own=values)',
        'copied = with_exceptions(printed_values(original), spec.get("except"), own=values)',
    ),
    Mutant(
        "copy-exceptions-ignored",
        "707.9",
        "copies.py",
        "    if not exc:\n        return values\n",
        "    if True:\n        return values\n",
    ),
    Mutant(
        "copy-keeps-defined-pt-under-exception",
        "707.9d",
        "copies.py",
        '        abilities = [a for a in abilities if not (a.kind == "static" and a.spec.get("static") == CDA_PT)]\n',
        "",
    ),
    Mutant(
        "copy-keeps-no-own-colour",
        "707.9c",
        "copies.py",
        '    if "colors" in exc.get("not_copied", []) and own is not None:',
        "    if False:",
    ),
    Mutant(
        "enters-as-copy-ignored",
        "707.5",
        "game.py",
        "            copies.as_enters(self, new)  # 707.5",
        "            pass  # 707.5",
    ),
    Mutant(
        "spell-copy-exceptions-ignored",
        "707.10",
        "stack.py",
        "    values = copies.with_exceptions(copies.copiable_values(game, spell), exceptions)\n",
        "    values = copies.copiable_values(game, spell)\n",
    ),
    Mutant(
        "turned-up-copy-uses-printed-card",
        "708.10",
        "actions.py",
        "    definition = copies.copiable_values(game, obj, face_down=False)\n",
        "    definition = obj.definition\n",
    ),
    Mutant(
        "defined-pt-ignored",
        "604.3",
        "layers.py",
        "    _defined_pt(game, objects, result)  # 7a",
        "    pass  # 7a",
    ),
    Mutant(
        "defined-pt-counts-every-controller",
        "604.3",
        "layers.py",
        "    return sum(1 for o in pool if matches(game, o, result[o.oid], filt, chars.controller, source))",
        "    filt.pop('controller', None)\n"
        "    return sum(1 for o in pool if matches(game, o, result[o.oid], filt, chars.controller, source))",
    ),
    Mutant(
        "static-base-pt-in-7c",
        "613.4b",
        "layers.py",
        '    "set_pt": "7b",  # "has base power and toughness N/N" (613.4b)',
        '    "set_pt": "7c",',
    ),
    Mutant(
        "dependency-ignored",
        "613.8",
        "layers.py",
        "        if len(pending) > 1 and any(e.ability is not None for e in pending):",
        "        if False:",
    ),
    Mutant(
        "static-effect-outlives-its-ability",
        "613.8a",
        "layers.py",
        "    if effect.ability is None:\n        return True\n    chars = result.get",
        "    if True:\n        return True\n    chars = result.get",
    ),
    Mutant(
        "timestamps-reversed",
        "613.7",
        "layers.py",
        "    return (LAYER_ORDER.index(effect.layer), effect.timestamp)",
        "    return (LAYER_ORDER.index(effect.layer), -effect.timestamp)",
    ),
    Mutant(
        "copy-loses-this-ability",
        "707.9a",
        "copies.py",
        '    if exc.get("this_ability") and this_ability is not None and this_ability not in abilities:',
        "    if False:",
    ),
    Mutant(
        "copy-of-a-departed-object-made-of-nothing",
        "608.2h",
        "effects.py",
        "    snap = _target_lki(ctx, ref)\n",
        "    snap = None\n",
    ),
    Mutant(
        "land-type-set-keeps-its-abilities",
        "305.7",
        "layers.py",
        "            chars.abilities, chars.keywords = [], {}  # 305.7",
        "            pass  # 305.7",
    ),
    Mutant(
        "become-copy-ignored",
        "707.1",
        "effects.py",
        "        copies.become_copy(ctx.game, obj, copied,",
        "        (lambda *a, **k: None)(ctx.game, obj, copied,",
    ),
    Mutant(
        "back-face-mana-value-zero",
        "202.3b",
        "layers.py",
        "        chars.front_mana_value = front.cost.mana_value\n",
        "        pass\n",
    ),
    # -- Phyrexian mana, mana of any colour, equip, more object costs ------------------------------------
    Mutant("phyrexian-life-unchecked", "119.4", "phyrexian.py", "if paid + other_life > life:", "if False:"),
    Mutant(
        "phyrexian-never-life",
        "107.4f",
        "phyrexian.py",
        "itertools.product((LIFE, _MANA), repeat=len(symbols))",
        "itertools.product((_MANA,), repeat=len(symbols))",
    ),
    Mutant(
        "phyrexian-life-not-paid",
        "119.4",
        "stack.py",
        "    if life:  # rule 119.4: paying life is losing it\n        lifetotal.pay(game, player, life)\n",
        "    if life:  # rule 119.4: paying life is losing it\n        pass\n",
    ),
    Mutant(
        "phyrexian-mana-value-two",
        "202.3g",
        "mana.py",
        '            elif s.kind != "x":\n                total += 1\n',
        '            elif s.kind == "phyrexian":\n                total += 2\n'
        '            elif s.kind != "x":\n                total += 1\n',
    ),
    Mutant(
        "any-color-accepts-colorless",
        "105.1",
        "produce.py",
        "if len(colour) != 1 or colour not in COLORS:",
        "if len(colour) != 1:",
    ),
    Mutant(
        "equip-at-instant-speed",
        "702.6a",
        "equipment.py",
        '        "timing": "sorcery",  # rule 702.6a: activate only as a sorcery\n',
        "",
    ),
    Mutant(
        "equip-any-creature",
        "702.6a",
        "equipment.py",
        'filt = {**_as_python(quality), "controller": "you"} if quality else {"controller": "you"}',
        "filt = {**_as_python(quality)} if quality else {}",
    ),
    Mutant(
        "attach-same-object-moves", "701.3b", "attach.py", "    if obj.attached_to == host.oid:\n", "    if False:\n"
    ),
    Mutant(
        "equipment-creature-stays-attached",
        "301.5c",
        "attach.py",
        '        if chars.is_("Creature"):\n            return "Снаряжение, являющееся',
        '        if False:\n            return "Снаряжение, являющееся',
    ),
    Mutant(
        "unattachable-stays-attached",
        "704.5p",
        "sba.py",
        "            unattach.append(obj)  # rule 704.5p",
        "            pass  # rule 704.5p",
    ),
    Mutant(
        "untap-cost-takes-untapped",
        "118.3",
        "objectcosts.py",
        'filt["tapped"] = verb == "untap"',
        'filt["tapped"] = False',
    ),
    Mutant(
        "return-cost-to-graveyard",
        "118.3",
        "costs.py",
        '"return": "hand", "discard"',
        '"return": "graveyard", "discard"',
    ),
    Mutant(
        "discard-cost-any-card",
        "118.3",
        "objectcosts.py",
        '    filt = _kind_filter(m["what"])\n    if filt is None:\n        return None\n    if verb == "exile"',
        '    filt = _kind_filter(m["what"]) and {}\n    if filt is None:\n        return None\n    if verb == "exile"',
    ),
    Mutant("shuffle-silent", "701.24a", "game.py", "    if len(library) > 1:\n        answer = game.decide_or_seed(",
           "    if False:\n        answer = game.decide_or_seed("),
    Mutant("shuffle-seed-ignored", "701.24a", "game.py", "if self.seed is not None and not any(",
           "if False and not any("),
    Mutant(
        "object-cost-counts-its-own-tap",
        "118.3",
        "costs.py",
        "            have = [o for o in have if o.oid != obj.oid]\n",
        "            pass\n",
    ),
    Mutant(
        "additional-cost-not-paid",
        "118.8",
        "stack.py",
        "        costs.pay_nonmana(game, extra, spell, player)\n",
        "        pass\n",
    ),
    Mutant(
        "remove-counter-cost-unchecked",
        "118.3",
        "costs.py",
        "        pool = [o for o in pool if o.counters.get(cost.counter, 0) >= (1 if cost.among else cost.n)]\n",
        "        pool = list(pool)\n",
    ),
    # -- defending player, block triggers, untapping, life lost, draws, this turn's damage (issue 8) ------------
    Mutant("defending-player-any-opponent", "508.5", "defending.py",
           "            return player_attacked(game, game.history.attack_targets[oid])\n", "            break\n"),
    Mutant("defending-player-filter-ignored", "508.5", "layers.py",
           "            if chars.controller != defending_player(game, source.oid if source is not None else None):\n",
           "            if False:\n"),
    Mutant("blocks-trigger-missing", "509.3a", "combat.py",
           '        triggers.collect(game, Event("blocks", obj=blocker, player=game.controller(blocker)))\n', ""),
    Mutant("becomes-blocked-per-blocker", "509.3c", "combat.py",
           '                triggers.collect(game, Event("becomes_blocked_by", obj=attacker, target=blocker))\n',
           '                triggers.collect(game, Event("becomes_blocked_by", obj=attacker, target=blocker))\n'
           '                triggers.collect(game, Event("becomes_blocked", obj=attacker))\n'),
    Mutant("blocked-by-names-the-attacker", "509.3d", "combat.py",
           'Event("becomes_blocked_by", obj=attacker, target=blocker)',
           'Event("becomes_blocked_by", obj=attacker, target=attacker)'),
    Mutant("untap-untapped-triggers", "701.26b", "tapping.py",
           "    if not obj.tapped:\n        return False\n    obj.tapped = False\n", "    obj.tapped = False\n"),
    Mutant("untap-step-no-event", "502.3", "turn.py", "            tapping.untap(game, obj)\n",
           "            obj.tapped = False\n"),
    Mutant("life-lost-no-event", "119.3", "life.py",
           '    triggers.collect(game, Event("life_lost", player=player, amount=n))\n', "    pass\n"),
    Mutant("paid-life-not-lost", "119.4", "life.py",
           "        game.players[player].life -= n\n        lost(game, player, n)\n",
           "        game.players[player].life -= n\n"),
    Mutant("lost-life-at-least-strict", "119.3", "history.py", "            n >= least and",
           "            n > least and"),
    Mutant("draws-not-counted", "121.1", "history.py", "        h.cards_drawn[event.player] += 1\n", "        pass\n"),
    Mutant("draws-trigger-missing", "121.1", "triggers.py",
           'event.kind == ("life_lost" if when == "loses_life" else "draw")', 'event.kind == "life_lost"'),
    Mutant("damage-not-in-history", "120.2", "history.py", "        _note_damage(game, event)\n", "        pass\n"),
    Mutant("dealt-damage-filter-any", "120.2", "layers.py",
           "        r.source.oid == obj.oid for r in game.history.damage\n",
           "        r.source.oid != 0 for r in game.history.damage\n"),
    # -- block requirements (509.1c) and evasion --------------------------------------------------------------
    Mutant("block-requirement-ignores-restrictions", "509.1c", "requirements.py", "        if legal(trial):\n",
           "        if True:\n"),
    Mutant("block-requirement-any-attacker", "509.1c", "requirements.py",
           "        return bool(attacked) if self.attacker is None else self.attacker in attacked\n",
           "        return bool(attacked)\n"),
    Mutant("blocks-each-combat-ignored", "509.1c", "requirements.py",
           '        if _statics(game, blocker, "blocks_each_combat"):\n', "        if False:\n"),
    Mutant("no-blocks-skips-requirements", "509.1c", "turn.py", "        combat.check_requirements(game, [])",
           "        pass"),
    Mutant("skulk", "702.118b", "combat.py", 'if "skulk" in akw and', "if False and"),
    Mutant("shadow", "702.28b", "combat.py", 'if ("shadow" in akw) != ("shadow" in chars.keywords):', "if False:"),
    # -- reflexive and state triggers (603.12, 603.8) ---------------------------------------------------------
    Mutant("reflexive-trigger-missing", "603.12", "effects.py",
           "    game.pending_triggers.append(\n"
           '        triggers.PendingTrigger(ctx.controller, ability, source, ctx.event or Event("reflexive"))\n    )\n',
           "    pass\n"),
    Mutant("state-triggers-never-checked", "603.8", "turn.py",
           "        triggers.collect_state_triggers(game)  # rule 603.8\n", ""),
    Mutant("state-trigger-retriggers-on-stack", "603.8", "triggers.py",
           "            if _in_flight(game, source.oid, ability.name):\n                continue\n", ""),
    # -- external3: "for the rest of the game" and the damaged player of a damage event ----------------------
    Mutant(
        "cant-gain-life-only-this-turn",
        "611.2a",
        "effects.py",
        '    duration = str(v.get("duration", "end_of_turn"))\n',
        '    duration = "end_of_turn"\n',
    ),
    Mutant(
        "damage-event-has-no-player",
        "603.2",
        "replacement.py",
        "    dealt = recipient if isinstance(recipient, str) else None\n",
        "    dealt = None\n",
    ),
    Mutant(
        "edict-any-controller",
        "701.21a",
        "edicts.py",
        "            if game.controller(o) == player and matches(",
        "            if matches(",
    ),
    Mutant(
        "prevent-from-source-ignored",
        "615.1a",
        "replacement.py",
        '        return bool(shield["from"] == source.oid)\n',
        "        return False\n",
    ),
    Mutant(
        "player-or-planeswalker-no-player",
        "115.1",
        "targets.py",
        '        if kind in ("player", "any", "creature_or_player", "player_or_planeswalker"):',
        '        if kind in ("player", "any", "creature_or_player"):',
    ),
    # -- combat of helper mech-combat: alone, several blocks, damage by toughness, can't block, power filters --------
    Mutant("attack-alone-allowed", "506.5", "combat.py",
           '    _check_alone(game, [obj for obj, _ in chosen], "attack")\n', ""),
    Mutant("block-alone-allowed", "506.5", "combat.py",
           '    _check_alone(game, [blocker for blocker, attackers in chosen if attackers], "block")\n', ""),
    Mutant("alone-removed-once-alone", "506.5", "combat.py",
           "    assignments: list[tuple[GameObject, Any, int]] = []\n    if first:\n",
           "    attacking = [o for o in game.battlefield if o.attacking is not None]  # mutant: checked again later\n"
           "    if len(attacking) == 1 and statics_affecting(game, attacking[0], \"cant_attack_or_block_alone\"):\n"
           "        attacking[0].attacking = None\n"
           "    assignments: list[tuple[GameObject, Any, int]] = []\n    if first:\n"),
    Mutant("block-any-number-of-attackers", "509.1a", "combat.py", "    if len(attackers) > allowed:\n",
           "    if False:\n"),
    Mutant("block-additional-ignored", "509.1a", "combat.py",
           '    allowed = 1 + sum(int(spec["value"]["n"]) for _, spec in statics_affecting(game, blocker, '
           '"can_block_additional"))\n', "    allowed = 1\n"),
    Mutant("blocker-of-several-deals-nothing", "510.1d", "combat.py",
           "            assignments += _blocker_assignment(game, blocker, attackers, power)\n", "            pass\n"),
    Mutant("damage-by-power-always", "510.1a", "combat.py",
           "    return (chars.toughness if by_toughness else chars.power) or 0\n", "    return chars.power or 0\n"),
    Mutant("toughness-changes-power", "510.1a", "layers.py",
           "    late = sorted([e for e in spell_effects if e.layer.startswith(\"7\")] + late_statics, key=_order)\n",
           "    late = sorted([e for e in spell_effects if e.layer.startswith(\"7\")] + late_statics, key=_order)\n"
           "    for _o in objects:\n"
           "        if any(a.kind == 'static' and a.spec.get('static') == 'assigns_damage_by_toughness'\n"
           "               for s in game.battlefield for a in result[s.oid].abilities):\n"
           "            result[_o.oid].power = result[_o.oid].toughness\n"),
    Mutant("cant-block-effect-ignored", "509.1b", "combat.py",
           '        e.kind == "cant_block" and _forbidden(game, e.data, e.affected, blocker) for e in game.effects\n',
           '        e.kind == "cant_block_never" for e in game.effects\n'),
    Mutant("cant-block-group-locked", "611.2c", "combat_effects.py",
           '        data = {"filter": what["all"], "you": whose[0], "except": sorted(spared)}\n',
           "        chosen = [o for o in objects(ctx, what) if o.oid not in spared]\n"),
    Mutant("cant-block-except-ignored", "509.1b", "combat_effects.py",
           '    spared = {o.oid for o in objects(ctx, v["except"])} if "except" in v else set()\n',
           "    spared: set[int] = set()\n"),
    Mutant("power-below-source-or-equal", "509.1b", "layers.py",
           '    if filt.get("power_below_source") and not chars.power < theirs:\n',
           '    if filt.get("power_below_source") and not chars.power <= theirs:\n'),
    Mutant("power-above-source-ignored", "509.1b", "layers.py",
           '    return not (filt.get("power_above_source") and not chars.power > theirs)\n', "    return True\n"),
    Mutant("not-subtypes-ignored", "509.1b", "layers.py",
           '    if "not_subtypes" in filt and any(has_subtype(chars, s) for s in filt["not_subtypes"]):\n',
           "    if False:\n"),
    Mutant("blocked-by-source-counts-all", "509.1a", "layers.py",
           "        isinstance(source, GameObject) and obj.oid in source.blocking\n",
           "        isinstance(source, GameObject)\n"),
    Mutant("granted-ability-ignored", "613.1f", "granted.py", '    chosen = objects(ctx, v.get("on", "target"))\n',
           "    chosen = []\n"),
    Mutant("additional-combat-ignored", "500.8", "turn.py",
           '    if current == "end_of_combat" and game.history.extra_combats:', "    if False:"),
    Mutant("first-attack-any-attack", "500.8", "history.py", "h.attacks_by[source.oid] == 1)",
           "h.attacks_by[source.oid] >= 1)"),
    Mutant("attack-trigger-defender-of-source", "508.5", "effects.py",
           "            order.reverse()  # defending player", "            pass  # defending player"),
    Mutant("choose-blocks-ignored", "509.1", "combat.py",
           "    return max(choosers, key=lambda e: e.timestamp).controller if choosers else None\n",
           "    return None\n"),
    Mutant("attack-cost-not-paid", "508.1h", "combat.py",
           '    combat_costs.pay(game, [obj for obj, _ in chosen], "attack")', "    pass"),
    Mutant("block-cost-not-paid", "509.1d", "combat.py",
           '    combat_costs.pay(game, [blocker for blocker, attackers in chosen if attackers], "block")', "    pass"),
    Mutant("attack-requirement-forces-cost", "508.1d", "combat.py",
           '        and not combat_costs.has_cost(game, o, "attack")', "        and True"),
    Mutant("block-requirement-forces-cost", "509.1c", "combat.py",
           '        if combat_costs.has_cost(game, blocker, "block"):  # a requirement',
           "        if False:  # a requirement"),
    Mutant("unless-control-ignored", "508.1c", "combat.py",
           '        not _controls(game, source, (spec.get("value") or {}).get("unless_control"))\n', "        True\n"),
    Mutant("attack-restriction-rechecked-at-damage", "508.1c", "combat.py",
           "    assignments: list[tuple[GameObject, Any, int]] = []\n    if first:\n",
           "    for o in game.battlefield:  # mutant: an attacker removed once a restriction would forbid its attack\n"
           "        if o.attacking is not None and _restricted(game, o, \"attack\"):\n"
           "            o.attacking = None\n"
           "    assignments: list[tuple[GameObject, Any, int]] = []\n    if first:\n"),
    Mutant("all-defending-player-of-source", "508.5", "effects.py",
           '        elif isinstance(filt, dict) and filt.get("controller") == "defending_player":\n',
           "        elif False:\n"),
    Mutant("owner-filter-ignored", "108.3", "layers.py",
           '    if "owner" in filt and (obj.owner == you) != (filt["owner"] == "you"):', "    if False:"),
    Mutant("blocks-at-least-retriggers", "509.3e", "triggers.py",
           "            and event.amount >= n > int(event.target or 0)\n", "            and event.amount >= n\n"),
    Mutant("block-also-no-count-event", "509.3e", "combat_effects.py",
           '    triggers.collect(game, Event("blocking_count", obj=blocker, amount=before + 1, target=before))\n', ""),
    Mutant("restrictions-rechecked-at-damage", "509.1b", "combat.py",
           "    assignments: list[tuple[GameObject, Any, int]] = []\n    if first:\n",
           "    for b in game.battlefield:  # mutant: a block undone once a restriction stops allowing it\n"
           "        for a in [x for x in game.battlefield if x.oid in b.blocking]:\n"
           "            if not _allowed(lambda b=b, a=a: check_block(game, b, a)):\n"
           "                b.blocking = [o for o in b.blocking if o != a.oid]\n"
           "                a.blocked = any(a.oid in o.blocking for o in game.battlefield)\n"
           "    assignments: list[tuple[GameObject, Any, int]] = []\n    if first:\n"),
    # "put target creature card … onto the battlefield under your control. It gains haste. … exile it": the permanent
    # is a new object (400.7) that the rest of the effect names as `made`; without it nothing gains haste
    Mutant("reanimated-not-made", "400.7", "effects.py",
           '        if new.zone == "battlefield":\n            ctx.made.append(new)\n', ""),
    # helper dm: "whenever this is dealt damage", damage by another source, life totals that become N, life-gain
    # replacements
    Mutant("dealt-damage-never-triggers", "120.1", "triggers.py",
           "    return event.kind == \"damage\" and isinstance(event.target, GameObject)"
           " and event.target.oid in oids\n",
           "    return False\n"),
    Mutant("dealt-damage-each-source", "510.2", "triggers.py",
           '    if ability.spec.get("triggered") != "dealt_damage" or event.kind != "damage" or not event.batch:\n',
           "    if True:\n"),
    Mutant("damage-source-ignored", "120.1", "effects.py", "        source = dealer\n", "        pass\n"),
    Mutant("set-life-without-gaining", "119.5", "effects.py",
           "        if n > now and (gained := game.gain_life(p, n - now)):\n",
           "        if n > now and (gained := n - now) and not setattr(game.players[p], \"life\", n):\n"),
    Mutant("life-gain-not-replaced", "119.10", "replacement.py",
           '    "gain_life": _life_gain_effects,\n', '    "gain_life": _no_effects,\n'),
    Mutant("spend-only-ignored", "106.6", "spending.py",
           '    """Whether mana with this restriction may pay for this purpose (rule 106.6)."""\n',
           '    """Whether mana with this restriction may pay for this purpose (rule 106.6)."""\n    return True\n'),
    Mutant("spend-only-abilities-any-zone", "106.6", "spending.py",
           '        return obj.zone == "battlefield" and matches(', "        return matches("),
    Mutant("activation-no-event", "602.2", "stack.py",
           '    triggers.collect(game, Event("activated", obj=live, lki=snap, player=player, target=item))\n', ""),
    Mutant("ability-copy-loses-x", "707.10", "stack.py",
           "    copy = replace(original, sid=game.new_id(), controller=controller, targets=list(original.targets))\n",
           "    copy = replace(original, sid=game.new_id(), controller=controller, targets=list(original.targets),"
           " x=0)\n"),
    # -- a variable number of targets and X on the stack (sweep `up`) ---------------------------------------
    Mutant("x-not-in-stack-mana-value", "202.3e", "objects.py",
           "        return self.cost.with_x(self.x_value).mana_value if self.x_value else self.cost.mana_value\n",
           "        return self.cost.mana_value\n"),
    Mutant("x-unknown-as-targets-chosen", "601.2b", "stack.py", "        card_obj.x = x\n", ""),
    Mutant("protection-from-mana-value-ignored", "702.16a", "protection.py",
           '    if "mana_value_at_least" in quality and source.mana_value >= int(quality["mana_value_at_least"]):\n',
           "    if False:\n"),
    Mutant("activated-targets-fixed-number", "601.2c", "stack.py",
           "    if divide.is_variable(specs):  # rules 602.2b, 601.2c", "    if False:  # rules 602.2b, 601.2c"),
    Mutant("each-target-first-only", "601.2c", "effects.py",
           '        return things(ctx, [f"target{i}" for i in range(len(ctx.targets))])\n',
           '        return things(ctx, "target0")\n'),
    Mutant("one-per-player-ignored", "601.2c", "target_relations.py",
           "    return len({c.controller for c in chars}) == len(chars)\n", "    return True\n"),
    Mutant("trigger-rejected-choice-leaves-stack", "115.6", "triggers.py",
           "                    if divide.zero_allowed(specs):", "                    if False:"),
    Mutant("for-each-target-first-only", "608.2c", "eachtarget.py",
           "    for index, chosen in enumerate(ctx.targets):\n",
           "    for index, chosen in enumerate(ctx.targets[:1]):\n"),
    Mutant("x-free-without-paying", "107.3b", "stack.py",
           'chars.cost.has_x and params.get("x") not in (None, 0):', 'chars.cost.has_x and False:'),
    Mutant("mana-value-of-ignored", "202.3", "effects.py",
           "        value = game.chars(found[0]).mana_value if found else snap.chars.mana_value"
           " if snap is not None else 0\n", "        value = 0\n"),
    Mutant("filter-count-bound-ignored", "608.2b", "layers.py",
           "        return sum(1 for o in game.battlefield if matches(game, o, game.chars(o), value[\"count\"], you,"
           " source))\n", "        return 99\n"),
    Mutant("filter-x-ignored", "601.2b", "layers.py",
           "        return source.x if isinstance(source, GameObject) else 0\n", "        return 0\n"),
    Mutant("library-top-order-ignored", "401.4", "ontop.py",
           '            mine = arrange(game, mine, answer, what, "401.4")\n',
           '            arrange(game, mine, answer, what, "401.4")\n'),
    # -- left-out abilities (branch la) ---------------------------------------------------------------------
    # "Add {G} for each +1/+1 counter": the mana is multiplied by the amount (Gyre Sage)
    Mutant("mana-times-ignored", "106.1", "stack.py",
           '        if "mana_times" in spec:  # rule 106.1', '        if False:  # rule 106.1'),
    # "return this from your graveyard": the trigger functions only in the graveyard (Deathmist Raptor)
    Mutant("graveyard-trigger-not-seen", "113.6m", "triggers.py",
           "            if obj.oid not in seen and _functions_in_graveyard(obj.card.definition.abilities):",
           "            if False:"),
    Mutant("graveyard-trigger-anywhere", "113.6m", "triggers.py",
           "    if zone is not None and not (isinstance(source, GameObject) and source.zone == zone):\n"
           "        return False\n",
           ""),
    # a permanent put onto the battlefield face down (Shorecrasher Elemental, Deathmist Raptor)
    Mutant("put-face-down-ignored", "708.3", "effects.py",
           'face_down=bool(v.get("face_down")))', "face_down=False)"),
    # "+1/-1 or -1/+1": the chosen word's effect, chosen as it resolves (608.2d)
    Mutant("by-option-first-word", "608.2d", "colorchoice.py",
           '        run(ctx, v["by_option"].get(answer, {"nothing": {}}))',
           '        run(ctx, next(iter(v["by_option"].values())))'),
    # "if it's a creature": the intervening if checked on the event's object again on resolution (603.4)
    Mutant("event-object-is-not-rechecked", "603.4", "triggers.py",
           "    if live is None or live.zone != \"battlefield\":\n        return False\n    return matches(game, live,",
           "    if live is None or live.zone != \"battlefield\" or True:\n        return True\n"
           "    return matches(game, live,"),
    # "remove a counter from target permanent": the kind chosen on resolution among several (Thrull Parasite)
    Mutant("remove-any-kind-first", "608.2d", "effects.py",
           "    if len(held) <= 1:\n        return held[0] if held else None\n",
           "    if held:\n        return held[0]\n    return None\n"),
    # "remove one or more +1/+1 counters": X counters removed, X in the target's filter (Simic Manipulator)
    Mutant("counter-x-not-in-filters", "601.2b", "stack.py",
           '        spec = {**spec, "targets": _with_x(spec["targets"], x)}',
           '        spec = {**spec, "targets": _with_x(spec["targets"], 99)}'),
    Mutant("counter-x-removes-one", "602.2b", "stack.py",
           "    parts = tuple(replace(p, n=x, variable=False) if p.variable else p for p in cost.objects)",
           "    parts = tuple(replace(p, n=1, variable=False) if p.variable else p for p in cost.objects)"),
    # "pay any amount of life": chosen on resolution, at most the life total (119.4); X is that many (Vizkopa)
    Mutant("pay-any-life-unbounded", "119.4", "handreveal.py",
           "    if answer > have:\n", "    if answer > have + 100:\n"),
    Mutant("reveal-from-hand-all", "701.20a", "handreveal.py",
           "        shown = hand if len(hand) <= n else _chosen(ctx, who, hand, n)", "        shown = hand"),
    # zone-of-origin triggers (River Kelpie): "put onto the battlefield from a graveyard", "cast from a graveyard"
    Mutant("enters-from-zone-ignored", "603.6a", "triggers.py",
           "        and (origin is None or event.from_zone == origin)\n        and isinstance(source, GameObject)\n",
           "        and isinstance(source, GameObject)\n"),
    Mutant("cast-from-zone-ignored", "601.2a", "triggers.py",
           "        and (origin is None or spell.cast_from == origin)\n", ""),
    Mutant("graveyard-permission-ignored", "601.3", "playfrom.py",
           '"play_from_graveyard"):\n        if matches(', '"play_from_graveyard"):\n        if False and matches('),
    # "if this is the third time this ability has resolved this turn" (history.py, rule 608.2; per object, 400.7)
    Mutant("resolutions-not-counted", "608.2", "stack.py",
           "    history.note_resolution(game, item.source_oid, item.ability)", "    pass"),
    Mutant("resolutions-counted-by-name", "400.7", "history.py",
           "    return 0 if ability is None else game.history.resolutions[(source_oid, ability.name)]\n",
           "    return 0 if ability is None else sum(\n"
           "        n for (_, name), n in game.history.resolutions.items() if name == ability.name\n    )\n"),
    Mutant("nth-resolution-or-later", "608.2", "effects.py",
           '== int(cond["nth_resolution_this_turn"])', '>= int(cond["nth_resolution_this_turn"])'),
    Mutant("counters-removed-not-kept", "608.2c", "effects.py", "        ctx.removed += n\n", ""),
    # prevention that does something with the prevented damage (615.5), a source of the player's choice (615.8)
    Mutant("static-prevention-then-ignored", "615.5", "replacement.py",
           "    if after is not None:\n        after(game, ev, prevented)\n", ""),
    Mutant("shield-prevention-then-ignored", "615.5", "replacement.py",
           "            _shield_then(g, shield, ev, prevented)\n", "            pass\n"),
    Mutant("shield-source-filter-ignored", "615.8", "replacement.py",
           "    if \"by\" in shield and not _filter_matches_source(", "    if False and not _filter_matches_source("),
    # mana replacement: "if you tap a permanent for mana, it produces twice as much" (106.12, 106.12b)
    Mutant("mana-replacement-ignored", "106.12b", "stack.py",
           "        if cost.tap:  # rule 106.12", "        if False:  # rule 106.12"),
    Mutant("mana-replacement-untapping", "106.12", "stack.py",
           "        if cost.tap:  # rule 106.12", "        if True:  # rule 106.12"),
    Mutant("mana-replacement-not-cumulative", "614.5", "produce.py",
           "            added = Counter({unit: k * times for unit, k in added.items()})\n",
           "            added = Counter({unit: k * times for unit, k in added.items()})\n            return added\n"),
    # "one mana of any type that a land you control could produce" (106.7: Reflecting Pool)
    Mutant("could-produce-any-type", "106.7", "produce.py",
           "        return _one_of_types(game, player, could_produce(game, player, spec[\"could_produce\"], source), "
           "source)",
           "        return _one_of_types(game, player, set(COLORS) | {\"C\"}, source)"),
    Mutant("could-produce-needs-untapped", "106.7", "produce.py",
           "        if not matches(game, obj, game.chars(obj), filt, player, source):",
           "        if obj.tapped or not matches(game, obj, game.chars(obj), filt, player, source):"),
    Mutant("chosen-source-always-none", "615.8", "effects.py",
           "    chosen = _pick(game, pool, answer, \"источник",
           "    return []\n    chosen = _pick(game, pool, answer, \"источник"),
    # the greatest value among objects (power_among.py, greatest.py): "the greatest power among creatures you
    # control" (208.1), "each creature with the highest mana value" (202.3), counted as it resolves / enters (608.2h)
    Mutant("greatest-power-least", "208.1", "power_among.py",
           "    return max(0, max(powers, default=0))\n", "    return max(0, min(powers, default=0))\n"),
    Mutant("greatest-mana-value-ignored", "202.3", "layers.py",
           "        return greatest.keep_greatest_mana_value(found, result, game)", "        return found"),
    Mutant("token-x-ignored", "608.2h", "effects.py",
           'spec["pt"] = str(spec["pt"]).replace("X", str(amount(ctx, v["x"])))',
           'spec["pt"] = str(spec["pt"]).replace("X", "0")'),
    Mutant("counter-unless-x-ignored", "608.2h", "effects.py",
           '    x = amount(ctx, v["x"]) if "x" in v else ctx.x', "    x = ctx.x"),
    Mutant("entering-counters-greatest-zero", "614.1c", "replacement.py",
           '        return greatest_power(game, n["greatest_power"], new.controller, new, exclude=new.oid)\n',
           "        return 0\n"),
    # protection from multicolored: two or more colours (702.16a, 105.4)
    Mutant("protection-multicolored-ignored", "702.16a", "protection.py",
           '    if quality.get("multicolored") and len(source.colors) > 1:', "    if False:"),
    Mutant("cant-be-targeted-ignored", "601.2c", "targets.py",
           '    if obj.zone == "battlefield" and _spell_restricted(game, chars, source):',
           "    if False:"),
    Mutant("cant-be-targeted-abilities-too", "601.2c", "targets.py",
           '    if live is None or live.zone == "battlefield":\n        return False\n    return any(',
           "    if live is None:\n        return False\n    return any("),
    Mutant("no-hexproof-exception-ignored", "702.11b", "targets.py",
           '            if ability.kind != "static" or ability.spec["static"] != "target_as_though_no_hexproof":',
           "            if True:"),
    Mutant("attach-ignores-enchant", "303.4d", "attach.py",
           '    if "Aura" in chars.subtypes and not could_enchant(game, obj, host):', "    if False:"),
    Mutant("move-auras-any-controller", "701.3", "effects.py",
           "            and game.controller(p) == game.controller(old)\n", ""),
    Mutant("same-name-hidden-always-found", "701.23b", "effects.py",
           '            if answer == "none":\n                hidden = []\n',
           '            if answer == "none":\n                pass\n'),
    Mutant("same-name-graveyard-skipped", "701.23a", "effects.py",
           "        public = [c for c in seat.graveyard if c.card.definition.name == name]",
           "        public = []"),
    # -- clash: "otherwise", "that player", "if you won", "repeat this process" (701.30); "you may ... instead"
    Mutant("clash-otherwise-dropped", "701.30", "effects.py",
           '    branch = v.get("then") if ctx.clash_won else v.get("otherwise")',
           '    branch = v.get("then") if ctx.clash_won else None'),
    Mutant("clash-that-player-is-you", "701.30b", "effects.py",
           "        return [ctx.clashed] if ctx.clashed is not None else []", "        return [ctx.controller]"),
    Mutant("gain-control-player-ignored", "613.1b", "effects.py", "        gainer = whom[0]\n", "        pass\n"),
    Mutant("clash-won-condition-always", "701.30d", "effects.py",
           '        return won == bool(cond["clash_won"])', '        return bool(cond["clash_won"])'),
    Mutant("clash-repeat-once", "701.30d", "effects.py",
           "        if not ctx.clash_won:\n            return\n", "        return\n"),
    Mutant("may-else-dropped", "608.2d", "effects.py",
           '    elif "else" in v:\n        run(ctx, v["else"])\n', ""),
    # -- "enchant tapped creature": the enchant keyword's filter, checked by the state-based action too (303.4d)
    Mutant("enchant-filter-ignored", "303.4d", "attach.py",
           "    return matches(game, host, chars, filt, game.controller(aura), aura)", "    return True"),
    # -- "equipped / enchanted creature has '...'": a static ability granting whole abilities (613.1f)
    Mutant("static-granted-abilities-dropped", "613.1f", "layers.py",
           '        chars.abilities.extend(data["granted"])', "        pass"),
    # -- "for as long as [this] remains on the battlefield" (611.2b)
    Mutant("while-source-duration-ignored", "611.2b", "layers.py",
           '    return source is not None and source.zone == "battlefield"', "    return True"),
    # -- "each player may pay any amount of life. Repeat this process until no one pays life" (608.2c, 119.4)
    Mutant("life-rounds-one-round", "608.2c", "handreveal.py",
           "        if not anyone:\n            break\n", "        break\n"),
    Mutant("life-rounds-life-as-it-began", "119.4", "handreveal.py",
           "            answer = _life_to_pay(ctx, who)  # their life",
           "            game.players[who].life += paid[who]\n            answer = _life_to_pay(ctx, who)\n"
           "            game.players[who].life -= paid[who]  # their life"),
    # -- Guile: "if a spell or ability you control would counter a spell, instead exile that spell ..." (614.1a)
    Mutant("instead-of-countering-ignored", "614.1a", "effects.py",
           "    holder = _counter_replacer(game, ctx.controller)", "    holder = None"),
    Mutant("instead-of-countering-uncounterable", "101.2", "effects.py",
           '    if holder is None or obj.zone != "stack" or countering.cant_be_countered(game, obj):',
           '    if holder is None or obj.zone != "stack":'),
    # -- "target player reveals their hand. You choose a nonland card from it. That player discards that card" (701.9b)
    Mutant("discard-chosen-any-card", "701.9b", "handreveal.py",
           "        pool = [o for o in hand if matches(game, o, game.chars(o), filt, ctx.controller, None)]",
           "        pool = hand"),
    Mutant("discard-chosen-by-discarder", "701.9b", "handreveal.py",
           '        answer = game.decide("choose_card", ctx.controller, "какую карту игрок сбросит?", ctx.source)',
           '        answer = game.decide("choose_card", who, "какую карту игрок сбросит?", ctx.source)'),
    # -- "discard a card at random. If you discard a creature card this way, ..." (701.9b, 608.2c)
    Mutant("random-discard-chosen", "701.9b", "effects.py",
           '        elif v.get("random"):\n            chosen = _at_random(ctx, hand, n)\n', ""),
    Mutant("discarded-not-this-way", "608.2c", "effects.py",
           '            ctx.made.append(game.move(card, "graveyard"))', '            game.move(card, "graveyard")'),
    # -- "each red or green instant or sorcery spell you cast has conspire": paid as the spell is cast (601.2a)
    Mutant("granted-conspire-unpayable", "601.2a", "stack.py",
           '    instances = chars.keyword_count("conspire") + _granted_to_spells(game, player, card_obj, "conspire")',
           '    instances = chars.keyword_count("conspire")'),
    # -- "if you (that player) have no cards in hand": an intervening if (603.4)
    Mutant("hand-empty-always-yours", "603.4", "triggers.py",
           '        whose = controller if cond["hand_empty"] == "you" else event.player if event is not None else None',
           "        whose = controller"),
    Mutant("hand-empty-ignored", "603.4", "triggers.py",
           "        return whose is not None and not game.players[whose].hand", "        return True"),
    # -- "whenever this deals 6 or more damage to an opponent": one event's damage (603.2c)
    Mutant("damage-amount-ignored", "603.2c", "triggers.py",
           '    if "amount_at_least" in filt and event.amount < int(filt["amount_at_least"]):', "    if False:"),
    # -- "return target creature card ... If that card is a Goblin card, ..." (608.2c)
    Mutant("returned-not-this-way", "608.2c", "effects.py",
           '        ctx.made.append(ctx.game.move(obj, "hand"))', '        ctx.game.move(obj, "hand")'),
    # -- "whenever you cast a creature spell, ... return this from your graveyard" (113.6m)
    Mutant("you-cast-not-from-graveyard", "113.6m", "triggers.py",
           '            and (source.zone in ABILITY_ZONES or zone == "graveyard")  # 113.6m',
           "            and source.zone in ABILITY_ZONES  # 113.6m"),
    # -- "the number of Forests you control plus the number of Treefolk you control" (604.3, 613.4a)
    Mutant("static-sum-as-max", "604.3", "layers.py",
           '        return sum(_static_amount(game, part, source, chars, by_id, result) for part in expr["sum"])',
           '        return max(_static_amount(game, part, source, chars, by_id, result) for part in expr["sum"])'),
    # -- "as long as a library has twenty or fewer cards in it" (611.3a)
    Mutant("static-library-condition-ignored", "611.3a", "layers.py",
           '        return any(len(p.library) <= int(condition["library_at_most"]) for p in game.players.values())',
           "        return True"),
    # -- "draw two cards instead" (614.5, 614.6)
    Mutant("draws-instead-replaced-again", "614.5", "replacement.py",
           "        return [ev.but() for _ in range(n)]",
           '        return [Proposed("draw", ev.affected) for _ in range(n)]'),
    Mutant("draws-instead-one", "614.6", "effects.py",
           "    for _ in range(replacement.draws_after_replacement(game, player)):",
           "    for _ in range(min(1, replacement.draws_after_replacement(game, player))):"),
    # a [−X] loyalty cost (107.3a, 606.4) and "put permanent cards from your hand onto the battlefield" (110.4a)
    Mutant("loyalty-x-not-in-effect", "107.3a", "loyalty_x.py",
           "{key: with_x(spec[key], answer) for key", "{key: spec[key] for key"),
    Mutant("loyalty-x-not-removed", "606.4", "loyalty_x.py",
           "replace(cost, loyalty=-answer, loyalty_x=False)", "replace(cost, loyalty=0, loyalty_x=False)"),
    Mutant("from-hand-any-card", "110.4a", "fromhand.py",
           "        if not is_permanent_card(game, card):", "        if False:"),
    Mutant("entering-x-always-zero", "107.3m", "replacement.py",
           "        return new.entered_x\n", "        return 0\n"),
    Mutant("return-card-chooser-ignored", "608.2d", "effects.py",
           'if v.get("chooser") == "opponent" else who', "if False else who"),
    # delve isn't an alternative cost (702.66a, 118.9): treated as one, it would be lost when casting without paying
    Mutant("delve-as-alternative-cost", "702.66a", "stack.py",
           'cost, delved = delve.reduce(game, player, card_obj, cost, params.get("delve"))',
           'cost, delved = delve.reduce(game, player, card_obj, cost, None if params.get("without_paying") '
           'else params.get("delve"))'),
    Mutant("become-copy-no-last-known", "608.2h", "effects.py",
           '    originals = _copy_originals(ctx, v["of"])\n    if not originals:\n        return  # the object to copy',
           '    originals = list(objects(ctx, v["of"]))\n    if not originals:\n        return  # the object to copy'),
    Mutant("owner-of-is-you", "404.2", "effects.py",
           "        return [o.owner for o in owned] or ([snap.card.owner] if snap is not None else [])",
           "        return [ctx.controller]"),
    Mutant("additional-land-ignored", "305.2", "landplays.py",
           "    return 1 + game.players[player].extra_land_plays", "    return 1"),
    Mutant("additional-land-kept", "305.2", "turn.py",
           "        p.extra_land_plays = 0  # rule 305.2", "        pass  # rule 305.2"),
    Mutant("may-discard-skips-discard", "608.2c", "maydiscard.py",
           '    run(ctx, {"discard": {"n": v.get("n", 1), "player": "you"}})\n', ""),
    Mutant("sacrificed-not-remembered", "608.2h", "edicts.py",
           "            ctx.sacrificed.append(game.snapshot(obj))", "            pass"),
    Mutant("your-turn-activation-anytime", "602.5b", "stack.py",
           'if spec.get("timing") == "your_turn" and not teams.is_active(game, player):', "if False:"),
    Mutant("sacrifice-rest-spares-all", "701.21a", "spare.py",
           "        for obj in [o for o in pool if o not in spared]:", "        for obj in []:"),
    Mutant("return-chosen-never-itself", "608.2d", "edicts.py",
           "        mine = [o for o in game.battlefield if game.controller(o) == player]",
           "        mine = [o for o in game.battlefield if game.controller(o) == player and o.oid != ctx.source.oid]"),
    Mutant("greatest-toughness-ignored", "208.1", "layers.py",
           '    return not filt.get("greatest_toughness") or (chars.toughness or 0) >= greatest.top_toughness(game)',
           "    return True"),
    Mutant("face-down-filter-ignored", "708.2", "layers.py",
           '    if "face_down" in filt and obj.face_down != bool(filt["face_down"]):', "    if False:"),
    Mutant("win-game-no-loser", "104.2b", "winning.py",
           "            game.players[name].lost = True\n", "            pass\n"),
    Mutant("control-at-least-always", "603.4", "triggers.py",
           '        return control_count(game, cond["control_at_least"]["filter"], controller, source) >= int(',
           '        return True or control_count(game, cond["control_at_least"]["filter"], controller, source) >= '
           'int('),
    # "for as long as you control [this]" (611.2b, aslong.py): Dragonlord Silumgar, Icefall Regent
    Mutant("as-long-control-not-checked", "611.2b", "aslong.py",
           "    return (chars.controller if chars is not None else game.controller(source)) == controller",
           "    return True"),
    Mutant("as-long-never-ends", "611.2b", "aslong.py",
           "              and not holds(game, e.source_oid, e.controller, result)]",
           "              and False]"),
    Mutant("as-long-starts-anyway", "611.2b", "aslong.py",
           "    if holds(game, source_oid, controller):\n        return True",
           "    if True:\n        return True"),
    Mutant("doesnt-untap-lasting-ignored", "502.3", "turn.py",
           '    lasting = any(e.layer == "untap"', '    lasting = False and any(e.layer == "untap"'),
    # "spells your opponents cast that target [this] cost {2} more" (601.2f): only those that target it
    Mutant("cost-increase-targets-self-any-spell", "601.2f", "stack.py",
           '            if filt.pop("targets_self", False) and targets is not None and not any(',
           '            if filt.pop("targets_self", False) and False and not any('),
    # "toughness less than the exploited creature's toughness" (Profaner of the Dead): the bound, and its LKI (608.2h)
    Mutant("toughness-less-than-ignored", "608.2c", "layers.py",
           '    if "toughness_less_than" in filt and (\n', '    if False and (\n'),
    Mutant("exploited-creature-no-lki", "608.2h", "effects.py",
           "        return ctx.event.target  # \"the exploited", "        return None  # \"the exploited"),
    # "dash costs you pay cost {2} less" (Warbringer) and "the next spell you cast this turn costs {1} less" (601.2f)
    Mutant("cost-reduction-any-alternative", "601.2f", "stack.py",
           '            if "alternative" in filt and filt.pop("alternative") != alternative:',
           '            if "alternative" in filt and filt.pop("alternative") is None:'),
    Mutant("next-spell-reduction-ignored", "601.2f", "next_spell.py",
           '    return [parse_cost(str(d["value"]))', '    return [] and [parse_cost(str(d["value"]))'),
    Mutant("next-spell-never-used-up", "601.2f", "next_spell.py",
           '    game.delayed = [d for d in game.delayed if not (d.get("kind") == KIND and d.get("player") == player)]',
           "    return"),
    # "you may look at face-down creatures you don't control any time" (Keeper of the Lens; 708.5)
    Mutant("look-at-face-down-ignored", "708.5", "effects.py",
           "        return sorted({game.controller(card)} | _lookers_at_face_down(game))",
           "        return [game.controller(card)]"),
    Mutant("look-at-face-down-spells-too", "708.5", "effects.py",
           '    if card.face_down and card.zone == "battlefield":  # its controller',
           '    if card.face_down and card.zone in ("battlefield", "stack"):  # its controller'),
    # "whenever a creature you control fights" (Foe-Razer Regent; 701.14a)
    Mutant("fights-no-event", "701.14a", "effects.py",
           '        triggers.collect(game, Event("fights", obj=fighter, lki=game.snapshot(fighter)))  # as it fought',
           "        pass"),
    Mutant("fights-trigger-any-controller", "701.14a", "triggers.py",
           "and _snap_matches(game, event.lki, filt, controller,",
           "and (lambda *a: True)(game, event.lki, filt, controller,"),
    # "can attack this turn as though it didn't have defender" (Glade Watcher; 702.3b)
    Mutant("despite-defender-ignored", "702.3b", "combat.py",
           "        despite = _despite_defender(game, obj)", "        despite = False"),
    # return_card "from your hand or graveyard", the card moved being `made` (Swift Warkite; 608.2c)
    Mutant("return-card-first-zone-only", "608.2c", "effects.py",
           "        for zone in (zones if isinstance(zones, list) else [zones])",
           "        for zone in (zones[:1] if isinstance(zones, list) else [zones])"),
    Mutant("put-on-bottom-goes-on-top", "401.4", "ontop.py",
           '            game.move(card, "library", top=not bottom)', '            game.move(card, "library")'),
    # "you control enchanted creature" (Illusory Gains): a static ability of layer 2 (613.1b)
    Mutant("control-static-ignored", "613.1b", "layers.py",
           '    control = sorted([e for e in spell_effects if e.layer == "2"] + list(_control_statics(game, result)),',
           '    control = sorted([e for e in spell_effects if e.layer == "2"] + [],'),
    # "return a nonland permanent you control to its owner's hand", chosen on resolution (Ancestral Statue; 608.2c)
    Mutant("return-chosen-filter-ignored", "608.2c", "edicts.py",
           '    filt = v.get("filter") or {}\n    for player in players(ctx, v.get("player", "you")):',
           '    filt = {}\n    for player in players(ctx, v.get("player", "you")):'),
    Mutant("return-chosen-stays", "608.2c", "edicts.py", '        game.move(chosen, "hand")', "        pass"),
    Mutant("return-card-not-made", "608.2c", "effects.py",
           '    ctx.made.append(game.move(chosen, str(v.get("to", "battlefield")), controller=who))',
           '    game.move(chosen, str(v.get("to", "battlefield")), controller=who)'),
    Mutant("despite-defender-forever", "702.3b", "effects.py",
           '    _requirement(ctx, "attack_despite_defender", {}, v)',
           '    _requirement(ctx, "attack_despite_defender", {}, v)\n    ctx.game.effects[-1].duration = "permanent"'),
)


@dataclass
class Outcome:
    name: str
    rule: str
    must_kill: bool
    killed: bool
    failed: dict[str, str] = field(default_factory=dict)  # scenario path -> first failure
    seconds: float = 0.0
    why: str = ""


class MutantError(Exception):
    """A mutant that no longer matches the engine source, or a baseline that is not green."""


def scenario_files(root: Path) -> list[Path]:
    """Every scenario of the suites: the linked ones with the official rulings' (data/scenarios/official/), the
    external and CR ones at the top of their folders (known-failures/ fail on purpose)."""
    linked = sorted((root / SUITES[0]).rglob("*.yaml"))
    return linked + [p for suite in SUITES[1:] for p in sorted((root / suite).glob("*.yaml"))]


def apply(mutant: Mutant, engine_dir: Path) -> None:
    """Edit the copy in ``engine_dir``: the snippet must occur exactly once, and the result must compile."""
    path = engine_dir / mutant.file
    text = path.read_text(encoding="utf-8")
    count = text.count(mutant.snippet)
    if count != 1:
        raise MutantError(f"{mutant.name}: snippet found {count} times in rules_engine/{mutant.file}")
    edited = text.replace(mutant.snippet, mutant.replacement)
    try:
        compile(edited, str(path), "exec")
    except SyntaxError as exc:
        raise MutantError(f"{mutant.name}: edited rules_engine/{mutant.file} does not compile: {exc}") from exc
    path.write_text(edited, encoding="utf-8")


def run_suite(engine_parent: Path, timeout: float = TIMEOUT) -> dict[str, Any]:
    """Play the whole suite with the engine found in ``engine_parent`` (in a subprocess)."""
    env = dict(os.environ, PYTHONPATH=str(engine_parent), PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(engine_parent / "rules_engine")]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT, check=False)
    except subprocess.TimeoutExpired:
        return {"failed": {"*": f"timeout after {timeout:.0f} s (the engine hangs)"}}
    if done.returncode != 0:
        return {"failed": {"*": f"worker exit {done.returncode}: {done.stderr.strip()[-500:]}"}}
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run_mutant(mutant: Mutant | None, timeout: float = TIMEOUT) -> Outcome:
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mutant-") as tmp:
        copy = Path(tmp) / "rules_engine"
        shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__"))
        if mutant is not None:
            apply(mutant, copy)
        result = run_suite(Path(tmp), timeout)
    failed = dict(result.get("failed", {}))
    name = mutant.name if mutant else "(none)"
    return Outcome(
        name=name,
        rule=mutant.rule if mutant else "",
        must_kill=mutant.must_kill if mutant else False,
        killed=bool(failed),
        failed=failed,
        seconds=round(time.perf_counter() - start, 2),
        why=mutant.why if mutant else "",
    )


def worker(engine_dir: Path) -> int:
    """Inside the subprocess: check the mutated copy is the one imported, play every scenario, print JSON."""
    import rules_engine

    if Path(rules_engine.__file__).resolve().parent != engine_dir.resolve():
        print(f"error: imported {rules_engine.__file__}, not the copy in {engine_dir}", file=sys.stderr)
        return 3
    import dataclasses

    import yaml

    from kb import eras
    from rules_engine.cards import load_card_db
    from rules_engine.scenario import load_scenarios, run_scenario

    # a linked scenario is played under the rules of each document it proves (its era), as kb verify does
    timeline = eras.load_timeline(ROOT / "data" / "rules" / "timeline.yaml")
    manifest = yaml.safe_load((ROOT / "data" / "sources" / "manifest.yaml").read_text(encoding="utf-8"))
    dates = {d["id"]: d.get("date") for d in manifest["documents"]}
    failed: dict[str, str] = {}
    files = scenario_files(ROOT)
    try:
        db = load_card_db(ROOT / "data" / "cards")
    except Exception as exc:  # the mutated engine can't even load the cards: every scenario fails
        print(json.dumps({"scenarios": len(files), "failed": {"*": f"cards: {type(exc).__name__}: {exc}"}}))
        return 0
    for path in files:
        rel = str(path.relative_to(ROOT))
        try:
            results = []
            for scenario in load_scenarios(path, db):
                documents = sorted({r.split("/", 1)[0] for r in scenario.rulings})
                all_options = {eras.options_for(timeline, dates.get(d)) for d in documents} or {scenario.options}
                plays = sorted(all_options, key=repr)
                results += [run_scenario(dataclasses.replace(scenario, options=o), db) for o in plays]
        except Exception as exc:  # a crash of the mutated engine is a failure the suite shows
            failed[rel] = f"{type(exc).__name__}: {exc}"
            continue
        for result in results:
            if not result.passed:
                failed[rel] = result.failures[0] if result.failures else "FAIL"
                break
    print(json.dumps({"scenarios": len(files), "failed": failed}))
    return 0


def select(names: Sequence[str] | None) -> list[Mutant]:
    if not names:
        return list(MUTANTS)
    known = {m.name: m for m in MUTANTS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise MutantError(f"unknown mutant(s) {', '.join(unknown)}; known: {', '.join(known)}")
    return [known[n] for n in names]


def check_all(mutants: Iterable[Mutant]) -> None:
    """Every edit applies to the current source (on a throw-away copy)."""
    with tempfile.TemporaryDirectory(prefix="mutant-check-") as tmp:
        for mutant in mutants:
            copy = Path(tmp) / mutant.name / "rules_engine"
            copy.mkdir(parents=True)
            shutil.copy2(ENGINE / mutant.file, copy / mutant.file)
            apply(mutant, copy)


def run(mutants: list[Mutant], jobs: int = 1, timeout: float = TIMEOUT, baseline: bool = True) -> dict[str, Any]:
    """Baseline first (the unmutated suite must be green, else every mutant would look killed), then every mutant."""
    check_all(mutants)
    if baseline:
        unmutated = run_mutant(None, timeout)
        if unmutated.killed:
            raise MutantError(f"the suite fails without any mutant: {unmutated.failed}")
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        outcomes = list(pool.map(lambda m: run_mutant(m, timeout), mutants))
    killed = sum(o.killed for o in outcomes)
    by_linked = sum(any(p == "*" or p.startswith(SUITES[0]) for p in o.failed) for o in outcomes)
    return {
        "scenarios": len(scenario_files(ROOT)),
        "mutants": len(outcomes),
        "killed": killed,
        "killed_by_linked": by_linked,  # a scenario linked to a ruling (data/scenarios) fails
        "killed_by_hang_or_crash": [o.name for o in outcomes if "*" in o.failed],  # no scenario verdict at all
        "survived": len(outcomes) - killed,
        "kill_ratio": round(killed / len(outcomes), 3) if outcomes else 0.0,
        "must_kill_survivors": [o.name for o in outcomes if o.must_kill and not o.killed],
        "outcomes": [asdict(o) for o in outcomes],
    }


def _short(path: str) -> str:
    return Path(path).stem if path != "*" else "*"


def print_table(report: dict[str, Any]) -> None:
    width = max((len(o["name"]) for o in report["outcomes"]), default=10)
    print(f"{'mutant':<{width}}  {'CR':<12}  {'result':<9}  failing scenarios")
    for o in report["outcomes"]:
        status = "killed" if o["killed"] else ("SURVIVED" if o["must_kill"] else "survived")
        names = sorted(_short(p) for p in o["failed"])
        shown = ", ".join(names[:4]) + (f" … (+{len(names) - 4})" if len(names) > 4 else "")
        detail = f"{len(names)}: {shown}" if names else (o["why"] or "-")
        print(f"{o['name']:<{width}}  {o['rule']:<12}  {status:<9}  {detail}")
    print(
        f"\n{report['mutants']} mutants over {report['scenarios']} scenarios: {report['killed']} killed, "
        f"{report['survived']} survived, kill ratio {report['kill_ratio']:.0%}; "
        f"{report['killed_by_linked']} of them by a scenario linked to a ruling ({SUITES[0]})"
    )
    if report["killed_by_hang_or_crash"]:
        print("killed only by a hang or a crash of the whole run: " + ", ".join(report["killed_by_hang_or_crash"]))
    if report["must_kill_survivors"]:
        print("must-kill mutants that survived: " + ", ".join(report["must_kill_survivors"]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument("--only", action="append", metavar="NAME", help="run only this mutant (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run in parallel (default 1)")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per mutant before it counts as a hang")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--check", action="store_true", help="check that every edit applies, run nothing")
    parser.add_argument("--no-baseline", action="store_true", help="skip the unmutated run (it must be green)")
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        return worker(args.worker)
    try:
        mutants = select(args.only)
        if args.list:
            for m in mutants:
                print(
                    f"{m.name:<32} CR {m.rule:<12} rules_engine/{m.file}" + ("" if m.must_kill else "  (may survive)")
                )
            return 0
        if args.check:
            check_all(mutants)
            print(f"{len(mutants)} mutants apply to the current source")
            return 0
        report = run(mutants, args.jobs, args.timeout, baseline=not args.no_baseline)
    except MutantError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print_table(report)
    return 1 if report["must_kill_survivors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
