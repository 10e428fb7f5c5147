"""Game configuration: variant, options, players, decks (CR 100.2, 800-810, 901-904).

:func:`validate` rejects configurations that make no sense with a :class:`Refusal` whose
message says why. Player ids are positions in ``GameConfig.players``; seating order (which
drives turn order, "left" and ranges of influence) is ``seating`` or, when absent, the listed
order (in Grand Melee, a random order: CR 807.3, see :mod:`arbiter.server.rules.melee`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from arbiter.protocol.errors import Code, Refusal

from .cards import formats
from .cards.decks import DeckList
from .cards.pool import lookup
from .cards.vocab import CardDef

TWO_PLAYER = "two_player"
FREE_FOR_ALL = "free_for_all"
TEAM_VS_TEAM = "team_vs_team"
EMPEROR = "emperor"
COMMANDER = "commander"
TWO_HEADED_GIANT = "two_headed_giant"
ARCHENEMY = "archenemy"
GRAND_MELEE = "grand_melee"
VARIANTS = (TWO_PLAYER, FREE_FOR_ALL, TEAM_VS_TEAM, EMPEROR, COMMANDER, TWO_HEADED_GIANT,
            ARCHENEMY, GRAND_MELEE)
MELEE_MIN_PLAYERS = 4  # one full four players: one turn marker (CR 807.4a)

# Variants that always use the shared team turns option (CR 805.1); Team vs. Team may choose it
# (``GameConfig.shared_team_turns``). A variant built on team turns adds itself here: Archenemy's
# default setup uses it (CR 904.2).
TEAM_TURN_VARIANTS: tuple[str, ...] = (TWO_HEADED_GIANT, ARCHENEMY)

# Planechase and Vanguard change every game they are added to without changing who plays
# against whom, so they are options of a game of any variant (see docs/rulings.md).
OPTIONS_NOT_VARIANTS = {"planechase": "CR 901", "vanguard": "CR 902"}

UNSUPPORTED_VARIANTS = {
    "brawl": "CR 903.12",
    "conspiracy": "CR 905",
}

ATTACK_MULTIPLE = "multiple"  # CR 802
ATTACK_LEFT = "left"  # CR 803.1a
ATTACK_RIGHT = "right"  # CR 803.1b
ATTACK_OPTIONS = (ATTACK_MULTIPLE, ATTACK_LEFT, ATTACK_RIGHT)


@dataclass(frozen=True)
class PlayerConfig:
    name: str
    deck: tuple[str, ...]
    sideboard: tuple[str, ...] = ()
    commander: str | None = None
    team: int | None = None
    emperor: bool = False
    range: int | None = None  # a per-player range of influence (CR 801.2a)
    planar_deck: tuple[str, ...] = ()  # Planechase (CR 901.3)
    scheme_deck: tuple[str, ...] = ()  # the archenemy's (CR 904.3)
    vanguard: str | None = None  # Vanguard (CR 902.3)
    archenemy: bool = False  # CR 904.2a


@dataclass(frozen=True)
class PlayerSetup:
    """Where one player's cards start in a scenario. Libraries (and planar and scheme decks)
    list the top card first; ``command`` may hold face-up planes, phenomena and schemes.

    ``counters`` maps a battlefield index to counters on that permanent (e.g. loyalty).
    """

    library: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    battlefield: tuple[str, ...] = ()
    graveyard: tuple[str, ...] = ()
    exile: tuple[str, ...] = ()
    command: tuple[str, ...] = ()
    life: int | None = None
    poison: int = 0
    tapped: tuple[int, ...] = ()  # battlefield indexes that start tapped
    counters: tuple[tuple[int, str, int], ...] = ()  # (battlefield index, kind, amount)
    commander_damage: tuple[tuple[int, int], ...] = ()  # (commander's owner, damage dealt)
    planar_deck: tuple[str, ...] = ()
    scheme_deck: tuple[str, ...] = ()


@dataclass(frozen=True)
class Scenario:
    """A game that begins from a described position rather than from shuffled decks: turn
    ``turn`` of ``active``, at ``step``, with priority (used by tests and by rooms created with
    scenarios enabled). Permanents start under their owner's control and, unless ``sick``,
    able to attack and tap."""

    players: tuple[PlayerSetup, ...]
    active: int = 0
    step: str = "main1"
    turn: int = 1
    sick: bool = False


@dataclass(frozen=True)
class GameConfig:
    players: tuple[PlayerConfig, ...]
    variant: str = TWO_PLAYER
    attack: str | None = None
    range_of_influence: int | None = None  # the same limited range for everyone (CR 801)
    deploy_creatures: bool = False  # CR 804
    shared_team_turns: bool = False  # CR 805, for Team vs. Team (always on in TEAM_TURN_VARIANTS)
    seating: tuple[int, ...] | None = None  # player ids clockwise; None: as listed
    starting_player: int | None = None
    chooser: int | None = None  # CR 103.1: this player chooses who plays first
    hand_size: int = 7
    format: str | None = None  # deck construction (cards/formats.py); None: the variant's usual
    planechase: bool = False  # CR 901
    vanguard: bool = False  # CR 902
    allow_test_cards: bool = False
    scenario: Scenario | None = None

    @property
    def multiplayer(self) -> bool:
        """CR 800.1: a multiplayer game is one that begins with more than two players."""
        return len(self.players) > 2

    @property
    def team_game(self) -> bool:
        return self.variant in (TEAM_VS_TEAM, EMPEROR, TWO_HEADED_GIANT, ARCHENEMY)

    @property
    def team_turns(self) -> bool:
        """CR 805: teams, not players, take turns and have priority."""
        return self.shared_team_turns or self.variant in TEAM_TURN_VARIANTS

    @property
    def giant(self) -> bool:
        """Two-Headed Giant's team rules: one life total and one poison count per team (CR
        810.4, 810.10), and winning and losing only as a team (CR 810.8)."""
        return self.variant == TWO_HEADED_GIANT

    @property
    def team_size(self) -> int:
        """Players per team, for variants whose teams are all the same size (CR 810.11)."""
        teams = {p.team for p in self.players}
        return len(self.players) // max(len(teams), 1)

    @property
    def deck_format(self) -> str:
        return self.format if self.format is not None else formats.default_format(self.variant)

    def team_of(self, pid: int) -> int | None:
        """``pid``'s team: as configured, or in Archenemy the archenemy alone (team 0) against
        everyone else (team 1) (CR 904.2a-b)."""
        if self.variant == ARCHENEMY:
            return 0 if self.players[pid].archenemy else 1
        return self.players[pid].team if self.team_game else None

    @property
    def archenemy(self) -> int | None:
        if self.variant != ARCHENEMY:
            return None
        return next((pid for pid, p in enumerate(self.players) if p.archenemy), None)

    @property
    def seat_order(self) -> tuple[int, ...]:
        return self.seating if self.seating is not None else tuple(range(len(self.players)))

    @property
    def attack_option(self) -> str | None:
        """The attack option in force; multiplayer games default to attack multiple players."""
        if not self.multiplayer:
            return None
        if self.variant == GRAND_MELEE:
            return ATTACK_LEFT  # CR 807.2b
        return self.attack or ATTACK_MULTIPLE

    @property
    def uses_deploy(self) -> bool:
        return self.deploy_creatures or self.variant == EMPEROR  # CR 809.3b

    def starting_life(self, pid: int) -> int:
        """CR 103.4: 20, or 40 in Commander (103.4c) and for the archenemy (103.4e, 904.5), a
        Two-Headed Giant team's 30 (810.4, 810.11); plus a vanguard's life modifier (103.4b,
        902.4)."""
        if self.giant:
            # CR 810.4: a team of two starts at 30; CR 810.11: 15 more per extra member.
            return 30 + 15 * (self.team_size - 2)
        base = 40 if self.variant == COMMANDER or (
            self.variant == ARCHENEMY and self.players[pid].archenemy) else 20
        return base + self._vanguard_of(pid, "life_modifier")

    def hand_size_of(self, pid: int) -> int:
        """The starting and maximum hand size: the table's (normally seven), modified by a
        vanguard's hand modifier (CR 103.5a, 902.5, 902.5b)."""
        return max(self.hand_size + self._vanguard_of(pid, "hand_modifier"), 0)

    def _vanguard_of(self, pid: int, modifier: str) -> int:
        name = self.players[pid].vanguard
        if not self.vanguard or name is None:
            return 0
        card = lookup(name, allow_test=self.allow_test_cards)
        return int(getattr(card, modifier)) if card is not None else 0

    def poison_limit(self) -> int:
        """Poison counters that make a player (a team: CR 810.8d, 810.11) lose."""
        return 15 + 5 * (self.team_size - 2) if self.giant else 10  # CR 704.5c, 704.6b

    def ranges(self) -> dict[int, int | None]:
        """Each player's range of influence, None meaning unlimited (CR 801.2, 809.3a)."""
        if self.variant == EMPEROR:
            return emperor_ranges(self)
        if self.variant == GRAND_MELEE:
            return dict.fromkeys(range(len(self.players)), 1)  # CR 807.2a
        out: dict[int, int | None] = {}
        for pid, p in enumerate(self.players):
            out[pid] = p.range if p.range is not None else self.range_of_influence
        return out


def _bad(message: str) -> Refusal:
    return Refusal(Code.BAD_CONFIG, message)


def emperor_ranges(config: GameConfig) -> dict[int, int | None]:
    """CR 809.3a for teams of three; CR 809.6a's minimal ranges for larger equal teams."""
    seats = list(config.seat_order)
    n = len(seats)
    team_of = {pid: config.players[pid].team for pid in range(len(config.players))}
    size = len(seats) // len({t for t in team_of.values()})
    if size == 3:
        return {pid: (2 if p.emperor else 1) for pid, p in enumerate(config.players)}

    def distance(a: int, b: int) -> int:
        d = abs(seats.index(a) - seats.index(b))
        return min(d, n - d)

    out: dict[int, int | None] = {}
    for pid, p in enumerate(config.players):
        enemy_generals = sorted(
            distance(pid, q) for q, o in enumerate(config.players)
            if o.team != p.team and not o.emperor
        )
        need = 2 if p.emperor else 1
        out[pid] = enemy_generals[need - 1]
    return out


def validate(config: GameConfig) -> None:
    """Raise :class:`Refusal` (code ``bad_config``) when ``config`` makes no sense."""
    variant = config.variant
    if variant in OPTIONS_NOT_VARIANTS:
        raise _bad(f"{variant.capitalize()} ({OPTIONS_NOT_VARIANTS[variant]}) is an option, "
                   f"not a variant: set {variant}=true on a game of any variant")
    if variant in UNSUPPORTED_VARIANTS:
        raise _bad(f"the {variant.replace('_', ' ')} variant ({UNSUPPORTED_VARIANTS[variant]}) "
                   "is not supported yet")
    if variant not in VARIANTS:
        raise _bad(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
    n = len(config.players)
    if n < 2:
        raise _bad("a game needs at least two players")
    if variant == TWO_PLAYER and n != 2:
        raise _bad(f"a two-player game has exactly two players, not {n}")
    if variant in (FREE_FOR_ALL, TEAM_VS_TEAM, EMPEROR, TWO_HEADED_GIANT) and n < 3:
        raise _bad(f"{variant.replace('_', ' ')} is a multiplayer variant (CR 800.1): "
                   "it needs at least three players")
    if variant == GRAND_MELEE:
        _validate_melee(config)
    names = [p.name for p in config.players]
    if len(set(names)) != n:
        raise _bad("player names must be different")
    if config.seating is not None and sorted(config.seating) != list(range(n)):
        raise _bad("seating must list every player id exactly once")
    for pid in (config.starting_player, config.chooser):
        if pid is not None and not 0 <= pid < n:
            raise _bad(f"player {pid} is not in this game")
    if config.starting_player is not None and config.chooser is not None:
        raise _bad("give either a starting player or a chooser (CR 103.1), not both")
    if config.hand_size < 0:
        raise _bad("the starting hand size cannot be negative")

    # Attack options (CR 802, 803, 806.2b).
    if config.attack is not None:
        if config.attack not in ATTACK_OPTIONS:
            raise _bad(f"unknown attack option {config.attack!r}; choose one of "
                       f"{', '.join(ATTACK_OPTIONS)}")
        if not config.multiplayer:
            raise _bad("attack options (CR 802, 803) apply only to multiplayer games")
        if variant == EMPEROR:
            raise _bad("the Emperor variant has its own attack restriction (CR 809.3c)")
        if config.team_turns:
            raise _bad("teams sharing turns attack as a team (CR 805.10); attack options "
                       "don't apply")

    # Range of influence (CR 801).
    per_player = [p.range for p in config.players if p.range is not None]
    if config.range_of_influence is not None or per_player:
        if not config.multiplayer:
            raise _bad("limited range of influence (CR 801) is a multiplayer option")
        if variant == EMPEROR:
            raise _bad("the Emperor variant sets ranges itself (CR 809.3a)")
        if config.team_turns:
            raise _bad("limited range of influence (CR 801) can't be combined with shared "
                       "team turns (CR 805) here")
        for r in [config.range_of_influence, *per_player]:
            if r is not None and r < 1:
                raise _bad("a range of influence must be at least 1 seat")
        if variant == FREE_FOR_ALL and per_player and (
            len(set(per_player)) > 1 or len(per_player) != n
            or (config.range_of_influence is not None
                and per_player[0] != config.range_of_influence)
        ):
            raise _bad("in Free-for-All every player has the same range of influence "
                       "(CR 806.2a)")

    # Deploy creatures (CR 804).
    if config.deploy_creatures and variant not in (TEAM_VS_TEAM, EMPEROR):
        raise _bad("the deploy creatures option (CR 804) needs a variant with teams")

    # Shared team turns (CR 805.1): an option of games between teams.
    if config.shared_team_turns and variant not in (TEAM_VS_TEAM, *TEAM_TURN_VARIANTS):
        raise _bad("the shared team turns option (CR 805) is for Team vs. Team games")

    # Planechase and Vanguard in Two-Headed Giant: 901.12 gives that game rules of its own
    # (the whole team is "you" on a plane, each teammate rolls), and one team life total leaves
    # no rule for two vanguards' life modifiers (docs/rulings.md).
    if config.giant and (config.planechase or config.vanguard):
        raise _bad("Planechase and Vanguard can't be added to a Two-Headed Giant game here "
                   "(CR 901.12)")
    # Planechase in Grand Melee has rules of its own too (901.14: one planar deck per turn
    # marker's stack), which the engine doesn't play.
    if variant == GRAND_MELEE and config.planechase:
        raise _bad("Planechase can't be added to a Grand Melee game here (CR 901.14)")

    # Archenemy (CR 904.2): the archenemy alone against one team of everyone else.
    if variant == ARCHENEMY:
        _validate_archenemy(config)
    elif any(p.archenemy for p in config.players):
        raise _bad("only the Archenemy variant has an archenemy")

    # Teams (CR 805, 808, 809, 810).
    teams = [p.team for p in config.players]
    if config.team_game and variant != ARCHENEMY:
        if any(t is None for t in teams):
            raise _bad(f"every player in a {variant.replace('_', ' ')} game needs a team")
        counts = Counter(teams)
        if len(counts) < 2:
            raise _bad("a team game needs at least two teams (CR 808.1)")
        seats = config.seat_order
        for team in counts:
            positions = [i for i, pid in enumerate(seats) if teams[pid] == team]
            if not _contiguous(positions, len(seats)):
                raise _bad(f"team {team} must sit together (CR 805.1, 808.2, 809.2, 810.3)")
        if variant == TWO_HEADED_GIANT and (
                len(counts) != 2 or len(set(counts.values())) != 1 or min(counts.values()) < 2):
            raise _bad("Two-Headed Giant is played by two teams of two (CR 810.1), or of the "
                       "same larger size (CR 810.11)")
        if variant == EMPEROR:
            if len(set(counts.values())) != 1 or next(iter(counts.values())) < 3:
                raise _bad("Emperor teams must all be the same size, three or more players "
                           "each (CR 809.1, 809.6)")
            for team in counts:
                members = [pid for pid in seats if teams[pid] == team]
                emperors = [pid for pid in members if config.players[pid].emperor]
                if len(emperors) != 1:
                    raise _bad(f"team {team} needs exactly one emperor (CR 809.2)")
                if not _in_middle(emperors[0], members, seats):
                    raise _bad(f"team {team}'s emperor must sit in the middle of the team "
                               "(CR 809.2)")
            ranges = emperor_ranges(config)
            emperors_all = [pid for pid in range(n) if config.players[pid].emperor]
            for a in emperors_all:
                for b in emperors_all:
                    r = ranges[a]
                    if a != b and r is not None and _seat_distance(seats, a, b) <= r:
                        raise _bad("no emperor may start within another emperor's range "
                                   "(CR 809.6a)")
        elif any(p.emperor for p in config.players):
            raise _bad("only the Emperor variant has emperors")
    else:
        if any(t is not None for t in teams):
            raise _bad(f"the {variant.replace('_', ' ')} variant has no teams")
        if any(p.emperor for p in config.players):
            raise _bad("only the Emperor variant has emperors")

    _validate_decks(config)
    if config.scenario is not None:
        _validate_scenario(config, config.scenario)


def _validate_melee(config: GameConfig) -> None:
    """CR 807.1-807.2c: Grand Melee plays with its default options, and it needs at least one
    full four players, or there would be no turn marker (CR 807.4a)."""
    if len(config.players) < MELEE_MIN_PLAYERS:
        raise _bad(f"grand melee needs at least {MELEE_MIN_PLAYERS} players, one turn marker "
                   "for each full four (CR 807.4a); it is meant for ten or more (CR 807.1)")
    if config.attack not in (None, ATTACK_LEFT):
        raise _bad("grand melee uses the attack left option (CR 807.2b, 807.2c)")
    if config.deploy_creatures:
        raise _bad("grand melee doesn't use the deploy creatures option (CR 807.2c)")
    ranges = [config.range_of_influence, *(p.range for p in config.players)]
    if any(r not in (None, 1) for r in ranges):
        raise _bad("in grand melee every player has a range of influence of 1 (CR 807.2a)")


SCENARIO_STEPS = ("upkeep", "draw", "main1", "begin_combat", "main2", "end")


def _validate_archenemy(config: GameConfig) -> None:
    archenemies = [pid for pid, p in enumerate(config.players) if p.archenemy]
    if len(archenemies) != 1:
        raise _bad("an Archenemy game has exactly one archenemy (CR 904.2a)")
    if any(p.team is not None or p.emperor for p in config.players):
        raise _bad("Archenemy makes the teams itself: the archenemy against everyone else "
                   "(CR 904.2a-b)")
    if config.starting_player is not None and config.starting_player != archenemies[0]:
        raise _bad("the archenemy takes the first turn (CR 904.6)")


def _validate_scenario(config: GameConfig, sc: Scenario) -> None:
    if len(sc.players) != len(config.players):
        raise _bad("a scenario describes every player, no more and no fewer")
    if not 0 <= sc.active < len(config.players):
        raise _bad(f"scenario active player {sc.active} is not in this game")
    if sc.step not in SCENARIO_STEPS:
        raise _bad(f"a scenario starts at the beginning of one of {', '.join(SCENARIO_STEPS)}, "
                   f"not {sc.step!r}")
    if config.giant:
        # CR 810.4, 810.10: a team has one life total and one poison count, so a scenario
        # gives each at most once per team (for any member).
        for team in {p.team for p in config.players}:
            members = [sc.players[i] for i, p in enumerate(config.players) if p.team == team]
            if len({s.life for s in members if s.life is not None}) > 1 or \
                    len({s.poison for s in members if s.poison}) > 1:
                raise _bad(f"team {team} shares one life total and one poison count "
                           "(CR 810.4, 810.10); give them once")
    for setup in sc.players:
        for name in (*setup.library, *setup.hand, *setup.battlefield, *setup.graveyard,
                     *setup.exile, *setup.command, *setup.planar_deck, *setup.scheme_deck):
            card_def(name, config)
        for index, _kind, _n in setup.counters:
            if not 0 <= index < len(setup.battlefield):
                raise _bad(f"scenario counters name battlefield index {index}, which is empty")


def _contiguous(positions: list[int], n: int) -> bool:
    if len(positions) in (0, n):
        return True
    s = set(positions)
    starts = [p for p in positions if (p - 1) % n not in s]
    return len(starts) == 1


def _in_middle(pid: int, members: list[int], seats: tuple[int, ...]) -> bool:
    n = len(seats)
    s = {seats.index(m) for m in members}
    start = next(p for p in s if (p - 1) % n not in s)
    ordered = [seats[(start + i) % n] for i in range(len(members))]
    idx, k = ordered.index(pid), len(ordered)
    return idx == k // 2 if k % 2 else idx in (k // 2 - 1, k // 2)


def _seat_distance(seats: tuple[int, ...], a: int, b: int) -> int:
    d = abs(seats.index(a) - seats.index(b))
    return min(d, len(seats) - d)


def card_def(name: str, config: GameConfig) -> CardDef:
    card = lookup(name, allow_test=config.allow_test_cards)
    if card is None:
        raise Refusal(Code.BAD_DECK, f"unknown card {name!r}")
    return card


def check_format(variant: str, fmt: str) -> None:
    """Raise :class:`Refusal` (``bad_config``) if decks of format ``fmt`` can't be used in
    a game of ``variant``."""
    if fmt not in formats.FORMATS:
        raise _bad(f"unknown format {fmt!r}; choose one of {', '.join(formats.FORMATS)}")
    if fmt == formats.COMMANDER and variant != COMMANDER:
        raise _bad("the commander format is for Commander games (CR 903.5)")
    if variant == COMMANDER and fmt not in (formats.COMMANDER, formats.CASUAL):
        raise _bad(f"Commander decks are built as CR 903.5 says: use the commander format, or "
                   f"casual, not {fmt}")


def _validate_decks(config: GameConfig) -> None:
    fmt = config.deck_format
    check_format(config.variant, fmt)
    for pid, p in enumerate(config.players):
        who = f"player {pid} ({p.name})"
        for name in (*p.deck, *p.sideboard, *([p.commander] if p.commander else []),
                     *p.planar_deck, *p.scheme_deck, *([p.vanguard] if p.vanguard else [])):
            card_def(name, config)
        _validate_parts(config, p, who)
        if config.variant == COMMANDER:
            if p.commander is None:
                raise _bad(f"{who} needs a commander (CR 903.3)")
            commander = card_def(p.commander, config)
            if not (commander.legendary and commander.is_("Creature")):
                raise _bad(f"{who}'s commander {p.commander} must be a legendary creature "
                           "(CR 903.3)")
            if config.scenario is None and p.commander not in p.deck:
                raise _bad(f"{who}'s deck must contain its commander {p.commander}")
        elif p.commander is not None:
            raise _bad("only Commander games have commanders")
        if config.scenario is not None:
            continue  # a scenario places its cards itself
        deck = DeckList(p.deck, p.sideboard, p.commander, p.planar_deck, p.scheme_deck,
                        p.vanguard)
        needs = formats.Needs(planar=config.planechase, schemes=p.archenemy,
                              vanguard=config.vanguard)
        problems = formats.deck_problems(deck, fmt, needs, allow_test=config.allow_test_cards)
        if problems:
            raise Refusal(Code.BAD_DECK, f"{who}'s deck is not legal ({fmt}): "
                          + "; ".join(str(pr) for pr in problems))


def _validate_parts(config: GameConfig, p: PlayerConfig, who: str) -> None:
    """Supplementary decks only where their variant uses them (the server leaves out the parts
    a room's game doesn't use)."""
    if p.planar_deck and not config.planechase:
        raise _bad(f"{who} has a planar deck, but only Planechase games use them (CR 901.3)")
    if p.scheme_deck and not p.archenemy:
        raise _bad(f"{who} has a scheme deck, but only the archenemy uses one (CR 904.3)")
    if p.vanguard is not None and not config.vanguard:
        raise _bad(f"{who} has a vanguard, but only Vanguard games use them (CR 902.3)")
    if config.vanguard and config.scenario is not None and p.vanguard is None:
        raise _bad(f"{who} needs a vanguard in a Vanguard game (CR 902.3)")
