"""Magic 2010 (M10), as data.

How a set file is organised: one module per set under ``cards/sets/``, named after the set's
code, holding ``CARDS``, the set's card definitions in collector-number order. Each is a
:class:`~arbiter.server.rules.cards.vocab.CardDef` written only in the vocabulary: its name,
cost, types, power and toughness, its Oracle text exactly as printed in the set's list (card
data, shown to players) and its abilities (``cards/build.py`` has shorthands for writing
them). ``cards/pool.py`` adds ``CARDS`` to the pool and
gives the set a section of its own, so decks, formats and the catalog see its cards like any
other; the next set is a new file here and one line there.

A card goes in only when the engine can do all of its text. The M10 cards the pool had before
sets had files of their own (Runeclaw Bear, Serra Angel, Llanowar Elves, Platinum Angel,
Lightning Bolt, Lava Axe, Act of Treason, Angel's Mercy, Divination, Traumatize, Mind Control)
are still defined in ``cards/pool.py``.
"""

from __future__ import annotations

from ...mana import ANY_COLOR
from ..build import (
    ARTIFACT,
    ARTIFACT_CREATURE,
    CREATURE,
    ENCHANTMENT,
    INSTANT,
    SORCERY,
    creature,
    mana_cost,
)
from ..vocab import (
    ANY_TARGET,
    ATTACKS_YOU,
    CANT_BE_BLOCKED,
    CANT_BLOCK,
    COLOR,
    DEATHTOUCH,
    DEFENDER,
    EACH_CREATURE_WITH_FLYING,
    EACH_CREATURE_WITHOUT_FLYING,
    EACH_PLAYER,
    EACH_PLAYER_BUT_EVENT_PLAYER,
    EACH_TARGET,
    EVENT_OBJECT,
    FIRST_STRIKE,
    FLYING,
    HASTE,
    LIFELINK,
    REACH,
    SELF,
    SHROUD,
    SUBTYPE,
    TARGET_CREATURE,
    TARGET_INSTANT_OR_SORCERY_SPELL,
    TARGET_OPPONENT_CREATURE,
    TARGET_PLAYER,
    TRAMPLE,
    UNTIL_END_OF_TURN,
    VIGILANCE,
    X_DIVIDED_EVENLY,
    YOU,
    Activated,
    AnyNumberInDeck,
    AttacksEachCombat,
    BlocksAnyNumber,
    CantAttackOrBlockAlone,
    CantAttackUnlessDefenderControls,
    CantBeBlocked,
    CardDef,
    ChooseCardName,
    CopySpell,
    Cost,
    CostsMorePerExtraTarget,
    CreaturesGet,
    CreaturesHave,
    CreaturesYouControlGet,
    Damage,
    Discard,
    Draw,
    EnchantedGets,
    EntersAsCopy,
    ExtraTurn,
    GainLife,
    GetsPerOtherNamed,
    GrantKeyword,
    InCombatThisTurn,
    Landwalk,
    ManaAbility,
    MustBeBlockedByAll,
    NamedCantBeActivated,
    OpponentsCantCastThisTurn,
    PlayerCastsSpell,
    PowerToughnessEqualTo,
    Protection,
    Pump,
    SharedTypeBonus,
    TapCreaturesOf,
    Target,
    TargetSpec,
    Triggered,
    X,
    where,
)

# The reminder texts M10 prints after its keywords.
_FLYING = ("Flying (This creature can't be blocked except by creatures with flying or "
           "reach.)")
_FIRST_STRIKE = ("First strike (This creature deals combat damage before creatures without "
                 "first strike.)")
_REACH = "Reach (This creature can block creatures with flying.)"
_DEATHTOUCH = ("Deathtouch (Any amount of damage this deals to a creature is enough to destroy "
               "it.)")
_SHROUD = "Shroud (This creature can't be the target of spells or abilities.)"
_HASTE = "Haste (This creature can attack and {T} as soon as it comes under your control.)"
_DEFENDER = "Defender (This creature can't attack.)"


def _protection(color: str) -> str:
    return (f"Protection from {color} (This creature can't be blocked, targeted, dealt damage, "
            f"or enchanted by anything {color}.)")


def _walk(land: str) -> str:
    return (f"{land}walk (This creature can't be blocked as long as defending player controls "
            f"a {land}.)")




_INSTANT_OR_SORCERY = frozenset({"Instant", "Sorcery"})
def _aura(name: str, mana: str, effect: str, gets: EnchantedGets) -> CardDef:
    """An Aura with "Enchant creature" and one "Enchanted creature gets ..." ability."""
    return CardDef(name=name, types=ENCHANTMENT, subtypes=("Aura",), cost=mana_cost(mana),
                   text=f"Enchant creature\nEnchanted creature {effect}",
                   enchant=TARGET_CREATURE, abilities=(gets,))


def _pump_spell(name: str, mana: str, power: int, toughness: int) -> CardDef:
    """"Target creature gets +power/+toughness until end of turn." A zero takes the other
    number's sign, as printed ("-7/-0")."""
    tough = "-0" if toughness == 0 and power < 0 else f"{toughness:+d}"
    return CardDef(name=name, types=INSTANT, cost=mana_cost(mana),
                   text=f"Target creature gets {power:+d}/{tough} until end of turn.",
                   targets=(TARGET_CREATURE,), spell=(Pump(Target(0), power, toughness),))


def _pump(name: str, mana: str, power: int, toughness: int) -> Activated:
    """"{mana}: NAME gets +power/+toughness until end of turn." """
    return Activated(Cost(mana=mana_cost(mana)), (Pump(SELF, power, toughness),),
                     text=f"{name} gets +{power}/+{toughness} until end of turn.")


CARDS = [
    _aura("Armored Ascension", "{3}{W}",
          "gets +1/+1 for each Plains you control and has flying.",
          EnchantedGets(1, 1, (FLYING,), per_land="Plains")),
    creature("Baneslayer Angel", "{3}{W}{W}", "Angel", 5, 5,
              (FLYING, FIRST_STRIKE, LIFELINK, Protection(SUBTYPE, "Demon"),
               Protection(SUBTYPE, "Dragon")),
              "Flying, first strike, lifelink, protection from Demons and from Dragons"),
    CardDef(name="Glorious Charge", types=INSTANT, cost=mana_cost("{1}{W}"),
            text="Creatures you control get +1/+1 until end of turn.",
            spell=(CreaturesYouControlGet(1, 1),)),
    creature("Griffin Sentinel", "{2}{W}", "Griffin", 1, 3, (FLYING, VIGILANCE),
              "Flying\nVigilance (Attacking doesn't cause this creature to tap.)"),
    _aura("Holy Strength", "{W}", "gets +1/+2.", EnchantedGets(1, 2)),
    CardDef(name="Honor of the Pure", types=ENCHANTMENT, cost=mana_cost("{1}{W}"),
            text="White creatures you control get +1/+1.",
            abilities=(CreaturesGet(1, 1, "you", color="W"),)),
    creature("Palace Guard", "{2}{W}", "Human Soldier", 1, 4, (),
             "Palace Guard can block any number of creatures.",
             abilities=(BlocksAnyNumber(),)),
    creature("Razorfoot Griffin", "{3}{W}", "Griffin", 2, 2, (FLYING, FIRST_STRIKE),
              f"{_FLYING}\n{_FIRST_STRIKE}"),
    creature("Rhox Pikemaster", "{2}{W}{W}", "Rhino Soldier", 3, 3, (FIRST_STRIKE,),
             f"{_FIRST_STRIKE}\nOther Soldier creatures you control have first strike.",
             abilities=(CreaturesHave(FIRST_STRIKE, "you", other=True, subtype="Soldier"),)),
    CardDef(name="Silence", types=INSTANT, cost=mana_cost("{W}"),
            text="Your opponents can't cast spells this turn.",
            spell=(OpponentsCantCastThisTurn(),)),
    creature("Veteran Armorsmith", "{W}{W}", "Human Soldier", 2, 3, (),
             "Other Soldier creatures you control get +0/+1.",
             abilities=(CreaturesGet(0, 1, "you", other=True, subtype="Soldier"),)),
    creature("Veteran Swordsmith", "{2}{W}", "Human Soldier", 3, 2, (),
             "Other Soldier creatures you control get +1/+0.",
             abilities=(CreaturesGet(1, 0, "you", other=True, subtype="Soldier"),)),
    creature("Wall of Faith", "{3}{W}", "Wall", 0, 5, (DEFENDER,),
              f"{_DEFENDER}\n{{W}}: Wall of Faith gets +0/+1 until end of turn.",
              abilities=(_pump("Wall of Faith", "{W}", 0, 1),)),
    creature("White Knight", "{W}{W}", "Human Knight", 2, 2,
              (FIRST_STRIKE, Protection(COLOR, "B")),
              f"{_FIRST_STRIKE}\n{_protection('black')}"),
    creature("Air Elemental", "{3}{U}{U}", "Elemental", 4, 4, (FLYING,), "Flying"),
    creature("Alluring Siren", "{1}{U}", "Siren", 1, 1, (),
             "{T}: Target creature an opponent controls attacks you this turn if able.",
             abilities=(Activated(Cost(tap=True), (InCombatThisTurn(Target(0), ATTACKS_YOU),),
                                  targets=(TARGET_OPPONENT_CREATURE,),
                                  text="Target creature an opponent controls attacks you this "
                                       "turn if able."),)),
    CardDef(name="Hive Mind", types=ENCHANTMENT, cost=mana_cost("{5}{U}"),
            text="Whenever a player casts an instant or sorcery spell, each other player copies "
                 "that spell. Each of those players may choose new targets for their copy.",
            abilities=(Triggered(PlayerCastsSpell(_INSTANT_OR_SORCERY),
                                 (CopySpell(EVENT_OBJECT, EACH_PLAYER_BUT_EVENT_PLAYER),),
                                 text="Each other player copies that spell."),)),
    CardDef(name="Levitation", types=ENCHANTMENT, cost=mana_cost("{2}{U}{U}"),
            text="Creatures you control have flying.", abilities=(CreaturesHave(FLYING, "you"),)),
    creature("Merfolk Sovereign", "{1}{U}{U}", "Merfolk Noble", 2, 2, (),
             "Other Merfolk creatures you control get +1/+1.\n{T}: Target Merfolk creature "
             "can't be blocked this turn.",
             abilities=(CreaturesGet(1, 1, "you", other=True, subtype="Merfolk"),
                        Activated(Cost(tap=True), (InCombatThisTurn(Target(0), CANT_BE_BLOCKED),),
                                  targets=(TargetSpec("creature", where(
                                      "target Merfolk creature", subtypes=("Merfolk",))),),
                                  text="Target Merfolk creature can't be blocked this "
                                       "turn."))),
    CardDef(name="Mind Spring", types=SORCERY, cost=mana_cost("{X}{U}{U}"),
            text="Draw X cards.", spell=(Draw(X, YOU),)),
    creature("Clone", "{3}{U}", "Shapeshifter", 0, 0, (),
             "You may have Clone enter as a copy of any creature on the battlefield.",
             abilities=(EntersAsCopy(),)),
    _pump_spell("Disorient", "{3}{U}", -7, 0),
    creature("Phantom Warrior", "{1}{U}{U}", "Illusion Warrior", 2, 2, (),
             "Phantom Warrior can't be blocked.", abilities=(CantBeBlocked(),)),
    CardDef(name="Serpent of the Endless Sea", types=CREATURE, cost=mana_cost("{4}{U}"),
            subtypes=("Serpent",),
            text="Serpent of the Endless Sea's power and toughness are each equal to the number "
                 "of Islands you control.\nSerpent of the Endless Sea can't attack unless "
                 "defending player controls an Island.",
            abilities=(PowerToughnessEqualTo("Island"),
                       CantAttackUnlessDefenderControls("Island"))),
    CardDef(name="Sleep", types=SORCERY, cost=mana_cost("{2}{U}{U}"),
            text="Tap all creatures target player controls. Those creatures don't untap during "
                 "that player's next untap step.",
            targets=(TARGET_PLAYER,), spell=(TapCreaturesOf(Target(0), skip_next_untap=True),)),
    creature("Snapping Drake", "{3}{U}", "Drake", 3, 2, (FLYING,), _FLYING),
    CardDef(name="Time Warp", types=SORCERY, cost=mana_cost("{3}{U}{U}"),
            text="Target player takes an extra turn after this one.",
            targets=(TARGET_PLAYER,), spell=(ExtraTurn(Target(0)),)),
    CardDef(name="Twincast", types=INSTANT, cost=mana_cost("{U}{U}"),
            text="Copy target instant or sorcery spell. You may choose new targets for the "
                 "copy.",
            targets=(TARGET_INSTANT_OR_SORCERY_SPELL,), spell=(CopySpell(Target(0)),)),
    creature("Black Knight", "{B}{B}", "Human Knight", 2, 2,
              (FIRST_STRIKE, Protection(COLOR, "W")),
              f"{_FIRST_STRIKE}\n{_protection('white')}"),
    creature("Bog Wraith", "{3}{B}", "Wraith", 3, 3, (Landwalk("Swamp"),), _walk("Swamp")),
    creature("Child of Night", "{1}{B}", "Vampire", 2, 1, (LIFELINK,), "Lifelink"),
    CardDef(name="Consume Spirit", types=SORCERY, cost=mana_cost("{X}{1}{B}"), x_color="B",
            text="Spend only black mana on X.\nConsume Spirit deals X damage to any target "
                 "and you gain X life.",
            targets=(ANY_TARGET,), spell=(Damage(X, Target(0)), GainLife(X, YOU))),
    creature("Dread Warlock", "{1}{B}{B}", "Human Wizard Warlock", 2, 2, (),
             "Dread Warlock can't be blocked except by black creatures.",
             abilities=(CantBeBlocked(except_colors="B"),)),
    CardDef(name="Mind Shatter", types=SORCERY, cost=mana_cost("{X}{B}{B}"),
            text="Target player discards X cards at random.",
            targets=(TARGET_PLAYER,), spell=(Discard(X, Target(0), at_random=True),)),
    CardDef(name="Earthquake", types=SORCERY, cost=mana_cost("{X}{R}"),
            text="Earthquake deals X damage to each creature without flying and each player.",
            spell=(Damage(X, EACH_CREATURE_WITHOUT_FLYING), Damage(X, EACH_PLAYER))),
    CardDef(name="Fireball", types=SORCERY, cost=mana_cost("{X}{R}"),
            text="This spell costs {1} more to cast for each target beyond the first.\n"
                 "Fireball deals X damage divided evenly, rounded down, among any number of "
                 "targets.",
            targets=(ANY_TARGET,), any_number_of_targets=True,
            abilities=(CostsMorePerExtraTarget(1),),
            spell=(Damage(X_DIVIDED_EVENLY, EACH_TARGET),)),
    creature("Looming Shade", "{2}{B}", "Shade", 1, 1, (),
             "{B}: Looming Shade gets +1/+1 until end of turn.",
             abilities=(_pump("Looming Shade", "{B}", 1, 1),)),
    # "*" power and toughness: the printed values are undefined (None); the ability defines
    # them on the battlefield (layer 7a).
    CardDef(name="Nightmare", types=CREATURE, cost=mana_cost("{5}{B}"),
            subtypes=("Nightmare", "Horse"), keywords=frozenset({FLYING}),
            text=f"{_FLYING}\nNightmare's power and toughness are each equal to the number of "
                 "Swamps you control.",
            abilities=(PowerToughnessEqualTo("Swamp"),)),
    creature("Relentless Rats", "{1}{B}{B}", "Rat", 2, 2, (),
             "Relentless Rats gets +1/+1 for each other creature on the battlefield named "
             "Relentless Rats.\nA deck can have any number of cards named Relentless Rats.",
             abilities=(GetsPerOtherNamed(1, 1), AnyNumberInDeck())),
    _aura("Unholy Strength", "{B}", "gets +2/+1.", EnchantedGets(2, 1)),
    _aura("Weakness", "{B}", "gets -2/-1.", EnchantedGets(-2, -1)),
    creature("Berserkers of Blood Ridge", "{4}{R}", "Human Berserker", 4, 4, (),
             "Berserkers of Blood Ridge attacks each combat if able.",
             abilities=(AttacksEachCombat(),)),
    creature("Fiery Hellhound", "{1}{R}{R}", "Elemental Dog", 2, 2, (),
             "{R}: Fiery Hellhound gets +1/+0 until end of turn.",
             abilities=(_pump("Fiery Hellhound", "{R}", 1, 0),)),
    creature("Goblin Chieftain", "{1}{R}{R}", "Goblin", 2, 2, (HASTE,),
             f"{_HASTE}\nOther Goblin creatures you control get +1/+1 and have haste.",
             abilities=(CreaturesGet(1, 1, "you", other=True, subtype="Goblin"),
                        CreaturesHave(HASTE, "you", other=True, subtype="Goblin"))),
    creature("Jackal Familiar", "{R}", "Jackal", 2, 2, (),
             "Jackal Familiar can't attack or block alone.",
             abilities=(CantAttackOrBlockAlone(),)),
    CardDef(name="Kindled Fury", types=INSTANT, cost=mana_cost("{R}"),
            text="Target creature gets +1/+0 and gains first strike until end of turn.",
            targets=(TARGET_CREATURE,),
            spell=(Pump(Target(0), 1, 0),
                   GrantKeyword(Target(0), FIRST_STRIKE, UNTIL_END_OF_TURN))),
    creature("Lightning Elemental", "{3}{R}", "Elemental", 4, 1, (HASTE,), _HASTE),
    CardDef(name="Panic Attack", types=SORCERY, cost=mana_cost("{2}{R}"),
            text="Up to three target creatures can't block this turn.",
            targets=(TARGET_CREATURE,), max_targets=3,
            spell=(InCombatThisTurn(EACH_TARGET, CANT_BLOCK),)),
    creature("Prodigal Pyromancer", "{2}{R}", "Human Wizard", 1, 1, (),
              "{T}: Prodigal Pyromancer deals 1 damage to any target.",
              abilities=(Activated(Cost(tap=True), (Damage(1, Target(0)),),
                                   targets=(ANY_TARGET,),
                                   text="Prodigal Pyromancer deals 1 damage to any target."),)),
    creature("Raging Goblin", "{R}", "Goblin Berserker", 1, 1, (HASTE,), _HASTE),
    creature("Shivan Dragon", "{4}{R}{R}", "Dragon", 5, 5, (FLYING,),
              f"{_FLYING}\n{{R}}: Shivan Dragon gets +1/+0 until end of turn.",
              abilities=(_pump("Shivan Dragon", "{R}", 1, 0),)),
    creature("Viashino Spearhunter", "{2}{R}", "Lizard Warrior", 2, 1, (FIRST_STRIKE,),
              _FIRST_STRIKE),
    creature("Wall of Fire", "{1}{R}{R}", "Wall", 0, 5, (DEFENDER,),
              f"{_DEFENDER}\n{{R}}: Wall of Fire gets +1/+0 until end of turn.",
              abilities=(_pump("Wall of Fire", "{R}", 1, 0),)),
    creature("Birds of Paradise", "{G}", "Bird", 0, 1, (FLYING,),
              "Flying\n{T}: Add one mana of any color.", abilities=(ManaAbility(ANY_COLOR),)),
    creature("Deadly Recluse", "{1}{G}", "Spider", 1, 2, (REACH, DEATHTOUCH),
              f"{_REACH}\n{_DEATHTOUCH}"),
    creature("Emerald Oryx", "{3}{G}", "Antelope", 2, 3, (Landwalk("Forest"),),
              _walk("Forest")),
    _pump_spell("Giant Growth", "{G}", 3, 3),
    creature("Giant Spider", "{3}{G}", "Spider", 2, 4, (REACH,), _REACH),
    creature("Kalonian Behemoth", "{5}{G}{G}", "Beast", 9, 9, (SHROUD,), _SHROUD),
    _pump_spell("Might of Oaks", "{3}{G}", 7, 7),
    creature("Mist Leopard", "{3}{G}", "Cat", 3, 2, (SHROUD,), _SHROUD),
    _aura("Oakenform", "{2}{G}", "gets +3/+3.", EnchantedGets(3, 3)),
    CardDef(name="Overrun", types=SORCERY, cost=mana_cost("{2}{G}{G}{G}"),
            text="Creatures you control get +3/+3 and gain trample until end of turn.",
            spell=(CreaturesYouControlGet(3, 3, TRAMPLE),)),
    creature("Prized Unicorn", "{3}{G}", "Unicorn", 2, 2, (),
             "All creatures able to block Prized Unicorn do so.",
             abilities=(MustBeBlockedByAll(),)),
    creature("Stampeding Rhino", "{4}{G}", "Rhino", 4, 4, (TRAMPLE,),
              "Trample (This creature can deal excess combat damage to the player or "
              "planeswalker it's attacking.)"),
    CardDef(name="Windstorm", types=INSTANT, cost=mana_cost("{X}{G}"),
            text="Windstorm deals X damage to each creature with flying.",
            spell=(Damage(X, EACH_CREATURE_WITH_FLYING),)),
    CardDef(name="Coat of Arms", types=ARTIFACT, cost=mana_cost("{5}"),
            text="Each creature gets +1/+1 for each other creature on the battlefield that "
                 "shares at least one creature type with it. (For example, if two Goblin "
                 "Warriors and a Goblin Shaman are on the battlefield, each gets +2/+2.)",
            abilities=(SharedTypeBonus(),)),
    creature("Ornithopter", "{0}", "Thopter", 0, 2, (FLYING,), "Flying",
              types=ARTIFACT_CREATURE),
    CardDef(name="Pithing Needle", types=ARTIFACT, cost=mana_cost("{1}"),
            text="As Pithing Needle enters, choose a card name.\nActivated abilities of sources "
                 "with the chosen name can't be activated unless they're mana abilities.",
            abilities=(ChooseCardName(), NamedCantBeActivated())),
]
