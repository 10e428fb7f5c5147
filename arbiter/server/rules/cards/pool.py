"""The card pool, as data.

Each entry is one :class:`~arbiter.server.rules.cards.vocab.CardDef`. ``text`` is the card's
Oracle text (card data, shown to players). Cards marked ``test_only`` exist so that tests can
build the situations the rules describe (the Genesis Chamber example under CR 800.4a, a mandatory
loop for CR 104.4b); they are refused in deck lists and ready-made decks.
"""

from __future__ import annotations

from .build import (
    ARTIFACT,
    ARTIFACT_CREATURE,
    BASIC,
    CREATURE,
    ENCHANTMENT,
    INSTANT,
    LAND,
    LEGENDARY,
    SORCERY,
)
from .build import creature as _creature
from .build import mana_cost as _C
from .sets import m10
from .supplementary import PHENOMENA, PLANES, SCHEMES, VANGUARDS
from .supplementary import TOKENS as SUPPLEMENTARY_TOKENS
from .vocab import (
    ANY_TARGET,
    CARD_TYPE,
    CHOSEN_PLAYER,
    COLOR,
    CREATURE_CARD,
    CREATURE_OR_LAND_CARD,
    DEATHTOUCH,
    DOUBLE_STRIKE,
    EACH_PLAYER,
    EVENT_OBJECT,
    EVENT_OBJECT_CONTROLLER,
    EVENT_PLAYER,
    EVERYTHING,
    FIRST_STRIKE,
    FLASH,
    FLYING,
    HASTE,
    HEXPROOF,
    INDESTRUCTIBLE,
    INFECT,
    INTIMIDATE,
    LIFELINK,
    PHASING,
    PLAYER_OR_PLANESWALKER,
    SELF,
    SHROUD,
    TARGET_CREATURE,
    TARGET_OPPONENT,
    TARGET_PERMANENT,
    TARGET_PLAYER,
    TRAMPLE,
    UNTIL_END_OF_TURN,
    UNTIL_YOUR_NEXT_TURN,
    VIGILANCE,
    YOU,
    Activated,
    AllOf,
    AlsoBecomes,
    AtUpkeep,
    BecomeColor,
    BecomeCreature,
    BecomesTapped,
    BecomesUntapped,
    CantLose,
    CantWin,
    CardDef,
    CardLeavesYourZone,
    CastAnotherNamedThisGame,
    CastFromHand,
    ChangeText,
    ChooseOpponent,
    ControlEnchanted,
    Cost,
    CreateToken,
    CreatureEnters,
    CreatureLeavesBattlefield,
    CreaturesHave,
    Damage,
    DealsCombatDamage,
    Destroy,
    Draw,
    DrawGame,
    Effect,
    EmptyLibraryDrawWins,
    EntersTapped,
    EntersWithCounters,
    Exile,
    ExileFromHand,
    GainControl,
    GainLife,
    GrantKeyword,
    HalfLibrary,
    HighestLifeWins,
    If,
    Keyword,
    LastCounterRemoved,
    LifeAtLeast,
    LifeTotalOf,
    LoseAllAbilities,
    LoseGame,
    LoseLife,
    ManaAbility,
    MayPay,
    Mill,
    Mode,
    NoCounters,
    OpponentChoosesCreatureToSacrifice,
    OpponentChoosesMode,
    Paid,
    PlayerLoses,
    PlayersWithLifeAtMost,
    PlaySubgame,
    PreventDamage,
    Protection,
    PutCounters,
    PutSelfIntoLibrary,
    RedirectDamage,
    RegenerateInstead,
    Remembered,
    RemoveCounters,
    RestartGame,
    ReturnToHand,
    SearchLibrary,
    SelfEnters,
    SetLife,
    SetPowerToughness,
    Simultaneously,
    SourceUntapped,
    SwitchPowerToughness,
    Tap,
    Target,
    TargetSpec,
    Triggered,
    Untap,
    Ward,
    WinGame,
    WishFromOutside,
    where,
)


def _basic(name: str, color: str, subtype: str | None) -> CardDef:
    return CardDef(
        name=name, types=LAND, supertypes=BASIC, subtypes=(subtype,) if subtype else (),
        text=f"({{T}}: Add {{{color}}}.)", abilities=(ManaAbility(color),),
    )


BASICS = [
    _basic("Plains", "W", "Plains"),
    _basic("Island", "U", "Island"),
    _basic("Swamp", "B", "Swamp"),
    _basic("Mountain", "R", "Mountain"),
    _basic("Forest", "G", "Forest"),
    _basic("Wastes", "C", None),
]

CREATURES = [
    _creature("Runeclaw Bear", "{1}{G}", "Bear", 2, 2),
    _creature("Grizzly Bears", "{1}{G}", "Bear", 2, 2),
    _creature("Hill Giant", "{3}{R}", "Giant", 3, 3),
    _creature("Assault Griffin", "{3}{W}", "Griffin", 3, 2, (FLYING,), "Flying"),
    _creature("Serra Angel", "{3}{W}{W}", "Angel", 4, 4, (FLYING, VIGILANCE),
              "Flying, vigilance"),
    _creature("Llanowar Elves", "{G}", "Elf Druid", 1, 1, (), "{T}: Add {G}.",
              abilities=(ManaAbility("G"),)),
    _creature("Glistener Elf", "{G}", "Phyrexian Elf Warrior", 1, 1, (INFECT,), "Infect"),
    _creature("Plague Stinger", "{1}{B}", "Phyrexian Insect Horror", 1, 1, (FLYING, INFECT),
              "Flying, infect"),
    _creature("Breezekeeper", "{3}{U}", "Elemental", 4, 4, (FLYING, PHASING),
              "Flying\nPhasing"),
    CardDef(name="Isamaru, Hound of Konda", types=CREATURE, cost=_C("{W}"),
            supertypes=LEGENDARY, subtypes=("Dog",), power=2, toughness=2),
]

SPELLS = [
    CardDef(name="Lightning Bolt", types=INSTANT, cost=_C("{R}"),
            text="Lightning Bolt deals 3 damage to any target.",
            targets=(ANY_TARGET,), spell=(Damage(3, Target(0)),)),
    CardDef(name="Lava Axe", types=SORCERY, cost=_C("{4}{R}"),
            text="Lava Axe deals 5 damage to target player or planeswalker.",
            targets=(PLAYER_OR_PLANESWALKER,), spell=(Damage(5, Target(0)),)),
    CardDef(name="Angel's Mercy", types=INSTANT, cost=_C("{2}{W}{W}"),
            text="You gain 7 life.", spell=(GainLife(7, YOU),)),
    CardDef(name="Divination", types=SORCERY, cost=_C("{2}{U}"),
            text="Draw two cards.", spell=(Draw(2, YOU),)),
    CardDef(name="Traumatize", types=SORCERY, cost=_C("{3}{U}{U}"),
            text="Target player mills half their library, rounded down.",
            targets=(TARGET_PLAYER,), spell=(Mill(HalfLibrary(Target(0)), Target(0)),)),
    CardDef(name="Glimpse the Unthinkable", types=SORCERY, cost=_C("{U}{B}"),
            text="Target player mills ten cards.",
            targets=(TARGET_PLAYER,), spell=(Mill(10, Target(0)),)),
    CardDef(name="Act of Treason", types=SORCERY, cost=_C("{2}{R}"),
            text="Gain control of target creature until end of turn. Untap that creature. "
                 "It gains haste until end of turn. (It can attack and {T} this turn.)",
            targets=(TARGET_CREATURE,),
            spell=(GainControl(Target(0), UNTIL_END_OF_TURN), Untap(Target(0)),
                   GrantKeyword(Target(0), HASTE, UNTIL_END_OF_TURN))),
    CardDef(name="Mind Control", types=ENCHANTMENT, subtypes=("Aura",), cost=_C("{3}{U}{U}"),
            text="Enchant creature\nYou control enchanted creature.",
            enchant=TARGET_CREATURE, abilities=(ControlEnchanted(),)),
    CardDef(name="Bribery", types=SORCERY, cost=_C("{3}{U}{U}"),
            text="Search target opponent's library for a creature card and put that card onto "
                 "the battlefield under your control. Then that player shuffles.",
            targets=(TARGET_OPPONENT,),
            spell=(SearchLibrary(Target(0), CREATURE_CARD),)),
    CardDef(name="Blessed Wind", types=SORCERY, cost=_C("{7}{W}{W}"),
            text="Target player's life total becomes 20.",
            targets=(TARGET_PLAYER,), spell=(SetLife(20, Target(0)),)),
]

WINNING = [
    _creature("Laboratory Maniac", "{2}{U}", "Human Wizard", 2, 2, (),
              "If you would draw a card while your library has no cards in it, "
              "you win the game instead.",
              abilities=(EmptyLibraryDrawWins(),)),
    CardDef(name="Approach of the Second Sun", types=SORCERY, cost=_C("{6}{W}"),
            text="If this spell was cast from your hand and you've cast another spell named "
                 "Approach of the Second Sun this game, you win the game. Otherwise, put "
                 "Approach of the Second Sun into its owner's library seventh from the top "
                 "and you gain 7 life.",
            spell=(If(AllOf((CastFromHand(), CastAnotherNamedThisGame())),
                      then=(WinGame(YOU),),
                      otherwise=(PutSelfIntoLibrary(7), GainLife(7, YOU))),)),
    _creature("Felidar Sovereign", "{4}{W}{W}", "Cat Beast", 4, 6, (VIGILANCE, LIFELINK),
              "Vigilance, lifelink\nAt the beginning of your upkeep, if you have 40 or more "
              "life, you win the game.",
              abilities=(Triggered(AtUpkeep(), (WinGame(YOU),),
                                   condition=LifeAtLeast(YOU, 40)),)),
    CardDef(name="Test of Endurance", types=ENCHANTMENT, cost=_C("{2}{W}{W}"),
            text="At the beginning of your upkeep, if you have 50 or more life, "
                 "you win the game.",
            abilities=(Triggered(AtUpkeep(), (WinGame(YOU),), condition=LifeAtLeast(YOU, 50)),)),
    CardDef(name="Celestial Convergence", types=ENCHANTMENT, cost=_C("{2}{W}{W}"),
            text="Celestial Convergence enters with seven omen counters on it.\nAt the "
                 "beginning of your upkeep, remove an omen counter from Celestial Convergence. "
                 "If there are no omen counters on Celestial Convergence, the player with the "
                 "highest life total wins the game. If two or more players are tied for "
                 "highest life total, the game is a draw.",
            abilities=(EntersWithCounters("omen", 7),
                       Triggered(AtUpkeep(), (RemoveCounters(SELF, "omen", 1),
                                              If(NoCounters(SELF, "omen"),
                                                 then=(HighestLifeWins(),))))),),
]

LOSING = [
    CardDef(name="Door to Nothingness", types=ARTIFACT, cost=_C("{5}"),
            text="Door to Nothingness enters tapped.\n{W}{W}{U}{U}{B}{B}{R}{R}{G}{G}, {T}, "
                 "Sacrifice Door to Nothingness: Target player loses the game.",
            abilities=(EntersTapped(),
                       Activated(Cost(mana=_C("{W}{W}{U}{U}{B}{B}{R}{R}{G}{G}"), tap=True,
                                      sacrifice_self=True),
                                 (LoseGame(Target(0)),), targets=(TARGET_PLAYER,),
                                 text="Target player loses the game."))),
    CardDef(name="Phage the Untouchable", types=CREATURE, cost=_C("{3}{B}{B}{B}{B}"),
            supertypes=LEGENDARY, subtypes=("Avatar", "Minion"), power=4, toughness=4,
            text="When Phage the Untouchable enters, if you didn't cast it from your hand, "
                 "you lose the game.\nWhenever Phage the Untouchable deals combat damage to a "
                 "creature, destroy that creature. It can't be regenerated.\nWhenever Phage "
                 "the Untouchable deals combat damage to a player, that player loses the game.",
            abilities=(Triggered(SelfEnters(), (LoseGame(YOU),),
                                 condition=CastFromHand(negate=True)),
                       Triggered(DealsCombatDamage("creature"),
                                 (Destroy(EVENT_OBJECT, no_regen=True),)),
                       Triggered(DealsCombatDamage("player"), (LoseGame(EVENT_PLAYER),)))),
]

DRAWN = [
    CardDef(name="Divine Intervention", types=ENCHANTMENT, cost=_C("{6}{W}{W}"),
            text="Divine Intervention enters with two intervention counters on it.\nAt the "
                 "beginning of your upkeep, remove an intervention counter from Divine "
                 "Intervention.\nWhen you remove the last intervention counter from Divine "
                 "Intervention, the game is a draw.",
            abilities=(EntersWithCounters("intervention", 2),
                       Triggered(AtUpkeep(), (RemoveCounters(SELF, "intervention", 1),)),
                       Triggered(LastCounterRemoved("intervention"), (DrawGame(),)))),
]

PREVENTING = [
    CardDef(name="Platinum Angel", types=frozenset({"Artifact", "Creature"}), cost=_C("{7}"),
            subtypes=("Angel",), power=4, toughness=4, keywords=frozenset({FLYING}),
            text="Flying\nYou can't lose the game and your opponents can't win the game.",
            abilities=(CantLose("you"), CantWin("opponents"))),
    _creature("Abyssal Persecutor", "{2}{B}{B}", "Demon", 6, 6, (FLYING, TRAMPLE),
              "Flying, trample\nYou can't win the game and your opponents can't lose the game.",
              abilities=(CantWin("you"), CantLose("opponents"))),
]

REACTING = [
    _creature("Blood Tyrant", "{4}{U}{B}{R}", "Vampire", 5, 5, (FLYING, TRAMPLE),
              "Flying, trample\nAt the beginning of your upkeep, each player loses 1 life. Put "
              "a +1/+1 counter on Blood Tyrant for each 1 life lost this way.\nWhenever a "
              "player loses the game, put five +1/+1 counters on Blood Tyrant.",
              abilities=(Triggered(AtUpkeep(), (LoseLife(1, EACH_PLAYER, remember="lost"),
                                                PutCounters(SELF, "+1/+1", Remembered("lost")))),
                         Triggered(PlayerLoses(), (PutCounters(SELF, "+1/+1", 5),)))),
]

RESTARTING = [
    CardDef(name="Karn Liberated", types=frozenset({"Planeswalker"}), cost=_C("{7}"),
            supertypes=LEGENDARY, subtypes=("Karn",), loyalty=6,
            text="+4: Target player exiles a card from their hand.\n\u22123: Exile target "
                 "permanent.\n\u221214: Restart the game, leaving in exile all non-Aura "
                 "permanent cards exiled with Karn Liberated. Then put those cards onto the "
                 "battlefield under your control.",
            abilities=(Activated(Cost(loyalty=4), (ExileFromHand(Target(0)),),
                                 targets=(TARGET_PLAYER,), sorcery_speed=True,
                                 text="Target player exiles a card from their hand."),
                       Activated(Cost(loyalty=-3), (Exile(Target(0), link=True),),
                                 targets=(TARGET_PERMANENT,), sorcery_speed=True,
                                 text="Exile target permanent."),
                       Activated(Cost(loyalty=-14), (RestartGame(),), sorcery_speed=True,
                                 text="Restart the game."))),
    CardDef(name="Shahrazad", types=SORCERY, cost=_C("{W}{W}"),
            text="Players play a Magic subgame, using their libraries as their decks. Each "
                 "player who doesn't win the subgame loses half their life, rounded up.",
            spell=(PlaySubgame(),)),
    CardDef(name="Living Wish", types=SORCERY, cost=_C("{1}{G}"),
            text="You may reveal a creature or land card you own from outside the game and "
                 "put it into your hand. Exile Living Wish.",
            spell=(WishFromOutside(CREATURE_OR_LAND_CARD),), exile_on_resolve=True),
]

TOKENS = [
    CardDef(name="Myr", types=frozenset({"Artifact", "Creature"}), subtypes=("Myr",),
            power=1, toughness=1, token=True, text="(A 1/1 colorless Myr artifact creature.)"),
]

# Test-only cards: the shapes the rules' examples need that the pool itself lacks.
TEST_CARDS = [
    CardDef(name="Genesis Chamber", types=ARTIFACT, cost=_C("{2}"), test_only=True,
            text="Whenever a nontoken creature enters, if Genesis Chamber is untapped, that "
                 "creature's controller creates a 1/1 colorless Myr artifact creature token.",
            abilities=(Triggered(CreatureEnters(nontoken=True),
                                 (CreateToken("Myr", EVENT_OBJECT_CONTROLLER),),
                                 condition=SourceUntapped()),)),
    # A mandatory loop (CR 104.4b): the Counterweight taps the Pendulum as it enters; the
    # Pendulum untaps itself, which makes the Counterweight tap it again, forever, and nothing
    # in the loop is optional.
    CardDef(name="Perpetual Pendulum", types=ARTIFACT, cost=_C("{1}"), test_only=True,
            text="Whenever Perpetual Pendulum becomes tapped, untap it.",
            abilities=(Triggered(BecomesTapped(), (Untap(SELF),)),)),
    CardDef(name="Perpetual Counterweight", types=ARTIFACT, cost=_C("{1}"), test_only=True,
            text="When Perpetual Counterweight enters, tap target permanent.\nWhenever a "
                 "permanent named Perpetual Pendulum becomes untapped, tap it.",
            abilities=(Triggered(SelfEnters(), (Tap(Target(0)),), targets=(TARGET_PERMANENT,)),
                       Triggered(BecomesUntapped("Perpetual Pendulum"), (Tap(EVENT_OBJECT),)))),
    _creature("Toll Keeper", "{1}{B}", "Human", 1, 1, (),
              "When Toll Keeper enters, target opponent may pay 2 life. If that player "
              "doesn't, you draw a card.", test_only=True,
              abilities=(Triggered(SelfEnters(), (MayPay(Target(0), 2),
                                                  If(Paid(negate=True), then=(Draw(1, YOU),))),
                                   targets=(TARGET_OPPONENT,)),)),
    CardDef(name="Tribute Demand", types=SORCERY, cost=_C("{1}{B}"), test_only=True,
            text="An opponent of your choice chooses a creature you control. Sacrifice it.",
            spell=(OpponentChoosesCreatureToSacrifice(),)),
    CardDef(name="Updraft", types=INSTANT, cost=_C("{U}"), test_only=True,
            text="Target creature gains flying until your next turn.",
            targets=(TARGET_CREATURE,),
            spell=(GrantKeyword(Target(0), FLYING, UNTIL_YOUR_NEXT_TURN),)),
    CardDef(name="Mending Hands", types=INSTANT, cost=_C("{W}"), test_only=True,
            text="Prevent the next 4 damage that would be dealt to any target this turn.",
            targets=(ANY_TARGET,), spell=(PreventDamage(Target(0), 4),)),
    CardDef(name="Captain's Maneuver", types=INSTANT, cost=_C("{R}{W}"), test_only=True,
            text="The next 3 damage that would be dealt to target creature, planeswalker, or "
                 "player this turn is dealt to another target creature, planeswalker, or "
                 "player instead.",
            targets=(ANY_TARGET, ANY_TARGET), spell=(RedirectDamage(3),)),
    CardDef(name="Unsummon", types=INSTANT, cost=_C("{U}"), test_only=True,
            text="Return target creature to its owner's hand.",
            targets=(TARGET_CREATURE,), spell=(ReturnToHand(Target(0)),)),
    CardDef(name="Twin Fates", types=SORCERY, cost=_C("{B}"), test_only=True,
            text="You win the game and each player with 5 or less life loses the game.",
            spell=(Simultaneously((WinGame(YOU), LoseGame(PlayersWithLifeAtMost(5)))),)),
    CardDef(name="Volcanic Tremor", types=SORCERY, cost=_C("{1}{R}"), test_only=True,
            text="Volcanic Tremor deals 2 damage to each player.",
            spell=(Damage(2, EACH_PLAYER),)),
    CardDef(name="Public Fountain", types=ARTIFACT, cost=_C("{2}"), test_only=True,
            text="Any player may activate this ability: {T}: You gain 1 life.",
            abilities=(Activated(Cost(tap=True), (GainLife(1, YOU),), anyone=True,
                                 text="You gain 1 life."),)),
    _creature("Extractor Demon", "{4}{B}{B}", "Demon", 5, 5, (FLYING,),
              "Flying\nWhenever another creature leaves the battlefield, target player mills "
              "two cards.", test_only=True,
              abilities=(Triggered(CreatureLeavesBattlefield(), (Mill(2, Target(0)),),
                                   targets=(TARGET_PLAYER,)),)),
    CardDef(name="Tribute Offering", types=SORCERY, cost=_C("{1}{U}"), test_only=True,
            text="An opponent chooses one \u2014 You draw two cards; or you gain 5 life.",
            spell=(OpponentChoosesMode((Mode("You draw two cards", (Draw(2, YOU),)),
                                        Mode("You gain 5 life", (GainLife(5, YOU),)))),)),
    CardDef(name="Soul Echo", types=ENCHANTMENT, cost=_C("{2}{W}"), test_only=True,
            text="When Soul Echo enters, choose an opponent.\nAt the beginning of your upkeep, "
                 "you gain life equal to the chosen player's life total.",
            abilities=(Triggered(SelfEnters(), (ChooseOpponent(),)),
                       Triggered(AtUpkeep(), (GainLife(LifeTotalOf(CHOSEN_PLAYER), YOU),)))),
    CardDef(name="Grave Sentinel", types=ENCHANTMENT, cost=_C("{1}{W}"), test_only=True,
            text="Whenever a creature card leaves your graveyard, you gain 2 life.",
            abilities=(Triggered(CardLeavesYourZone("graveyard", CREATURE_CARD),
                                 (GainLife(2, YOU),)),)),
    # Free restarts and subgames (CR 724, 726) that a test harness can force at any moment
    # where an instant can be cast, and cheap shapes for what a subgame must clean up.
    CardDef(name="Second Beginning", types=INSTANT, cost=_C("{0}"), test_only=True,
            text="Restart the game.", spell=(RestartGame(),)),
    CardDef(name="Tale Within a Tale", types=INSTANT, cost=_C("{0}"), test_only=True,
            text="Players play a Magic subgame, using their libraries as their decks. Each "
                 "player who doesn't win the subgame loses half their life, rounded up.",
            spell=(PlaySubgame(),)),
    CardDef(name="Flickering Drone", types=frozenset({"Artifact", "Creature"}), cost=_C("{0}"),
            subtypes=("Drone",), power=1, toughness=1, keywords=frozenset({PHASING}),
            text="Phasing", test_only=True),
    CardDef(name="Myr Spawning", types=INSTANT, cost=_C("{0}"), test_only=True,
            text="Create a 1/1 colorless Myr artifact creature token.",
            spell=(CreateToken("Myr", YOU),)),
]


def _grant(name: str, cost: str, keyword: Keyword, text: str) -> CardDef:
    """A test-only instant: "Target creature gains KEYWORD until end of turn." """
    return CardDef(name=name, types=INSTANT, cost=_C(cost), test_only=True, text=text,
                   targets=(TARGET_CREATURE,),
                   spell=(GrantKeyword(Target(0), keyword, UNTIL_END_OF_TURN),))


# Test-only cards for the keywords M10 lacks (double strike, hexproof, intimidate, flash,
# indestructible, protection from a card type and from everything), and instants and an
# enchantment that grant keywords, so that grants of each kind are tested.
KEYWORD_TEST_CARDS = [
    _creature("Fencing Ace", "{1}{W}", "Human Soldier", 1, 1, (DOUBLE_STRIKE,),
              "Double strike", test_only=True),
    _creature("Gladecover Scout", "{G}", "Elf Scout", 1, 1, (HEXPROOF,), "Hexproof",
              test_only=True),
    _creature("Bladetusk Boar", "{3}{R}", "Boar", 3, 2, (INTIMIDATE,), "Intimidate",
              test_only=True),
    _creature("Ambush Viper", "{1}{G}", "Snake", 2, 1, (FLASH, DEATHTOUCH),
              "Flash\nDeathtouch", test_only=True),
    CardDef(name="Darksteel Myr", types=ARTIFACT_CREATURE, cost=_C("{3}"),
            subtypes=("Myr",), power=0, toughness=1, keywords=frozenset({INDESTRUCTIBLE}),
            text="Indestructible", test_only=True),
    _creature("Beloved Chaplain", "{1}{W}", "Human Cleric", 1, 1,
              (Protection(CARD_TYPE, "Creature"),), "Protection from creatures",
              test_only=True),
    _creature("Wisp of Everything", "{1}{W}", "Spirit", 1, 1, (Protection(EVERYTHING),),
              "Protection from everything", test_only=True),
    _grant("Venom Draught", "{B}", DEATHTOUCH,
           "Target creature gains deathtouch until end of turn."),
    _grant("Twin Blades", "{R}", DOUBLE_STRIKE,
           "Target creature gains double strike until end of turn."),
    _grant("Blood Bond", "{B}", LIFELINK, "Target creature gains lifelink until end of turn."),
    _grant("Cloak of Mist", "{U}", SHROUD, "Target creature gains shroud until end of turn."),
    _grant("Sapphire Ward", "{W}", Protection(COLOR, "U"),
           "Target creature gains protection from blue until end of turn."),
    CardDef(name="Shadow Ward", types=ENCHANTMENT, cost=_C("{1}{W}"), test_only=True,
            text="Creatures you control have protection from black.",
            abilities=(CreaturesHave(Protection(COLOR, "B"), "you"),)),
]


def _instant(name: str, cost: str, text: str, *effects: Effect) -> CardDef:
    """A test-only instant with one target creature."""
    return CardDef(name=name, types=INSTANT, cost=_C(cost), test_only=True, text=text,
                   targets=(TARGET_CREATURE,), spell=effects)


# Test-only cards for the layers M10 has no card for (613.4b set, 613.4d switch, losing all
# abilities, a colour change), counters put by a spell, and static abilities whose reach
# depends on other effects of their layer (613.8).
LAYER_TEST_CARDS = [
    _creature("Warded Sentinel", "{2}{W}", "Human Soldier", 2, 2, (Ward("{2}"),),
              "Ward {2} (Whenever this creature becomes the target of a spell or ability an "
              "opponent controls, counter it unless that player pays {2}.)", test_only=True),
    _creature("Rootbound Troll", "{3}{G}{G}", "Troll", 4, 4, (),
              "If Rootbound Troll would be destroyed, regenerate it.", test_only=True,
              abilities=(RegenerateInstead(),)),
    _instant("Hue Twist", "{U}",
             "Change the text of target creature by replacing all instances of \"black\" with "
             "\"red\" until end of turn.", ChangeText(Target(0), "black", "red")),
    CardDef(name="Quickening Earth", types=INSTANT, cost=_C("{G}"), test_only=True,
            text="Target land becomes a 3/3 creature until end of turn. It's still a land.",
            targets=(TargetSpec("permanent", where("target land", types=("Land",))),),
            spell=(BecomeCreature(Target(0), 3, 3),)),
    _instant("Shrinking Hex", "{U}",
             "Target creature has base power and toughness 1/1 until end of turn.",
             SetPowerToughness(Target(0), 1, 1)),
    _instant("Inversion Trick", "{U}",
             "Switch target creature's power and toughness until end of turn.",
             SwitchPowerToughness(Target(0))),
    _instant("Null Touch", "{U}", "Target creature loses all abilities until end of turn.",
             LoseAllAbilities(Target(0))),
    _instant("Kinship Mask", "{R}",
             "Target creature becomes a Goblin in addition to its other types until end of "
             "turn.", AlsoBecomes(Target(0), subtypes=("Goblin",),
                                     duration=UNTIL_END_OF_TURN)),
    _instant("Azure Wash", "{U}", "Target creature becomes blue until end of turn.",
             BecomeColor(Target(0), "U")),
    _instant("Growth Rune", "{G}", "Put a +1/+1 counter on target creature.",
             PutCounters(Target(0), "+1/+1", 1)),
    _instant("Wither Rune", "{B}", "Put a -1/-1 counter on target creature.",
             PutCounters(Target(0), "-1/-1", 1)),
    CardDef(name="Sky Duelists' Banner", types=ENCHANTMENT, cost=_C("{1}{W}"), test_only=True,
            text="Creatures you control with flying have first strike.",
            abilities=(CreaturesHave(FIRST_STRIKE, "you", having=FLYING),)),
    _creature("Skyward Captain", "{2}{U}", "Human Soldier", 1, 1, (),
              "Other creatures you control have flying.", test_only=True,
              abilities=(CreaturesHave(FLYING, "you", other=True),)),
]

POOL: dict[str, CardDef] = {
    c.name: c for c in (*BASICS, *CREATURES, *SPELLS, *WINNING, *LOSING, *DRAWN, *PREVENTING,
                        *REACTING, *RESTARTING, *m10.CARDS, *PLANES, *PHENOMENA, *SCHEMES,
                        *VANGUARDS)
}
TOKEN_DEFS: dict[str, CardDef] = {c.name: c for c in (*TOKENS, *SUPPLEMENTARY_TOKENS,
                                                      *m10.TOKENS)}
TEST_POOL: dict[str, CardDef] = {c.name: c for c in (*TEST_CARDS, *KEYWORD_TEST_CARDS,
                                                      *LAYER_TEST_CARDS)}

SECTIONS: dict[str, list[CardDef]] = {
    "Basics": BASICS, "Creatures and combat": CREATURES, "Spells": SPELLS,
    "Winning the game": WINNING, "Losing the game": LOSING, "Drawn games": DRAWN,
    "Preventing the end": PREVENTING, "Reacting to the end": REACTING,
    "Restarting the game, subgames, and cards from outside the game": RESTARTING,
    "Magic 2010 (M10)": m10.CARDS,
    "Planes (Planechase)": PLANES, "Phenomena (Planechase)": PHENOMENA,
    "Schemes (Archenemy)": SCHEMES, "Vanguards (Vanguard)": VANGUARDS,
}


def lookup(name: str, *, allow_test: bool = False) -> CardDef | None:
    """The definition named ``name`` (exact, case-sensitive), or None."""
    card = POOL.get(name)
    if card is None and allow_test:
        card = TEST_POOL.get(name)
    return card
