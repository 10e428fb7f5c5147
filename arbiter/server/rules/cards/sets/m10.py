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
    equip,
    mana_cost,
)
from ..vocab import (
    ANY_TARGET,
    COLOR,
    DEATHTOUCH,
    DEFENDER,
    EACH_CREATURE_WITH_FLYING,
    EACH_CREATURE_WITHOUT_FLYING,
    EACH_PLAYER,
    EACH_PLAYER_BUT_EVENT_PLAYER,
    EACH_TARGET,
    ENCHANTED,
    ENCHANTED_CONTROLLER,
    EVENT_OBJECT,
    FIRST_STRIKE,
    FLYING,
    HASTE,
    INDESTRUCTIBLE,
    LIFELINK,
    REACH,
    SELF,
    SHROUD,
    SUBTYPE,
    TARGET_CREATURE,
    TARGET_INSTANT_OR_SORCERY_SPELL,
    TARGET_PERMANENT,
    TARGET_PLAYER,
    TRAMPLE,
    UNTIL_END_OF_TURN,
    VIGILANCE,
    X_DIVIDED_EVENLY,
    YOU,
    Ability,
    Activated,
    AtUpkeep,
    BecomesTarget,
    CardDef,
    ChooseBasicLandType,
    CopySpell,
    Cost,
    CostsMorePerExtraTarget,
    CreaturesGet,
    CreaturesHave,
    CreaturesYouControlGet,
    Damage,
    Destroy,
    Discard,
    Draw,
    EnchantedCant,
    EnchantedGets,
    EnchantedIsChosenType,
    EntersAsCopy,
    EquippedGets,
    ExtraTurn,
    GainLife,
    GrantKeyword,
    Landwalk,
    LoseLife,
    ManaAbility,
    PlayerCastsSpell,
    PowerToughnessEqualTo,
    PreventNoncombatDamageToEnchanted,
    Protection,
    Pump,
    ReturnAllFromGraveyards,
    Sacrifice,
    SharedTypeBonus,
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
_EQUIP = "Equip {2} ({2}: Attach to target creature you control. Equip only as a sorcery.)"


def _protection(color: str) -> str:
    return (f"Protection from {color} (This creature can't be blocked, targeted, dealt damage, "
            f"or enchanted by anything {color}.)")


def _walk(land: str) -> str:
    return (f"{land}walk (This creature can't be blocked as long as defending player controls "
            f"a {land}.)")




_INSTANT_OR_SORCERY = frozenset({"Instant", "Sorcery"})
_TAPPED_CREATURE = TargetSpec("creature", where("target tapped creature", tapped=True))
_LAND = TargetSpec("permanent", where("target land", types=("Land",)))


def _enchant(name: str, mana: str, what: str, spec: TargetSpec, rest: str,
             *abilities: Ability) -> CardDef:
    """An Aura: "Enchant ``what``" (CR 702.5a, cast targeting ``spec``), then ``rest``."""
    return CardDef(name=name, types=ENCHANTMENT, subtypes=("Aura",), cost=mana_cost(mana),
                   text=f"Enchant {what}\n{rest}", enchant=spec, abilities=abilities)


def _aura(name: str, mana: str, effect: str, *abilities: Ability) -> CardDef:
    """An Aura with "Enchant creature" and "Enchanted creature ``effect``"."""
    return _enchant(name, mana, "creature", TARGET_CREATURE, f"Enchanted creature {effect}",
                    *abilities)


def _equipment(name: str, mana: str, text: str, *abilities: Ability) -> CardDef:
    """An Equipment with "Equip {2}" (CR 301.5, 702.6a)."""
    return CardDef(name=name, types=ARTIFACT, subtypes=("Equipment",), cost=mana_cost(mana),
                   text=text, abilities=(*abilities, equip("{2}")))


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
    _enchant("Indestructibility", "{3}{W}", "permanent", TARGET_PERMANENT,
             "Enchanted permanent has indestructible. (Effects that say \"destroy\" don't "
             "destroy that permanent. A creature with indestructible can't be destroyed by "
             "damage.)", EnchantedGets(0, 0, (INDESTRUCTIBLE,))),
    _aura("Lifelink", "{W}", "has lifelink. (Damage dealt by the creature also causes its "
          "controller to gain that much life.)", EnchantedGets(0, 0, (LIFELINK,))),
    CardDef(name="Open the Vaults", types=SORCERY, cost=mana_cost("{4}{W}{W}"),
            text="Return all artifact and enchantment cards from all graveyards to the "
                 "battlefield under their owners' control. (Auras with nothing to enchant "
                 "remain in graveyards.)",
            spell=(ReturnAllFromGraveyards(frozenset({"Artifact", "Enchantment"})),)),
    _aura("Pacifism", "{1}{W}", "can't attack or block.", EnchantedCant(attack=True, block=True)),
    creature("Razorfoot Griffin", "{3}{W}", "Griffin", 2, 2, (FLYING, FIRST_STRIKE),
              f"{_FLYING}\n{_FIRST_STRIKE}"),
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
    CardDef(name="Hive Mind", types=ENCHANTMENT, cost=mana_cost("{5}{U}"),
            text="Whenever a player casts an instant or sorcery spell, each other player copies "
                 "that spell. Each of those players may choose new targets for their copy.",
            abilities=(Triggered(PlayerCastsSpell(_INSTANT_OR_SORCERY),
                                 (CopySpell(EVENT_OBJECT, EACH_PLAYER_BUT_EVENT_PLAYER),),
                                 text="Each other player copies that spell."),)),
    CardDef(name="Mind Spring", types=SORCERY, cost=mana_cost("{X}{U}{U}"),
            text="Draw X cards.", spell=(Draw(X, YOU),)),
    creature("Clone", "{3}{U}", "Shapeshifter", 0, 0, (),
             "You may have Clone enter as a copy of any creature on the battlefield.",
             abilities=(EntersAsCopy(),)),
    _enchant("Convincing Mirage", "{1}{U}", "land", _LAND,
             "As Convincing Mirage enters, choose a basic land type.\n"
             "Enchanted land is the chosen type.",
             ChooseBasicLandType(), EnchantedIsChosenType()),
    _pump_spell("Disorient", "{3}{U}", -7, 0),
    _aura("Ice Cage", "{1}{U}",
          "can't attack or block, and its activated abilities can't be activated.\n"
          "When enchanted creature becomes the target of a spell or ability, destroy Ice Cage.",
          EnchantedCant(attack=True, block=True, activate=True),
          Triggered(BecomesTarget("enchanted"), (Destroy(SELF),), text="Destroy Ice Cage.")),
    creature("Illusionary Servant", "{1}{U}{U}", "Illusion", 3, 4, (FLYING,),
             "Flying\nWhen Illusionary Servant becomes the target of a spell or ability, "
             "sacrifice it.",
             abilities=(Triggered(BecomesTarget(), (Sacrifice(SELF),),
                                  text="Sacrifice Illusionary Servant."),)),
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
    _enchant("Soul Bleed", "{2}{B}", "creature", TARGET_CREATURE,
             "At the beginning of the upkeep of enchanted creature's controller, that player "
             "loses 1 life.",
             Triggered(AtUpkeep("enchanted"), (LoseLife(1, ENCHANTED_CONTROLLER),),
                       text="That player loses 1 life.")),
    _aura("Unholy Strength", "{B}", "gets +2/+1.", EnchantedGets(2, 1)),
    _aura("Weakness", "{B}", "gets -2/-1.", EnchantedGets(-2, -1)),
    creature("Fiery Hellhound", "{1}{R}{R}", "Elemental Dog", 2, 2, (),
             "{R}: Fiery Hellhound gets +1/+0 until end of turn.",
             abilities=(_pump("Fiery Hellhound", "{R}", 1, 0),)),
    _enchant("Firebreathing", "{R}", "creature", TARGET_CREATURE,
             "{R}: Enchanted creature gets +1/+0 until end of turn.",
             Activated(Cost(mana=mana_cost("{R}")), (Pump(ENCHANTED, 1, 0),),
                       text="Enchanted creature gets +1/+0 until end of turn.")),
    creature("Goblin Chieftain", "{1}{R}{R}", "Goblin", 2, 2, (HASTE,),
             f"{_HASTE}\nOther Goblin creatures you control get +1/+1 and have haste.",
             abilities=(CreaturesGet(1, 1, "you", other=True, subtype="Goblin"),
                        CreaturesHave(HASTE, "you", other=True, subtype="Goblin"))),
    CardDef(name="Kindled Fury", types=INSTANT, cost=mana_cost("{R}"),
            text="Target creature gets +1/+0 and gains first strike until end of turn.",
            targets=(TARGET_CREATURE,),
            spell=(Pump(Target(0), 1, 0),
                   GrantKeyword(Target(0), FIRST_STRIKE, UNTIL_END_OF_TURN))),
    creature("Lightning Elemental", "{3}{R}", "Elemental", 4, 1, (HASTE,), _HASTE),
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
    _enchant("Entangling Vines", "{3}{G}", "tapped creature", _TAPPED_CREATURE,
             "Enchanted creature doesn't untap during its controller's untap step.",
             EnchantedCant(untap=True)),
    _pump_spell("Giant Growth", "{G}", 3, 3),
    creature("Giant Spider", "{3}{G}", "Spider", 2, 4, (REACH,), _REACH),
    creature("Kalonian Behemoth", "{5}{G}{G}", "Beast", 9, 9, (SHROUD,), _SHROUD),
    _pump_spell("Might of Oaks", "{3}{G}", 7, 7),
    creature("Mist Leopard", "{3}{G}", "Cat", 3, 2, (SHROUD,), _SHROUD),
    _aura("Oakenform", "{2}{G}", "gets +3/+3.", EnchantedGets(3, 3)),
    CardDef(name="Overrun", types=SORCERY, cost=mana_cost("{2}{G}{G}{G}"),
            text="Creatures you control get +3/+3 and gain trample until end of turn.",
            spell=(CreaturesYouControlGet(3, 3, TRAMPLE),)),
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
    _equipment("Gorgon Flail", "{2}",
               "Equipped creature gets +1/+1 and has deathtouch. (Any amount of damage it "
               f"deals to a creature is enough to destroy that creature.)\n{_EQUIP}",
               EquippedGets(1, 1, (DEATHTOUCH,))),
    _equipment("Magebane Armor", "{3}",
               "Equipped creature gets +2/+4 and loses flying.\nPrevent all noncombat damage "
               f"that would be dealt to equipped creature.\n{_EQUIP}",
               EquippedGets(2, 4, loses=(FLYING,)), PreventNoncombatDamageToEnchanted()),
    creature("Ornithopter", "{0}", "Thopter", 0, 2, (FLYING,), "Flying",
              types=ARTIFACT_CREATURE),
    _equipment("Whispersilk Cloak", "{3}",
               "Equipped creature can't be blocked and has shroud. (It can't be the target of "
               "spells or abilities.)\nEquip {2}",
               EquippedGets(0, 0, (SHROUD,)), EnchantedCant(be_blocked=True)),
]
