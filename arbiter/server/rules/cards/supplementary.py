"""Nontraditional cards, as data: planes and phenomena (Planechase, CR 901), schemes
(Archenemy, CR 904) and vanguards (Vanguard, CR 902).

Like the rest of the pool, each card is a :class:`~arbiter.server.rules.cards.vocab.CardDef`
whose ``text`` is its Oracle text. These cards never go into a deck, a library or a sideboard:
they form the supplementary decks a deck list names in sections of their own
(:mod:`arbiter.server.rules.cards.decks`). Plane and phenomenon abilities are exempt from the
limited range of influence option (CR 901.13); a vanguard's hand and life modifiers are card
fields.
"""

from __future__ import annotations

from ..mana import ManaCost
from .vocab import (
    ANY_TARGET,
    BASIC_LAND_CARD,
    EACH_CREATURE,
    EACH_OPPONENT,
    EACH_OTHER_PLAYER,
    EACH_PLAYER,
    EVENT_OBJECT_CONTROLLER,
    EVENT_PLAYER,
    EVENT_SOURCE_CONTROLLER,
    FLYING,
    HASTE,
    ONGOING,
    OTHER_OPPONENTS,
    PHENOMENON,
    PLANE,
    SCHEME,
    TARGET_CREATURE,
    TARGET_OPPONENT,
    TARGET_OPPONENT_CREATURE,
    TARGET_PLAYER,
    TRAMPLE,
    UNTIL_END_OF_TURN,
    UNTIL_YOUR_NEXT_TURN,
    VANGUARD,
    YOU,
    Abandon,
    Activated,
    AddMana,
    AtDrawStep,
    AtEndStep,
    AtUpkeep,
    BlankRollsAreChaos,
    CardDef,
    CardsInHandOfRecipient,
    CardsToGraveyardThisTurnAtLeast,
    ChaosEnsues,
    CombatLimit,
    Cost,
    CreateToken,
    CreaturesGet,
    CreaturesHave,
    CreatureYouControlDies,
    Damage,
    DamageTakenThisTurnAtLeast,
    DealsCombatDamage,
    Destroy,
    DestroyAll,
    Discard,
    DiscardHand,
    Draw,
    GainControl,
    GainLife,
    GrantKeyword,
    If,
    LandEnters,
    May,
    Mill,
    NoCardsInHand,
    NoMaximumHandSize,
    OpponentChoosesSelfOrOthers,
    PlaneswalkAway,
    PlaneswalkTo,
    PlayerCastsSpell,
    PowerAtMost,
    PreventOneFromOpponents,
    Pump,
    SearchLibrary,
    SetInMotion,
    SetLife,
    ShuffleHandAndGraveyardIntoLibrary,
    SpellsCostLess,
    Target,
    Triggered,
    Untap,
    UntapDuringOpponentsUntap,
)

PLANE_T = frozenset({PLANE})
PHENOMENON_T = frozenset({PHENOMENON})
SCHEME_T = frozenset({SCHEME})
VANGUARD_T = frozenset({VANGUARD})
ONGOING_S = frozenset({ONGOING})


def _plane(name: str, planar_type: str, text: str, *abilities: object) -> CardDef:
    return CardDef(name=name, types=PLANE_T, subtypes=(planar_type,), text=text,
                   abilities=abilities)  # type: ignore[arg-type]


def _chaos(*effects: object, targets: tuple[object, ...] = (), text: str = "") -> Triggered:
    return Triggered(ChaosEnsues(), effects, targets=targets,  # type: ignore[arg-type]
                     text=text)


PLANES = [
    _plane("Academy at Tolaria West", "Dominaria",
           "At the beginning of your end step, if you have no cards in hand, draw seven "
           "cards.\nWhenever chaos ensues, discard your hand.",
           Triggered(AtEndStep(), (Draw(7, YOU),), condition=NoCardsInHand(),
                     text="draw seven cards if your hand is empty"),
           _chaos(DiscardHand(YOU), text="discard your hand")),
    _plane("Astral Arena", "Kolbahan",
           "No more than one creature can attack each combat.\nNo more than one creature can "
           "block each combat.\nWhenever chaos ensues, Astral Arena deals 2 damage to each "
           "creature.",
           CombatLimit("attack"), CombatLimit("block"),
           _chaos(Damage(2, EACH_CREATURE), text="2 damage to each creature")),
    _plane("Fields of Summer", "Moag",
           "Whenever a player casts a spell, that player may gain 2 life.\nWhenever chaos "
           "ensues, you may gain 10 life.",
           Triggered(PlayerCastsSpell(), (May((GainLife(2, EVENT_PLAYER),), EVENT_PLAYER,
                                              "Gain 2 life?"),),
                     text="that player may gain 2 life"),
           _chaos(May((GainLife(10, YOU),), prompt="Gain 10 life?"), text="you may gain 10 life")),
    _plane("Goldmeadow", "Lorwyn",
           "Whenever a land enters, that land's controller creates three 0/1 white Goat "
           "creature tokens.\nWhenever chaos ensues, create a 0/1 white Goat creature token.",
           Triggered(LandEnters(), (CreateToken("Goat", EVENT_OBJECT_CONTROLLER, 3),),
                     text="three Goats for that land's controller"),
           _chaos(CreateToken("Goat", YOU), text="create a Goat")),
    _plane("Krosa", "Dominaria",
           "All creatures get +2/+2.\nWhenever chaos ensues, you may add {W}{U}{B}{R}{G}.",
           CreaturesGet(2, 2, "all"),
           _chaos(May((AddMana("WUBRG"),), prompt="Add {W}{U}{B}{R}{G}?"),
                  text="you may add {W}{U}{B}{R}{G}")),
    _plane("Lethe Lake", "Arkhos",
           "At the beginning of your upkeep, mill ten cards.\nWhenever chaos ensues, target "
           "player mills ten cards.",
           Triggered(AtUpkeep(), (Mill(10, YOU),), text="mill ten cards"),
           _chaos(Mill(10, Target(0)), targets=(TARGET_PLAYER,),
                  text="target player mills ten cards")),
    _plane("Panopticon", "Mirrodin",
           "When you planeswalk to Panopticon, draw a card.\nAt the beginning of your draw "
           "step, draw an additional card.\nWhenever chaos ensues, draw a card.",
           Triggered(PlaneswalkTo(), (Draw(1, YOU),), text="draw a card"),
           Triggered(AtDrawStep(), (Draw(1, YOU),), text="draw an additional card"),
           _chaos(Draw(1, YOU), text="draw a card")),
    _plane("Sanctum of Serra", "Serra's Realm",
           "When you planeswalk away from Sanctum of Serra, destroy all nonland permanents."
           "\nWhenever chaos ensues, you may have your life total become 20.",
           Triggered(PlaneswalkAway(), (DestroyAll(nonland=True),),
                     text="destroy all nonland permanents"),
           _chaos(May((SetLife(20, YOU),), prompt="Have your life total become 20?"),
                  text="your life total may become 20")),
    _plane("The Hippodrome", "Segovia",
           "All creatures get -5/-0.\nWhenever chaos ensues, you may destroy target creature "
           "if its power is 0 or less.",
           CreaturesGet(-5, 0, "all"),
           _chaos(May((If(PowerAtMost(Target(0), 0), then=(Destroy(Target(0)),)),),
                      prompt="Destroy that creature if its power is 0 or less?"),
                  targets=(TARGET_CREATURE,), text="you may destroy target creature")),
    _plane("Undercity Reaches", "Ravnica",
           "Whenever a creature deals combat damage to a player, its controller may draw a "
           "card.\nWhenever chaos ensues, you have no maximum hand size for the rest of the "
           "game.",
           Triggered(DealsCombatDamage("player", any_creature=True),
                     (May((Draw(1, EVENT_SOURCE_CONTROLLER),), EVENT_SOURCE_CONTROLLER,
                          "Draw a card?"),),
                     text="its controller may draw a card"),
           _chaos(NoMaximumHandSize(YOU), text="no maximum hand size")),
]

PHENOMENA = [
    CardDef(name="Chaotic Aether", types=PHENOMENON_T,
            text="When you encounter Chaotic Aether, each blank roll of the planar die is a "
                 "{CHAOS} roll until a player planeswalks away from a plane. (Then planeswalk "
                 "away from this phenomenon.)",
            abilities=(Triggered(PlaneswalkTo(), (BlankRollsAreChaos(),),
                                 text="blank rolls are chaos"),)),
    CardDef(name="Mutual Epiphany", types=PHENOMENON_T,
            text="When you encounter Mutual Epiphany, each player draws four cards. (Then "
                 "planeswalk away from this phenomenon.)",
            abilities=(Triggered(PlaneswalkTo(), (Draw(4, EACH_PLAYER),),
                                 text="each player draws four cards"),)),
    CardDef(name="Planewide Disaster", types=PHENOMENON_T,
            text="When you encounter Planewide Disaster, destroy all creatures. (Then "
                 "planeswalk away from this phenomenon.)",
            abilities=(Triggered(PlaneswalkTo(), (DestroyAll(frozenset({"Creature"})),),
                                 text="destroy all creatures"),)),
]


def _scheme(name: str, text: str, *effects: object, targets: tuple[object, ...] = ()
            ) -> CardDef:
    return CardDef(name=name, types=SCHEME_T, text=text,
                   abilities=(Triggered(SetInMotion(), effects,  # type: ignore[arg-type]
                                        targets=targets),))  # type: ignore[arg-type]


_ONGOING_REMINDER = "(An ongoing scheme remains face up until it's abandoned.)\n"

SCHEMES = [
    _scheme("Behold the Power of Destruction",
            "When you set this scheme in motion, destroy all nonland permanents target "
            "opponent controls.",
            DestroyAll(nonland=True, whose=Target(0)), targets=(TARGET_OPPONENT,)),
    _scheme("Embrace My Diabolical Vision",
            "When you set this scheme in motion, each player shuffles their hand and graveyard "
            "into their library. You draw seven cards, then each other player draws four "
            "cards.",
            ShuffleHandAndGraveyardIntoLibrary(EACH_PLAYER), Draw(7, YOU),
            Draw(4, EACH_OTHER_PLAYER)),
    _scheme("Know Naught but Fire",
            "When you set this scheme in motion, it deals damage to each opponent equal to the "
            "number of cards in that player's hand.",
            Damage(CardsInHandOfRecipient(), EACH_OPPONENT)),
    _scheme("Look Skyward and Despair",
            "When you set this scheme in motion, create a 5/5 red Dragon creature token with "
            "flying.",
            CreateToken("Dragon", YOU)),
    _scheme("Realms Befitting My Majesty",
            "When you set this scheme in motion, search your library for up to two basic land "
            "cards, put them onto the battlefield tapped, then shuffle.",
            SearchLibrary(YOU, BASIC_LAND_CARD, count=2, tapped=True)),
    _scheme("Surrender Your Thoughts",
            "When you set this scheme in motion, target opponent chooses self or others. If "
            "that player chooses self, that player discards four cards. If the player chooses "
            "others, each of your other opponents discards two cards.",
            OpponentChoosesSelfOrOthers((Discard(4, Target(0)),),
                                        (Discard(2, OTHER_OPPONENTS),)),
            targets=(TARGET_OPPONENT,)),
    _scheme("The Fate of the Flammable",
            "When you set this scheme in motion, target opponent chooses self or others. If "
            "that player chooses self, this scheme deals 6 damage to that player. If the "
            "player chooses others, this scheme deals 3 damage to each of your other "
            "opponents.",
            OpponentChoosesSelfOrOthers((Damage(6, Target(0)),), (Damage(3, OTHER_OPPONENTS),)),
            targets=(TARGET_OPPONENT,)),
    _scheme("The Iron Guardian Stirs",
            "When you set this scheme in motion, create a 4/6 colorless Golem artifact "
            "creature token.",
            CreateToken("Golem", YOU)),
    _scheme("Your Puny Minds Cannot Fathom",
            "When you set this scheme in motion, draw four cards. You have no maximum hand size "
            "until your next turn.",
            Draw(4, YOU), NoMaximumHandSize(YOU, UNTIL_YOUR_NEXT_TURN)),
    _scheme("Your Will Is Not Your Own",
            "When you set this scheme in motion, gain control of target creature an opponent "
            "controls until end of turn. Untap that creature. It gets +3/+3 and gains haste "
            "and trample until end of turn.",
            GainControl(Target(0), UNTIL_END_OF_TURN), Untap(Target(0)), Pump(Target(0), 3, 3),
            GrantKeyword(Target(0), HASTE, UNTIL_END_OF_TURN),
            GrantKeyword(Target(0), TRAMPLE, UNTIL_END_OF_TURN),
            targets=(TARGET_OPPONENT_CREATURE,)),
    CardDef(name="Nothing Can Stop Me Now", types=SCHEME_T, supertypes=ONGOING_S,
            text=_ONGOING_REMINDER + "If a source an opponent controls would deal damage to "
                 "you, prevent 1 of that damage.\nAt the beginning of each end step, if you've "
                 "been dealt 5 or more damage this turn, abandon this scheme.",
            abilities=(PreventOneFromOpponents(),
                       Triggered(AtEndStep("each"), (Abandon(),),
                                 condition=DamageTakenThisTurnAtLeast(5),
                                 text="abandon this scheme"))),
    CardDef(name="The Very Soil Shall Shake", types=SCHEME_T, supertypes=ONGOING_S,
            text=_ONGOING_REMINDER + "Creatures you control get +2/+2 and have trample.\nWhen "
                 "a creature you control dies, abandon this scheme.",
            abilities=(CreaturesGet(2, 2, "you"), CreaturesHave(TRAMPLE, "you"),
                       Triggered(CreatureYouControlDies(), (Abandon(),),
                                 text="abandon this scheme"))),
    CardDef(name="I Know All, I See All", types=SCHEME_T, supertypes=ONGOING_S,
            text=_ONGOING_REMINDER + "Untap all permanents you control during each opponent's "
                 "untap step.\nAt the beginning of each end step, if three or more cards were "
                 "put into your graveyard this turn from anywhere, abandon this scheme.",
            abilities=(UntapDuringOpponentsUntap(),
                       Triggered(AtEndStep("each"), (Abandon(),),
                                 condition=CardsToGraveyardThisTurnAtLeast(3),
                                 text="abandon this scheme"))),
]


def _vanguard(name: str, hand: int, life: int, text: str, *abilities: object) -> CardDef:
    return CardDef(name=name, types=VANGUARD_T, hand_modifier=hand, life_modifier=life,
                   text=text, abilities=abilities)  # type: ignore[arg-type]


VANGUARDS = [
    _vanguard("Gerrard", -4, 0, "At the beginning of your draw step, draw an additional card.",
              Triggered(AtDrawStep(), (Draw(1, YOU),), text="draw an additional card")),
    _vanguard("Hanna", 1, -5, "Spells you cast cost {1} less to cast.", SpellsCostLess(1)),
    _vanguard("Maraxus", 1, 2, "Creatures you control get +1/+0.", CreaturesGet(1, 0, "you")),
    _vanguard("Serra", 1, 1, "Creatures you control get +0/+2.", CreaturesGet(0, 2, "you")),
    _vanguard("Tahngarth", -1, 7, "Creatures you control have haste.",
              CreaturesHave(HASTE, "you")),
    _vanguard("Urza", -1, 10, "{3}: Urza deals 1 damage to any target.",
              Activated(Cost(mana=ManaCost.parse("{3}")), (Damage(1, Target(0)),),
                        targets=(ANY_TARGET,), text="Urza deals 1 damage to any target.")),
]

TOKENS = [
    CardDef(name="Goat", types=frozenset({"Creature"}), subtypes=("Goat",), power=0,
            toughness=1, token=True, text="(A 0/1 white Goat creature.)"),
    CardDef(name="Dragon", types=frozenset({"Creature"}), subtypes=("Dragon",), power=5,
            toughness=5, keywords=frozenset({FLYING}), token=True,
            text="Flying (A 5/5 red Dragon creature.)"),
    CardDef(name="Golem", types=frozenset({"Artifact", "Creature"}), subtypes=("Golem",),
            power=4, toughness=6, token=True, text="(A 4/6 colorless Golem artifact creature.)"),
]
