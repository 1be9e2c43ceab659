"""Players for any number of them: opponents, teams, turn order, APNAP order, leaving the game.

Rule 102.2-102.3: in a two-player game the opponent is the other player; in a game between teams a player's
teammates are the others on their team and the opponents every player not on it. Two-Headed Giant (rule 810)
is the team variant modelled: the shared team turns option (805) — the team whose turn it is is the active
team, its players untap, draw and attack together and the other team defends together — and a shared life
total (810.4, 810.9) and poison counters (810.10). In a game of three or more players who are not on teams
(Free-for-All, rule 806) each attacking creature attacks an opponent of the attacker's choice or one of that
opponent's planeswalkers (the attack multiple players option, 802), and a player who loses leaves the game
while the others play on (800.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rules_engine import log as narr

if TYPE_CHECKING:
    from rules_engine.state import GameState as Game

TWO_HEADED_GIANT = "two_headed_giant"
PLAYERS = ("alice", "bob")  # the players of a scenario that declares none
POISON_TO_LOSE = 10  # rule 704.5c
TEAM_POISON_TO_LOSE = 15  # rule 810.8d / 704.6b: two players; +5 for each player beyond the second (810.11)


def scenario_players(setup: Mapping[str, Any]) -> list[str]:
    """A scenario's players in turn order: its teams one after the other (rule 805.4), else its ``players``,
    else Алиса and Боб."""
    if setup.get("teams"):
        return [str(p) for team in setup["teams"] for p in team]
    return [str(p) for p in setup.get("players") or PLAYERS]


def make_teams(game: Game, members: list[tuple[str, ...]]) -> None:
    """Two-Headed Giant: each team starts with a shared life total of 30 (810.4), 15 more for each player beyond
    the second (810.11); poison counters are shared (810.10) unless the era's rules kept them per player."""
    from rules_engine.objects import Team

    shared = not game.options.two_headed_giant_individual_poison
    for names in members:
        team = Team(members=names, life=15 * len(names), shares_poison=shared)
        for name in names:
            game.players[name].team = team
    game.order = [p for names in members for p in names]


def team_of(game: Game, player: str) -> tuple[str, ...]:
    """The player and their teammates (just the player outside a team game), in turn order."""
    team = game.players[player].team
    return team.members if team is not None else (player,)


def is_opponent(game: Game, player: str, other: str) -> bool:
    """Rule 102.3: the opponents are all the players not on one's team."""
    return other != player and other not in team_of(game, player)


def opponents(game: Game, player: str) -> list[str]:
    """The player's opponents still in the game, in APNAP order ("each opponent", rule 101.4)."""
    return [p for p in apnap(game) if is_opponent(game, player, p)]


def in_game(game: Game, player: str) -> bool:
    return not game.players[player].left


def active_players(game: Game) -> tuple[str, ...]:
    """The active player, or each player of the active team (rule 805.4a)."""
    return team_of(game, game.active)


def is_active(game: Game, player: str) -> bool:
    return player in active_players(game)


def apnap(game: Game) -> list[str]:
    """Rule 101.4: the active player (each player of the active team, 805.6), then the others in turn order;
    players who have left the game make no choices."""
    order = game.order
    start = order.index(active_players(game)[0])
    return [p for p in order[start:] + order[:start] if in_game(game, p)]


def defending_players(game: Game, attacker_controller: str) -> list[str]:
    """Rule 506.2: the opponents of the attacking player; in a shared-turns game, the defending team (805.10a)."""
    return opponents(game, attacker_controller)


def next_turn(game: Game) -> str:
    """The player (the first player of the team, 805.4) who takes the next turn: the next in turn order who is
    still in the game (rule 800.4k: a player who has left begins no turn)."""
    order = game.order
    current = team_of(game, game.active)
    start = order.index(current[-1])
    for p in order[start + 1:] + order[: start + 1]:
        if p not in current and in_game(game, p):
            return team_of(game, p)[0]
    return game.active


def poison_to_lose(game: Game, player: str) -> int:
    """Ten poison counters (704.5c); a Two-Headed Giant team sharing them loses at fifteen (704.6b, 810.11)."""
    team = game.players[player].team
    if team is not None and team.shares_poison:
        return TEAM_POISON_TO_LOSE + 5 * (len(team.members) - 2)
    return POISON_TO_LOSE


def losers_with_team(game: Game, losers: list[str]) -> list[str]:
    """Rule 810.8a: players win and lose only as a team; if either player on a team loses, the team does."""
    out: list[str] = []
    for p in losers:
        for member in team_of(game, p):
            if member not in out:
                out.append(member)
    return out


def multiplayer(game: Game) -> bool:
    """A game that began with more than two players (rule 100.1b), where the game can go on after a loss."""
    return len(game.order) > 2


def leave_game(game: Game, player: str) -> None:
    """Rule 800.4a: a player who leaves the game takes every object they own with them; control effects giving
    them objects end; spells and abilities they control on the stack cease to exist; then what they still control
    is exiled. Not a state-based action; it happens at once."""
    from rules_engine.objects import GameObject

    p = game.players[player]
    if p.left:
        return
    p.left = True
    game.log(f"{narr.player(player)} покидает игру (правило 800.4a): все объекты, которыми владеет этот игрок, "
             "покидают игру")
    for obj in [o for o in game.all_objects() if o.owner == player]:
        if obj.zone == "battlefield":
            game.lki[obj.oid] = game.snapshot(obj)
        game.zone_list(obj).remove(obj)
    game.effects = [e for e in game.effects if not (e.kind == "control" and e.data.get("controller") == player)]
    game.delayed_triggers = [d for d in game.delayed_triggers if d.controller != player]
    game.touch()
    for item in [i for i in game.stack if not isinstance(i, GameObject) and i.controller == player]:
        game.stack.remove(item)
    still = [o for o in game.battlefield if game.controller(o) == player]
    still += [o for o in game.stack if isinstance(o, GameObject) and game.controller(o) == player]
    for obj in still:  # objects of others that the leaving player still controls
        game.move(obj, "exile")
    p.mana_pool.clear()
    p.restricted_mana.clear()
    game.touch()
