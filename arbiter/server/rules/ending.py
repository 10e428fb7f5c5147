"""Ending the game (CR 104) and leaving it (CR 800.4), with teams (808), Emperor (809),
Two-Headed Giant (810.8) and the limited range of influence option (801.14-801.16).

Everything that takes a player out of a game goes through :func:`lose`, :func:`win`,
:func:`draw` or :func:`drawn_for`, which decide who leaves, apply CR 800.4a to each departing
player, and then check whether the game is over (CR 104.2a / 104.2c). When it is, :func:`finish`
records a :class:`GameResult` and raises :class:`GameEnded` to unwind the game's flow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import planechase
from .config import EMPEROR
from .results import DREW, LOST, REASON_RULES, WON, GameResult, PlayerOutcome
from .state import EXILE, GameEnded

if TYPE_CHECKING:
    from .game import Game
    from .melee import TurnContext

# Reasons that "can't lose" effects do not stop: conceding (CR 104.3a) and penalties.
FORCED_REASONS = frozenset({"concession", "judge", "clock"})


def _record(game: Game, pid: int, outcome: str, reason: str) -> None:
    o = PlayerOutcome(pid, outcome, reason, REASON_RULES.get(reason, "104"), game.turn)
    game.outcomes[pid] = o
    game.say(o.text(game.name(pid)) + ".", "player_left", player=pid, outcome=outcome,
             reason=reason, rule=o.rule)


def _emperor_of(game: Game, pid: int) -> int | None:
    if game.config.variant != EMPEROR:
        return None
    team = game.team(pid)
    return next(q for q in game.seats
                if game.config.players[q].team == team and game.config.players[q].emperor)


def _with_teams(game: Game, pids: dict[int, str], team_reason: str) -> dict[int, str]:
    """CR 809.5b/c, 104.3i, 104.4h: what happens to an emperor happens to the whole team."""
    if game.config.variant != EMPEROR:
        return pids
    out = dict(pids)
    for pid in pids:
        if _emperor_of(game, pid) == pid:
            for mate in game.teammates(pid):
                if game.in_game(mate) and mate not in out:
                    out[mate] = team_reason
    return out


def _with_giant_team(game: Game, pids: dict[int, str]) -> dict[int, str]:
    """CR 810.8a-b: in Two-Headed Giant a player's team loses with them, and a player's
    concession takes the whole team out. Whatever stops a player losing stops the team
    (``Game.cant_lose`` looks at the team), so a team leaves whole or not at all."""
    out = dict(pids)
    for pid, reason in pids.items():
        for mate in game.life_mates.get(pid, ()):
            if mate not in out and game.in_game(mate):
                out[mate] = "team_conceded" if reason == "concession" else "teammate_lost"
    return out


def lose(game: Game, losers: dict[int, str], *, then_check: bool = True) -> bool:
    """Players lose simultaneously, each for a reason (CR 104.3); returns whether anyone did.

    Players an effect says can't lose are skipped unless they conceded or were penalised. If
    that would take every remaining player out at once the game is a draw (CR 104.4a, 104.4d).
    """
    real = {p: r for p, r in losers.items()
            if game.in_game(p) and (r in FORCED_REASONS or not game.cant_lose(p))}
    for p, r in losers.items():
        if game.in_game(p) and p not in real:
            game.say(f"{game.name(p)} can't lose the game ({r.replace('_', ' ')}).")
    if not real:
        return False
    real = (_with_giant_team(game, real) if game.config.giant
            else _with_teams(game, real, "emperor_lost"))
    remaining = game.players_in_game()
    if set(remaining) <= set(real) and len(remaining) > 0:
        reason = "teams_all_lost" if game.config.team_game else "all_lost"
        finish(game, winners=(), draw=True, reason=reason)
    for p, r in real.items():
        _record(game, p, LOST, r)
    for p in real:
        game.emit("player_lost", player=p)
    remove_players(game, list(real))
    if then_check:
        check_last_standing(game)
    return True


def win(game: Game, winners: list[int], reason: str = "effect_win",
        losers: dict[int, str] | None = None) -> None:
    """An effect says ``winners`` win (CR 104.2b), possibly while others lose in the same event.

    CR 104.3f: a player who would win and lose at once loses. Under limited range of influence
    a win instead makes the winner's opponents in range lose (CR 104.3h, 801.14).
    """
    losers = dict(losers or {})
    for p in winners:
        if p in losers:
            losers[p] = "win_and_lose"
    winners = [p for p in winners if p not in losers and game.in_game(p)]
    allowed = []
    for p in winners:
        if game.cant_win(p):
            game.say(f"{game.name(p)} can't win the game.")
        else:
            allowed.append(p)
    if game.limited_range:
        for p in allowed:
            for q in game.players_in_range(p):
                if game.are_opponents(p, q):
                    losers.setdefault(q, "range_of_influence")
        if losers:
            lose(game, losers)
        return
    if losers:
        # The losses happen in the same event as the win, so they don't end the game first.
        lose(game, losers, then_check=not allowed)
    allowed = [p for p in allowed if game.in_game(p)]
    if allowed:
        members = {q for p in allowed for q in game.team_members(p)}
        finish(game, winners=tuple(p for p in game.everyone if p in members), draw=False,
               reason=reason)


def draw(game: Game, controller: int | None, reason: str = "effect_draw",
         involved: set[int] | None = None) -> None:
    """The game is a draw (CR 104.4c, 104.4b), or under limited range of influence a draw for
    the controller (or the loop's players) and everyone in their range (CR 104.4e-f, 801.15-16)."""
    if not game.limited_range or reason == "agreement":
        finish(game, winners=(), draw=True, reason=reason)
    centre = set(involved or ()) | ({controller} if controller is not None else set())
    out: set[int] = set()
    for p in centre:
        if game.in_game(p):
            out.update(game.players_in_range(p))
    range_reason = "range_loop" if reason == "loop" else "range_draw"
    drawn_for(game, {p: range_reason for p in out})


def drawn_for(game: Game, players: dict[int, str]) -> None:
    players = {p: r for p, r in players.items() if game.in_game(p)}
    players = _with_teams(game, players, "emperor_draw")
    if not players:
        return
    if set(game.players_in_game()) <= set(players):
        finish(game, winners=(), draw=True, reason=next(iter(players.values())))
    for p, r in players.items():
        _record(game, p, DREW, r)
    remove_players(game, list(players))
    check_last_standing(game)


def check_last_standing(game: Game) -> None:
    """CR 104.2a / 104.2c: when every opponent (every other team) has left, the game is won;
    this overrides "can't win" effects."""
    live = game.players_in_game()
    if not live:
        finish(game, winners=(), draw=True, reason="all_lost")
    if game.config.team_game:
        teams = {game.team(p) for p in live}
        if len(teams) == 1:
            finish(game, winners=tuple(game.team_members(live[0])), draw=False, reason="team")
        return
    if len(live) == 1:
        finish(game, winners=(live[0],), draw=False, reason="opponents_left")


def finish(game: Game, winners: tuple[int, ...], draw: bool, reason: str) -> None:
    """Record the result and end the game (CR 104.1)."""
    if game.result is not None:
        raise GameEnded
    for p in game.everyone:
        if p in winners:
            r = reason
            if game.config.team_game and not game.in_game(p):
                r = "team"  # CR 104.2c: a teammate who had left wins too
            if game.config.variant == EMPEROR and _emperor_of(game, p) != p:
                r = "emperor"  # CR 104.2d / 809.5a: a team wins when its emperor wins
            game.outcomes[p] = PlayerOutcome(p, WON, r, REASON_RULES[r], game.turn)
        elif game.in_game(p):
            if draw:
                game.outcomes[p] = PlayerOutcome(p, DREW, reason, REASON_RULES[reason],
                                                 game.turn)
            else:
                game.outcomes[p] = PlayerOutcome(p, LOST, "opponent_won",
                                                 REASON_RULES["opponent_won"], game.turn)
    for p in game.seats:
        game.players[p].in_game = False
        game.touch_player(p)
    game.result = GameResult(game.number, tuple(winners), draw and not winners, False,
                             tuple(game.outcomes[p] for p in game.everyone
                                   if p in game.outcomes))
    game.dirty.add("x")
    if game.melee is not None:
        game.dirty.add("m")  # nobody gets priority for any stack any more
    game.say(game.result.text(game.names), "game_over", result=game.result)
    raise GameEnded


def forget_in_turn(turn: Game | TurnContext, game: Game, gone: set[int]) -> None:
    """What a turn in progress holds about players who left (the game itself, or one of
    Grand Melee's other turns): their waiting triggers never reach the stack (CR 800.4d),
    attacks on them and combat plans of objects gone are dropped, and their passes no longer
    count."""
    turn.pending_triggers = [t for t in turn.pending_triggers if t.controller not in gone]
    turn.attack_plan = [(a, d) for a, d in turn.attack_plan
                        if a in game.objects and not (d[0] == "p" and d[1] in gone)]
    turn.block_plan = [(b, a) for b, a in turn.block_plan
                       if b in game.objects and a in game.objects]
    turn.passed -= gone


def remove_players(game: Game, pids: list[int]) -> None:
    """CR 800.4a for players leaving at the same time (and, in Planechase, CR 901.6 and 901.10
    around it)."""
    gone = set(pids)
    planar_left = planechase.before_leaving(game, gone)
    for pid in pids:
        ps = game.players[pid]
        ps.in_game = False
        ps.mana.clear()
        game.touch_player(pid)
    # Every object a departed player owns leaves the game (phased-out ones too, 702.26k).
    for obj in [o for o in game.objects.values() if o.owner in gone]:
        game.remove_object(obj)
        if obj.card is not None:
            game.departed_cards.setdefault(obj.owner, []).append(obj.card)
    # Effects that give a departed player control of something end.
    game.effects = [e for e in game.effects
                    if not (e.kind == "control" and e.player in gone)]
    game.control_changed()
    # Abilities they control on the stack cease to exist; what else they control is exiled.
    for obj in [o for o in game.stack_objects() if o.controller in gone]:
        if obj.card is None:
            game.remove_object(obj)
    exile_orphans(game)
    forget_in_turn(game, game, gone)
    if game.draw_offer is not None:
        game.draw_offer = None
        game.dirty.add("d")
    if game.melee is not None:
        game.melee.players_left(gone)  # the other turns, and the turn markers (CR 807.4)
    game.bump_version()
    planechase.after_leaving(game, planar_left)


def exile_orphans(game: Game) -> None:
    """CR 800.4a's last step and CR 800.4c: a permanent or spell whose controller has left the
    game, with no effect giving it to someone still in the game, is exiled."""
    for obj in [o for o in game.battlefield + game.stack_objects()
                if not game.in_game(o.controller)]:
        if obj.card is None:
            game.remove_object(obj)
        else:
            game.move(obj, EXILE, cause="controller_left")
