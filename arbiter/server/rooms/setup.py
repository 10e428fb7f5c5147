"""Room settings: what "create room" may ask for, checked before any room exists, and the
engine configuration each game of a match is built from.

A room's settings are a msgpack map (docs/protocol.md, "create"). Scenarios, fixed seeds and
test-only cards are for tests: the server accepts them only when started with
``--allow-scenarios``. Whether a deck is legal is the engine's question (its format rules in
``cards/formats.py``); the room asks it when a deck is submitted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from arbiter.protocol.errors import Code, Refusal
from arbiter.server.rules.cards import formats
from arbiter.server.rules.cards.decks import DeckList, parse_deck_list, ready_made
from arbiter.server.rules.config import (
    ARCHENEMY,
    FREE_FOR_ALL,
    GRAND_MELEE,
    OPTIONS_NOT_VARIANTS,
    TWO_HEADED_GIANT,
    TWO_PLAYER,
    VARIANTS,
    GameConfig,
    PlayerConfig,
    PlayerSetup,
    Scenario,
    check_format,
    validate,
)

MAX_SEATS = 8
MAX_INVITE = 64  # characters of an invitation (a spectator token; docs/protocol.md section 11)
MAX_SPECTATOR_DELAY = 3600.0  # seconds the all-seeing spectators may be kept behind
MAX_MELEE_SEATS = 24  # Grand Melee is played by ten or more (CR 807.1)
SPECTATOR_MODES = ("none", "public", "all")


def _bad(message: str) -> Refusal:
    return Refusal(Code.BAD_CONFIG, message)


@dataclass(frozen=True)
class SeatSpec:
    team: int | None = None
    emperor: bool = False
    range: int | None = None
    deck: DeckList | None = None  # a deck fixed by the room's creator
    archenemy: bool = False


@dataclass(frozen=True)
class RoomSettings:
    name: str
    variant: str
    seats: tuple[SeatSpec, ...]
    best_of: int = 1
    clock: tuple[float, float] | None = None  # (total seconds, increment seconds)
    spectators: str = "public"
    # With spectators "all": the invitation an all-seeing spectator must present (the server
    # makes one when the creator gives none), and how many seconds late such spectators see
    # the game (rooms/delays.py; docs/protocol.md section 7).
    invite: str | None = None
    spectator_delay: float = 0.0
    attack: str | None = None
    range_of_influence: int | None = None
    deploy_creatures: bool = False
    shared_team_turns: bool = False
    hand_size: int = 7
    format: str | None = None  # None: the variant's usual format (formats.default_format)
    planechase: bool = False
    vanguard: bool = False
    seating: tuple[int, ...] | None = None
    scenario: Scenario | None = None
    seed: int | None = None
    allow_test_cards: bool = False
    # A match of a Limited event: (the event's id, its round, its table); set by the server
    # only (docs/events.md), never by a client's "create".
    event: tuple[str, int, int] | None = None

    def game_config(self, names: list[str], decks: list[DeckList], *,
                    chooser: int | None = None, first_game: bool = True) -> GameConfig:
        """The engine configuration of one game; each deck brings the supplementary parts
        the game uses (a planar deck, the archenemy's scheme deck, a vanguard) and no others."""
        players = tuple(
            PlayerConfig(name, deck.main, deck.sideboard, commander=deck.commander,
                         team=spec.team, emperor=spec.emperor, range=spec.range,
                         planar_deck=deck.planar if self.planechase else (),
                         scheme_deck=deck.schemes if spec.archenemy else (),
                         vanguard=deck.vanguard if self.vanguard else None,
                         archenemy=spec.archenemy)
            for name, deck, spec in zip(names, decks, self.seats, strict=True))
        return GameConfig(
            players=players, variant=self.variant, attack=self.attack,
            range_of_influence=self.range_of_influence, deploy_creatures=self.deploy_creatures,
            shared_team_turns=self.shared_team_turns, seating=self.seating, chooser=chooser,
            hand_size=self.hand_size, format=self.format, planechase=self.planechase,
            vanguard=self.vanguard,
            allow_test_cards=self.allow_test_cards,
            scenario=self.scenario if first_game else None)

    def deck_format(self) -> str:
        return self.format if self.format is not None else formats.default_format(self.variant)

    def check_deck(self, seat: int, deck: DeckList, others: list[DeckList | None]) -> None:
        """Raise :class:`Refusal` (bad_deck / bad_config) if ``deck`` cannot be used in
        ``seat``, the other seats' decks being ``others`` (None: not known yet). Every way the
        deck breaks its format is reported at once, by the line of the list it came from."""
        needs = formats.Needs(planar=self.planechase, schemes=self.seats[seat].archenemy,
                              vanguard=self.vanguard)
        problems = formats.deck_problems(deck, self.deck_format(), needs,
                                         allow_test=self.allow_test_cards)
        if problems:
            raise Refusal(Code.BAD_DECK, f"the deck is not legal ({self.deck_format()}): "
                                + "; ".join(str(p) for p in problems))
        decks = [deck if i == seat else (d if d is not None else deck)
                 for i, d in enumerate(others)]
        names = [f"Seat {i + 1}" for i in range(len(self.seats))]
        validate(self.game_config(names, decks))  # its refusal is bad_deck or bad_config


    def default_deck(self, seat: int, others: list[DeckList | None]) -> DeckList:
        """A ready-made deck ``seat`` may use, for a bot given none: the first of
        :data:`BOT_DECKS` the room accepts."""
        for name in BOT_DECKS:
            deck = ready_made(name)
            try:
                self.check_deck(seat, deck, others)
            except Refusal:
                continue
            return deck
        raise Refusal(Code.BAD_DECK, "no ready-made deck suits this room: give the bot "
                                           "a deck")


# The ready-made decks a bot plays when given none, in order of preference.
BOT_DECKS = ("quick-red", "quick-green", "isamaru-commander", "phage-commander", "gruul-stompy",
             "azorius-skies", "dimir-control", "boros-lifecycle")

MAX_DECK_CARDS = 250  # main deck and sideboard together; a Commander deck has 100


def parse_deck(spec: Any, *, allow_test: bool = False) -> DeckList:
    """A deck given as ``{"ready": name}`` or ``{"text": deck list}``; the engine refuses
    unknown names and malformed lines (``bad_deck``)."""
    if isinstance(spec, dict) and set(spec) == {"ready"} and isinstance(spec["ready"], str):
        return ready_made(spec["ready"])
    if isinstance(spec, dict) and set(spec) == {"text"} and isinstance(spec["text"], str):
        # Counted while it is read, never expanded first (parse_deck_list's max_cards).
        return parse_deck_list(spec["text"], allow_test=allow_test, max_cards=MAX_DECK_CARDS)
    raise Refusal(Code.BAD_DECK, 'a deck is {"ready": name} or {"text": deck list}')


def deck_to_wire(deck: DeckList) -> dict[str, Any]:
    return {"main": list(deck.main), "side": list(deck.sideboard), "commander": deck.commander,
            "planar": list(deck.planar), "schemes": list(deck.schemes),
            "vanguard": deck.vanguard}


def deck_text(main: dict[str, int]) -> str:
    """A deck given as card counts, as a deck list (an event's decks: docs/events.md)."""
    return "\n".join(f"{n} {name}" for name, n in sorted(main.items()) if n > 0)


def deck_from_wire(data: dict[str, Any]) -> DeckList:
    return DeckList(tuple(data["main"]), tuple(data["side"]), data.get("commander"),
                    tuple(data.get("planar", ())), tuple(data.get("schemes", ())),
                    data.get("vanguard"))


def _int(value: Any, what: str, lo: int, hi: int) -> int:
    """An integer from the wire: booleans and floats (even ``3.0``) are not integers."""
    if type(value) is not int or not lo <= value <= hi:
        raise _bad(f"{what} must be an integer from {lo} to {hi}")
    return value


def _opt_int(raw: dict[str, Any], key: str, lo: int, hi: int) -> int | None:
    value = raw.get(key)
    return None if value is None else _int(value, key, lo, hi)


def _bool(raw: dict[str, Any], key: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise _bad(f"{key} must be true or false")
    return value


def _seconds(value: Any, key: str, hi: float, *, what: str | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= hi:
        raise _bad(f"{what or 'clock ' + key} must be a number of seconds from 0 to {hi:g}")
    return float(value)


# What "create room" offers, for clients that build a form from it (the catalog's
# ``variants``): seats (fewest, most), whether seats need teams, and which settings apply.
# Planechase and Vanguard are options of every variant; the format is a setting of every room.
_MULTIPLAYER = ("attack", "range_of_influence")
_EVERY = ("format", "planechase", "vanguard")
VARIANT_INFO: dict[str, dict[str, Any]] = {
    "two_player": {"seats": [2, 2], "teams": False, "options": [*_EVERY]},
    "free_for_all": {"seats": [3, MAX_SEATS], "teams": False,
                     "options": [*_MULTIPLAYER, *_EVERY]},
    "team_vs_team": {"seats": [3, MAX_SEATS], "teams": True,
                     "options": [*_MULTIPLAYER, "deploy_creatures", "shared_team_turns", *_EVERY]},
    "emperor": {"seats": [6, MAX_SEATS], "teams": True, "emperor": True,
                "options": ["deploy_creatures", *_EVERY]},
    "commander": {"seats": [2, MAX_SEATS], "teams": False, "commander": True,
                  "options": [*_MULTIPLAYER, *_EVERY]},
    # Two teams of equal size (CR 810.1, 810.11); a number of seats is split into two teams.
    # Planechase and Vanguard have rules of their own there (901.12), not played here.
    "two_headed_giant": {"seats": [4, MAX_SEATS], "teams": True, "options": ["format"]},
    # The archenemy (the first seat, or the one marked) against a team of everyone else.
    "archenemy": {"seats": [2, MAX_SEATS], "teams": False, "archenemy": True,
                  "options": [*_EVERY]},
    # Grand Melee fixes its options itself: range of influence 1, attack left (CR 807.2).
    # (Planechase has rules of its own there, 901.14, not played here.)
    "grand_melee": {"seats": [4, MAX_MELEE_SEATS], "teams": False,
                    "options": ["format", "vanguard"]},
}


def variants() -> list[dict[str, Any]]:
    return [{"name": name, **info} for name, info in VARIANT_INFO.items() if name in VARIANTS]


_KNOWN = {"name", "variant", "seats", "best_of", "clock", "spectators", "attack",
          "range_of_influence", "deploy_creatures", "shared_team_turns", "hand_size", "format",
          "planechase", "vanguard", "seating", "scenario", "seed", "allow_test_cards",
          "invite", "spectator_delay"}
_TESTING = ("scenario", "seed", "allow_test_cards")


def parse_settings(raw: dict[str, Any], *, default_name: str,
                   allow_scenarios: bool = False, internal: bool = False) -> RoomSettings:
    """Check a "create room" configuration; raise :class:`Refusal` saying what is wrong.
    ``internal``: a configuration the server made itself (an event's match), which may name
    its event."""
    event = _event_of(raw.get("of_event")) if internal and "of_event" in raw else None
    if event is not None:
        raw = {k: v for k, v in raw.items() if k != "of_event"}
    unknown = sorted(str(k) for k in raw if k not in _KNOWN)
    if unknown:
        raise _bad(f"unknown setting {unknown[0][:40]!r}")
    testing = [k for k in _TESTING if raw.get(k) not in (None, False)]
    if testing and not allow_scenarios:
        raise Refusal(Code.SCENARIOS_DISABLED,
                            f"{testing[0]} is accepted only by a server started with "
                            "--allow-scenarios")
    allow_test = _bool(raw, "allow_test_cards")
    name = raw.get("name", default_name)
    if not isinstance(name, str) or not 0 < len(name.strip()) <= 40:
        raise _bad("name must be a string of 1 to 40 characters")
    variant = raw.get("variant", "two_player")
    if not isinstance(variant, str):
        raise _bad("variant must be a string")
    options = {o: _bool(raw, o) for o in OPTIONS_NOT_VARIANTS}
    max_seats = MAX_MELEE_SEATS if variant == GRAND_MELEE else MAX_SEATS
    seats = _parse_seats(raw.get("seats", 4 if variant == TWO_HEADED_GIANT else 2), allow_test,
                         max_seats)
    if variant in OPTIONS_NOT_VARIANTS:
        # "planechase" or "vanguard" as a variant: that option on the default game for the
        # number of seats (CR 901.2: two-player, or Free-for-All).
        options[variant] = True
        variant = TWO_PLAYER if len(seats) == 2 else FREE_FOR_ALL
    if variant not in VARIANTS:
        # Let the engine say why (unsupported variants name their rule): bad_config.
        validate(GameConfig(players=(), variant=variant))
    if variant == TWO_HEADED_GIANT and isinstance(raw.get("seats", 4), int):
        # Two-Headed Giant given a number of seats: the first half of the seats is one team,
        # the rest the other (CR 810.1, 810.3).
        seats = tuple(SeatSpec(team=i * 2 // len(seats)) for i in range(len(seats)))
    if variant == ARCHENEMY and not any(seat.archenemy for seat in seats):
        # Archenemy with no seat marked: the first seat is the archenemy's (CR 904.2a).
        seats = (replace(seats[0], archenemy=True), *seats[1:])
    fmt = raw.get("format")
    if fmt is not None and not isinstance(fmt, str):
        raise _bad("format must be a string")
    best_of = raw.get("best_of", 1)
    if type(best_of) is not int or best_of not in (1, 3, 5, 7):
        raise _bad("best_of must be 1, 3, 5 or 7")
    clock = raw.get("clock")
    parsed_clock: tuple[float, float] | None = None
    if clock is not None:
        if not isinstance(clock, dict) or not set(clock) <= {"total", "inc"} or \
                "total" not in clock:
            raise _bad('clock must be {"total": seconds, "inc": seconds}')
        parsed_clock = (_seconds(clock["total"], "total", 86400.0),
                        _seconds(clock.get("inc", 0), "inc", 3600.0))
        if parsed_clock[0] <= 0:
            raise _bad("clock total must be more than 0 seconds")
    spectators = raw.get("spectators", "public")
    if spectators not in SPECTATOR_MODES:
        raise _bad("spectators must be none, public or all")
    invite = raw.get("invite")
    if invite is not None and (not isinstance(invite, str)
                               or not 16 <= len(invite) <= MAX_INVITE):
        raise _bad(f"invite must be a string of 16 to {MAX_INVITE} characters")
    delay = _seconds(raw.get("spectator_delay", 0), "spectator_delay", MAX_SPECTATOR_DELAY,
                     what="spectator_delay")
    if (invite is not None or delay) and spectators != "all":
        raise _bad("invite and spectator_delay are settings of rooms whose spectators see "
                   'all ("spectators": "all")')
    attack = raw.get("attack")
    if attack is not None and not isinstance(attack, str):
        raise _bad("attack must be a string")
    seating = raw.get("seating")
    if seating is not None:
        if not isinstance(seating, list) or not all(type(s) is int for s in seating):
            raise _bad("seating must be an array of seat numbers")
        seating = tuple(seating)
    seed = _opt_int(raw, "seed", 0, 2**62)
    hand_size = _opt_int(raw, "hand_size", 0, 20)
    settings = RoomSettings(
        name=name.strip(), variant=variant, seats=seats, best_of=best_of, clock=parsed_clock,
        spectators=spectators, invite=invite, spectator_delay=delay, attack=attack,
        range_of_influence=_opt_int(raw, "range_of_influence", 1, max_seats),
        deploy_creatures=_bool(raw, "deploy_creatures"),
        shared_team_turns=_bool(raw, "shared_team_turns"),
        hand_size=7 if hand_size is None else hand_size, format=fmt,
        planechase=options["planechase"], vanguard=options["vanguard"], seating=seating,
        scenario=_parse_scenario(raw["scenario"]) if raw.get("scenario") is not None else None,
        seed=seed, allow_test_cards=allow_test, event=event)
    # Let the engine check the combination, with stand-in decks where none is fixed yet: a
    # ready-made deck legal in the room's format (every ready-made deck has the parts the
    # variants use). The format must fit the variant before a stand-in can be picked.
    check_format(settings.variant, settings.deck_format())  # bad_config
    stand_in = ready_made(formats.stand_in(settings.deck_format()))
    fixed = [s.deck for s in seats]
    for i, deck in enumerate(fixed):
        if deck is not None:  # a deck the creator fixed: its problems, by its own lines
            settings.check_deck(i, deck, [d or stand_in for d in fixed])
    decks = [s.deck or stand_in for s in seats]
    try:
        validate(settings.game_config([f"Seat {i + 1}" for i in range(len(seats))], decks))
    except Refusal as exc:
        # Even a deck the engine refuses here is a stand-in the settings chose (the fixed
        # decks passed check_deck above): the configuration is what is wrong.
        raise _bad(exc.message) from None
    return settings


def _event_of(raw: Any) -> tuple[str, int, int]:
    if not (isinstance(raw, dict) and isinstance(raw.get("id"), str)):
        raise _bad("of_event must be {id, round, table}")
    return raw["id"], _int(raw.get("round"), "event round", 1, 100), \
        _int(raw.get("table"), "event table", 1, 1000)


def _parse_seats(raw: Any, allow_test: bool, max_seats: int) -> tuple[SeatSpec, ...]:
    if isinstance(raw, int) and not isinstance(raw, bool):
        if not 2 <= raw <= max_seats:
            raise _bad(f"a room has 2 to {max_seats} seats")
        return tuple(SeatSpec() for _ in range(raw))
    if not isinstance(raw, list) or not 2 <= len(raw) <= max_seats:
        raise _bad(f"seats must be a number or an array of 2 to {max_seats} seat descriptions")
    out = []
    for i, seat in enumerate(raw):
        if not isinstance(seat, dict) or not set(seat) <= {"team", "emperor", "range", "deck",
                                                           "archenemy"}:
            raise _bad(f"seat {i} must be a map with team, emperor, range, archenemy and deck "
                       "only")
        deck = parse_deck(seat["deck"], allow_test=allow_test) if seat.get("deck") else None
        out.append(SeatSpec(team=_opt_int(seat, "team", 0, max_seats),
                            emperor=_bool(seat, "emperor"),
                            range=_opt_int(seat, "range", 1, max_seats), deck=deck,
                            archenemy=_bool(seat, "archenemy")))
    return tuple(out)


_SETUP_LISTS = ("library", "hand", "battlefield", "graveyard", "exile", "command", "planar_deck",
                "scheme_deck")


def _names(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > 250 or not all(
            isinstance(v, str) for v in value):
        raise _bad(f"scenario {what} must be an array of card names")
    return tuple(value)


def _parse_scenario(raw: Any) -> Scenario:
    if not isinstance(raw, dict) or not isinstance(raw.get("players"), list):
        raise _bad('scenario must be a map with "players"')
    players = []
    for p in raw["players"]:
        if not isinstance(p, dict):
            raise _bad("each scenario player must be a map")
        kwargs: dict[str, Any] = {k: _names(p[k], k) for k in _SETUP_LISTS if k in p}
        if p.get("life") is not None:
            kwargs["life"] = _opt_int(p, "life", -1000, 1000)
        if p.get("poison"):
            kwargs["poison"] = _opt_int(p, "poison", 0, 100)
        if p.get("tapped"):
            if not isinstance(p["tapped"], list):
                raise _bad("scenario tapped is an array of battlefield indexes")
            kwargs["tapped"] = tuple(_int(t, "a tapped index", 0, 250) for t in p["tapped"])
        if p.get("counters"):
            counters = p["counters"]
            if not isinstance(counters, list) or not all(
                    isinstance(c, list) and len(c) == 3 and isinstance(c[1], str)
                    for c in counters):
                raise _bad("scenario counters are [battlefield index, kind, amount]")
            kwargs["counters"] = tuple((_int(i, "a counter's index", 0, 250), k,
                                        _int(n, "a counter amount", 0, 1000))
                                       for i, k, n in counters)
        extra = set(p) - {*_SETUP_LISTS, "life", "poison", "tapped", "counters"}
        if extra:
            raise _bad(f"unknown scenario player field {sorted(extra)[0]!r}")
        players.append(PlayerSetup(**kwargs))
    step = raw.get("step", "main1")
    active = _opt_int(raw, "active", 0, MAX_MELEE_SEATS) or 0
    turn = _opt_int(raw, "turn", 1, 1000) or 1
    if not isinstance(step, str):
        raise _bad("scenario step must be a string")
    return Scenario(players=tuple(players), active=active, step=step, turn=turn,
                    sick=_bool(raw, "sick"))
