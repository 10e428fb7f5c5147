"""A small fluent helper for building game situations and playing through them.

    g = (Scene(2).battlefield(0, "Mountain").hand(0, "Lightning Bolt").life(1, 3)
         .start())
    g.cast(0, "Lightning Bolt", target=1)
    g.resolve()
    assert g.outcome(1) == ("lost", "life")

Scenes become :class:`~arbiter.server.rules.config.Scenario` configurations, so every test game
is an ordinary, replayable engine game. Players get a default library of 20 Wastes so nobody
decks by accident.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from arbiter.server.rules import GameConfig, PlayerConfig, Table
from arbiter.server.rules.config import PlayerSetup, Scenario
from arbiter.server.rules.state import Action, Decision, Obj
from arbiter.server.rules.view import snapshot

DEFAULT_LIBRARY = ("Wastes",) * 20
NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass
class _Setup:
    library: list[str] | None = None
    hand: list[str] = field(default_factory=list)
    battlefield: list[str] = field(default_factory=list)
    graveyard: list[str] = field(default_factory=list)
    exile: list[str] = field(default_factory=list)
    command: list[str] = field(default_factory=list)
    life: int | None = None
    poison: int = 0
    tapped: list[int] = field(default_factory=list)
    counters: list[tuple[int, str, int]] = field(default_factory=list)
    sideboard: list[str] = field(default_factory=list)
    team: int | None = None
    emperor: bool = False
    range: int | None = None
    commander: str | None = None
    commander_damage: list[tuple[int, int]] = field(default_factory=list)
    planar_deck: list[str] = field(default_factory=list)
    scheme_deck: list[str] = field(default_factory=list)
    vanguard: str | None = None
    archenemy: bool = False


class Scene:
    """Builder for a game position; every method returns the scene for chaining."""

    def __init__(self, players: int = 2, variant: str | None = None, **config: Any) -> None:
        self.n = players
        self.variant = variant or ("two_player" if players == 2 else "free_for_all")
        self.config = dict(config)
        self.config.setdefault("allow_test_cards", True)
        self.setups = [_Setup() for _ in range(players)]
        self.step = "main1"
        self.active = 0
        self.turn = 1
        self.sick = False

    def library(self, pid: int, *names: str) -> Scene:
        """Cards in ``pid``'s library, top card first (replaces the default library)."""
        self.setups[pid].library = list(names)
        return self

    def hand(self, pid: int, *names: str) -> Scene:
        self.setups[pid].hand.extend(names)
        return self

    def battlefield(self, pid: int, *names: str, tapped: bool = False,
                    counters: dict[str, int] | None = None) -> Scene:
        s = self.setups[pid]
        for name in names:
            index = len(s.battlefield)
            s.battlefield.append(name)
            if tapped:
                s.tapped.append(index)
            for kind, n in (counters or {}).items():
                s.counters.append((index, kind, n))
        return self

    def graveyard(self, pid: int, *names: str) -> Scene:
        self.setups[pid].graveyard.extend(names)
        return self

    def exile(self, pid: int, *names: str) -> Scene:
        self.setups[pid].exile.extend(names)
        return self

    def command(self, pid: int, *names: str) -> Scene:
        self.setups[pid].command.extend(names)
        return self

    def sideboard(self, pid: int, *names: str) -> Scene:
        self.setups[pid].sideboard.extend(names)
        return self

    def life(self, pid: int, life: int) -> Scene:
        self.setups[pid].life = life
        return self

    def poison(self, pid: int, poison: int) -> Scene:
        self.setups[pid].poison = poison
        return self

    def team(self, pid: int, team: int, *, emperor: bool = False) -> Scene:
        self.setups[pid].team = team
        self.setups[pid].emperor = emperor
        return self

    def range(self, pid: int, r: int) -> Scene:
        self.setups[pid].range = r
        return self

    def commander(self, pid: int, name: str, *, zone: str = "command") -> Scene:
        """Make ``name`` ``pid``'s commander, starting in the command zone or elsewhere."""
        self.setups[pid].commander = name
        getattr(self.setups[pid], zone).append(name)
        return self

    def commander_damage(self, pid: int, from_owner: int, amount: int) -> Scene:
        """Combat damage ``pid`` has already taken from ``from_owner``'s commander."""
        self.setups[pid].commander_damage.append((from_owner, amount))
        return self

    def planar_deck(self, pid: int, *names: str) -> Scene:
        """``pid``'s planar deck, top card first (Planechase, CR 901.3)."""
        self.setups[pid].planar_deck = list(names)
        return self

    def plane(self, pid: int, name: str) -> Scene:
        """A plane (or phenomenon) ``pid`` owns, face up in the command zone."""
        self.setups[pid].command.append(name)
        return self

    def scheme_deck(self, pid: int, *names: str) -> Scene:
        """``pid``'s scheme deck, top card first (Archenemy, CR 904.3)."""
        self.setups[pid].scheme_deck = list(names)
        return self

    def scheme(self, pid: int, name: str) -> Scene:
        """A scheme ``pid`` owns, already set in motion (face up in the command zone)."""
        self.setups[pid].command.append(name)
        return self

    def vanguard(self, pid: int, name: str) -> Scene:
        """``pid``'s vanguard card (Vanguard, CR 902.3); it starts in the command zone."""
        self.setups[pid].vanguard = name
        return self

    def archenemy(self, pid: int) -> Scene:
        self.setups[pid].archenemy = True
        return self

    def at(self, step: str, active: int = 0, turn: int = 1) -> Scene:
        self.step, self.active, self.turn = step, active, turn
        return self

    def summoning_sick(self) -> Scene:
        self.sick = True
        return self

    def build_config(self) -> GameConfig:
        players = []
        setups = []
        for i, s in enumerate(self.setups):
            players.append(PlayerConfig(
                name=NAMES[i], deck=(), sideboard=tuple(s.sideboard), team=s.team,
                emperor=s.emperor, range=s.range, commander=s.commander, vanguard=s.vanguard,
                archenemy=s.archenemy))
            setups.append(PlayerSetup(
                library=tuple(s.library if s.library is not None else DEFAULT_LIBRARY),
                hand=tuple(s.hand), battlefield=tuple(s.battlefield),
                graveyard=tuple(s.graveyard), exile=tuple(s.exile), command=tuple(s.command),
                life=s.life, poison=s.poison, tapped=tuple(s.tapped),
                counters=tuple(s.counters), commander_damage=tuple(s.commander_damage),
                planar_deck=tuple(s.planar_deck), scheme_deck=tuple(s.scheme_deck)))
        scenario = Scenario(players=tuple(setups), active=self.active, step=self.step,
                            turn=self.turn, sick=self.sick)
        return GameConfig(players=tuple(players), variant=self.variant, scenario=scenario,
                          **self.config)

    def start(self, seed: int = 0) -> G:
        return G(Table(self.build_config(), seed))


def emperor_scene(players: int = 6) -> Scene:
    """An Emperor game of teams of three, each emperor in the middle of its team: seats 0-1-2
    (emperor 1), 3-4-5 (emperor 4), and so on (CR 809.2)."""
    s = Scene(players, variant="emperor")
    for pid in range(players):
        s.team(pid, pid // 3, emperor=pid % 3 == 1)
    return s


def giant_scene(players: int = 4, **config: Any) -> Scene:
    """A Two-Headed Giant game (CR 810): seats 0-1 are one team and 2-3 the other (for six
    players, 0-1-2 and 3-4-5, CR 810.11). The first seat of each team in turn order is its
    primary player (CR 805.2), so 0 and 2 hold their teams' turns."""
    s = Scene(players, variant="two_headed_giant", **config)
    for pid in range(players):
        s.team(pid, pid * 2 // players)
    return s


class G:
    """A table under test, with helpers that find and take actions by what they say."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.log: list[str] = []
        self.events: list[Any] = []
        self._collect()

    # ------------------------------------------------------------------ reading the state

    @property
    def game(self) -> Any:
        return self.table.top

    @property
    def main(self) -> Any:
        return self.table.main

    @property
    def decision(self) -> Decision:
        d = self.table.pending
        assert d is not None, "nobody is deciding anything (the game is over?)"
        return d

    def _collect(self) -> None:
        for e in self.table.drain_events():
            self.events.append(e)
            self.log.append(e.text)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def life(self, pid: int, game: Any = None) -> int:
        return int((game or self.game).players[pid].life)

    def poison(self, pid: int) -> int:
        return int(self.game.players[pid].poison)

    def in_game(self, pid: int, game: Any = None) -> bool:
        return bool((game or self.game).in_game(pid))

    def outcome(self, pid: int, game: Any = None) -> tuple[str, str] | None:
        g = game or self.main
        o = g.outcomes.get(pid)
        return (o.outcome, o.reason) if o else None

    def rule_of(self, pid: int, game: Any = None) -> str | None:
        o = (game or self.main).outcomes.get(pid)
        return o.rule if o else None

    def objs(self, name: str, zone: str | None = None, controller: int | None = None,
             game: Any = None) -> list[Obj]:
        g = game or self.game
        return [o for o in g.objects.values() if o.name == name
                and (zone is None or o.zone == zone)
                and (controller is None or o.controller == controller)]

    def obj(self, name: str, zone: str | None = "battlefield", controller: int | None = None,
            game: Any = None) -> Obj:
        found = self.objs(name, zone, controller, game)
        assert len(found) >= 1, f"no {name} in {zone}; log tail: {self.log[-8:]}"
        return found[0]

    def zone_names(self, zone: str, pid: int | None = None, game: Any = None) -> list[str]:
        g = game or self.game
        return [o.name for o in g.zone(zone, pid)]

    def view(self, viewer: int) -> dict[Any, Any]:
        return snapshot(self.game, viewer)

    # ------------------------------------------------------------------ acting

    def options(self, player: int | None = None) -> list[Action]:
        d = self.decision
        if player is not None:
            assert d.player == player, f"{d.player} decides {d.kind}, not {player}"
        return d.actions

    def labels(self) -> list[str]:
        return [a.label for a in self.decision.actions]

    def find(self, kind: str | None = None, label: str | None = None, *, player: int | None = None,
             ref: tuple[str, int] | None = None, obj: int | None = None) -> Action | None:
        for a in self.options(player):
            if kind is not None and a.kind != kind:
                continue
            if label is not None and label not in a.label:
                continue
            if ref is not None and a.ref != ref:
                continue
            if obj is not None and a.obj != obj:
                continue
            return a
        return None

    def choose(self, kind: str | None = None, label: str | None = None, *,
               player: int | None = None, ref: tuple[str, int] | None = None,
               obj: int | None = None) -> G:
        a = self.find(kind, label, player=player, ref=ref, obj=obj)
        d = self.decision
        assert a is not None, (f"no action kind={kind} label={label!r} ref={ref} for "
                               f"{d.player} in {d.kind}: {[x.label for x in d.actions]}")
        self.table.act(d.player, d.serial, a.id)
        self._collect()
        return self

    def pass_(self, times: int = 1) -> G:
        for _ in range(times):
            self.choose("pass")
        return self

    def resolve(self) -> G:
        """Everyone passes until the top of the stack resolves (or the game ends)."""
        game = self.game
        assert game.stack, "the stack is empty"
        top = game.stack[-1]
        while (not self.table.finished and self.table.top is game
               and game.objects.get(top.oid) is top and self.decision.kind == "priority"):
            self.pass_()
        return self

    def resolve_all(self) -> G:
        game = self.game
        while (not self.table.finished and self.table.top is game and game.stack
               and self.decision.kind == "priority"):
            self.pass_()
        return self

    def step_on(self) -> G:
        """Take the do-nothing choice of the pending decision: pass, finish a declaration,
        keep a hand, or discard the first card offered."""
        d = self.decision
        if d.kind in ("discard", "bottom", "assign_damage", "order_triggers"):
            # For damage: lethal to each blocker in turn; for triggers: the order they
            # triggered in.
            pick = d.actions[0]
        else:
            pick = self.find("done") or self.find("pass") or self.find("keep")
            assert pick is not None, f"can't move on from {d.kind}: {self.labels()}"
        self.table.act(d.player, d.serial, pick.id)
        self._collect()
        return self

    def until(self, step: str, active: int | None = None, *, max_actions: int = 500) -> G:
        """Pass priority (and decline attacks and blocks) until ``step`` of ``active``'s turn.

        For ``declare_attackers`` it stops at the attack declaration itself (if the active
        player has a creature that can attack), otherwise at the first priority in the step.
        """
        want = "attackers" if step == "declare_attackers" else "priority"
        for _ in range(max_actions):
            g = self.game
            if self.table.finished or (g.step == step and (active is None or g.active == active)
                                       and self.decision.kind in (want, "priority")):
                return self
            self.step_on()
        raise AssertionError(f"never reached {step}")

    def next_turn(self, pid: int, step: str = "main1") -> G:
        """Move on to ``step`` of ``pid``'s next turn (never stopping in the current turn)."""
        start = self.game.turn
        while self.game.turn == start and not self.table.finished:
            self.step_on()
        return self.until(step, pid)

    def cast(self, pid: int, name: str, target: Any = None, *targets: Any) -> G:
        self.choose("cast", f"Cast {name}", player=pid)
        for t in (target, *targets):
            if t is None:
                continue
            self.target(t)
        return self

    def target(self, t: Any) -> G:
        ref = self.ref(t)
        return self.choose("target", ref=ref)

    def ref(self, t: Any) -> tuple[str, int]:
        if isinstance(t, int):
            return ("p", t)
        if isinstance(t, Obj):
            return ("o", t.oid)
        if isinstance(t, tuple):
            return t
        return ("o", self.obj(t).oid)

    def activate(self, pid: int, name: str, text: str = "", target: Any = None) -> G:
        self.choose("activate", f"{name}: {text}" if text else name, player=pid)
        if target is not None:
            self.target(target)
        return self

    def attack(self, *pairs: tuple[Any, Any]) -> G:
        """Declare attackers: (creature name or object, player id or planeswalker). With shared
        team turns (CR 805.10b) the active team's players are asked in turn, each for their own
        creatures: teammates with nothing listed here say "done" when asked."""
        team = self._mates(self.game.active)
        for creature, defender in pairs:
            c = creature if isinstance(creature, Obj) else next(
                (o for o in self.objs(creature, "battlefield") if o.controller in team), None)
            assert c is not None, f"no {creature} of the active team on the battlefield"
            while self.decision.kind == "attackers" and self.decision.player != c.controller:
                self.choose("done")
            self.choose("attack", obj=c.oid, ref=self.ref(defender))
        return self._finish("attackers", team)

    def block(self, pid: int, *pairs: tuple[Any, Any]) -> G:
        """``pid`` blocks; with shared team turns (CR 805.10d) teammates asked before ``pid``
        block with nothing."""
        team = self._mates(pid)
        for blocker, attacker in pairs:
            b = blocker if isinstance(blocker, Obj) else self.obj(blocker, controller=pid)
            a = attacker if isinstance(attacker, Obj) else self.obj(attacker)
            while self.decision.kind == "blockers" and self.decision.player != pid \
                    and self.decision.player in team:
                self.choose("done")
            self.choose("block", obj=b.oid, ref=("o", a.oid), player=pid)
        return self._finish("blockers", team)

    def no_blocks(self, pid: int | None = None) -> G:
        return self.choose("done", player=pid)

    def _mates(self, pid: int) -> tuple[int, ...]:
        return tuple(self.game.turn_mates.get(pid, (pid,)))

    def _finish(self, kind: str, team: tuple[int, ...]) -> G:
        """Say "done" while the declaration is still open for ``team`` (it closes by itself
        once nothing is left to assign)."""
        while (not self.table.finished and self.decision.kind == kind
               and self.decision.player in team):
            self.choose("done")
        return self

    def concede(self, pid: int, game: int | None = None) -> G:
        self.table.concede(pid, game)
        self._collect()
        return self

    def keep_hands(self) -> G:
        """Keep every opening hand offered (CR 103.5), e.g. as a subgame or restarted game
        begins."""
        while not self.table.finished and self.decision.kind == "mulligan":
            self.choose("keep")
        return self

    def roll(self) -> str:
        """Roll the planar die (the active player's special action, CR 901.9); returns the
        face rolled."""
        self.choose("roll_planar_die")
        return str(next(e.data["face"] for e in reversed(self.events)
                        if e.kind == "planar_die"))

    def plane(self, game: Any = None) -> str:
        """The name of the face-up plane or phenomenon."""
        g = game or self.game
        (card,) = [o for o in g.command if o.defn.planar]
        return str(card.name)

    def play_land(self, pid: int, name: str) -> G:
        return self.choose("play_land", f"Play {name}", player=pid)

    def owned(self, pid: int, game: Any = None) -> list[str]:
        """Sorted names of the cards ``pid`` owns anywhere in a game (tokens excluded)."""
        g = game or self.game
        return sorted(o.name for o in g.objects.values() if o.owner == pid and o.card)

    def hash(self) -> str:
        return self.table.state_hash()

    # ------------------------------------------------------------------ Grand Melee (807)

    def marker(self, number: int) -> Any:
        """Turn marker ``number`` of the top game (CR 807.4), or None once removed."""
        return next((m for m in self.game.melee.markers if m.number == number), None)

    def markers(self) -> list[tuple[int, int, str]]:
        """(number, holder, "turn" or "waiting") for every turn marker."""
        return [(m.number, m.holder, "turn" if m.taking_turn else "waiting")
                for m in self.game.melee.markers]

    def stack_of(self, number: int) -> list[str]:
        """Names on turn marker ``number``'s stack, bottom first (CR 807.5)."""
        return [o.name for o in self.game.melee.stacks[number]]

    def with_priority(self, number: int) -> list[int]:
        """Who gets priority for turn marker ``number``'s stack now (CR 807.5a)."""
        marker = self.marker(number)
        return list(self.game.melee.with_priority(marker)) if marker else []

    def until_asked(self, player: int, stack: int | None = None, kind: str = "priority",
                    *, max_actions: int = 500) -> G:
        """Take the do-nothing choice of every other decision until ``player`` is asked
        ``kind`` (for turn marker ``stack``'s stack, if given)."""
        for _ in range(max_actions):
            d = self.decision
            if d.player == player and d.kind == kind and stack in (None, d.stack):
                return self
            self.step_on()
        raise AssertionError(f"{player} was never asked {kind} for stack {stack}")


def seed_rolling(*faces: str) -> int:
    """A seed with which a scenario's first planar die rolls come up ``faces`` (the scenario's
    game draws on its random generator for nothing else first). Tests check the faces they
    roll, so a change in how the die is rolled shows up as a failure, not a silent change."""
    from arbiter.server.rules.planechase import FACES
    from arbiter.server.rules.rng import Rng

    for seed in range(100_000):
        rng = Rng(seed).fork()
        if all(FACES[rng.below(len(FACES))] == face for face in faces):
            return seed
    raise AssertionError(f"no seed rolls {faces}")


def with_config(scene: Scene, **changes: Any) -> GameConfig:
    return replace(scene.build_config(), **changes)
