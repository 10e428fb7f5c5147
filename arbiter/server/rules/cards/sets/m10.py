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
    BLOCK_PARTNER,
    COLOR,
    COLOR_NAMES,
    DEATHTOUCH,
    DEFENDER,
    DISCARDS,
    DRAWS,
    EACH_CREATURE_WITH_FLYING,
    EACH_CREATURE_WITHOUT_FLYING,
    EACH_OPPONENT,
    EACH_PLAYER,
    EACH_PLAYER_BUT_EVENT_PLAYER,
    EACH_TARGET,
    EVENT_AMOUNT,
    EVENT_OBJECT,
    EVENT_PLAYER,
    FIRST_STRIKE,
    FLYING,
    GAINS_LIFE,
    HASTE,
    LIFELINK,
    REACH,
    SELF,
    SHROUD,
    SUBTYPE,
    TAPS_LAND_FOR_MANA,
    TARGET_CREATURE,
    TARGET_INSTANT_OR_SORCERY_SPELL,
    TARGET_OPPONENT,
    TARGET_PLAYER,
    TRAMPLE,
    UNTIL_END_OF_TURN,
    VIGILANCE,
    WHILE_SOURCE_ON_BATTLEFIELD,
    X_DIVIDED_EVENLY,
    YOU,
    Activated,
    AtDrawStep,
    AtEndStep,
    Attacks,
    AtUpkeep,
    BecomeCreature,
    Blocks,
    CardDef,
    CopySpell,
    Cost,
    CostsMorePerExtraTarget,
    CreatureEnters,
    CreaturesGet,
    CreaturesHave,
    CreaturesYouControlGet,
    Damage,
    DealsCombatDamage,
    DealsDamage,
    DelayedTrigger,
    Destroy,
    DestroyOneAtRandom,
    Discard,
    DoesntUntap,
    Draw,
    EnchantedGets,
    EntersAsCopy,
    Exile,
    ExtraTurn,
    GainLife,
    GrantKeyword,
    Landwalk,
    LoseLife,
    ManaAbility,
    May,
    PlayerCastsSpell,
    PlayerDoes,
    PowerToughnessEqualTo,
    Protection,
    Pump,
    PutCounters,
    Remembered,
    SacrificeCreature,
    SelfEnters,
    SharedTypeBonus,
    SourceUntapped,
    Tap,
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
_NONLAND_YOURS = TargetSpec("permanent", where("target nonland permanent you control",
                                               not_types=("Land",), controller="you"))
_NONLAND_NOT_YOURS = TargetSpec("permanent", where("target nonland permanent you don't control",
                                                   not_types=("Land",), controller="not_you"),
                                optional=True)


def _life_when_cast(name: str, color: str) -> CardDef:
    """The artifact cycle "Whenever a player casts a [colour] spell, you may gain 1 life."."""
    return CardDef(name=name, types=ARTIFACT, cost=mana_cost("{2}"),
                   text=f"Whenever a player casts a {COLOR_NAMES[color]} spell, you may gain 1 "
                        "life.",
                   abilities=(Triggered(PlayerCastsSpell(colors=frozenset(color)),
                                        (May((GainLife(1, YOU),), prompt="Gain 1 life?"),),
                                        text="You may gain 1 life."),))


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
    creature("Lightwielder Paladin", "{3}{W}{W}", "Human Knight", 4, 4, (FIRST_STRIKE,),
             f"{_FIRST_STRIKE}\nWhenever Lightwielder Paladin deals combat damage to a player, "
             "you may exile target black or red permanent that player controls.",
             abilities=(Triggered(
                 DealsCombatDamage("player"),
                 (May((Exile(Target(0)),), prompt="Exile the black or red permanent?"),),
                 targets=(TargetSpec("permanent", where(
                     "target black or red permanent that player controls", colors="BR",
                     controller="event_player")),),
                 text="You may exile target black or red permanent that player controls."),)),
    creature("Mesa Enchantress", "{1}{W}{W}", "Human Druid", 0, 2, (),
             "Whenever you cast an enchantment spell, you may draw a card.",
             abilities=(Triggered(PlayerCastsSpell(frozenset({"Enchantment"}), who="you"),
                                  (May((Draw(1, YOU),), prompt="Draw a card?"),),
                                  text="You may draw a card."),)),
    creature("Razorfoot Griffin", "{3}{W}", "Griffin", 2, 2, (FLYING, FIRST_STRIKE),
              f"{_FLYING}\n{_FIRST_STRIKE}"),
    creature("Soul Warden", "{W}", "Human Cleric", 1, 1, (),
             "Whenever another creature enters, you gain 1 life.",
             abilities=(Triggered(CreatureEnters(nontoken=False, other=True),
                                  (GainLife(1, YOU),), text="You gain 1 life."),)),
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
    _pump_spell("Disorient", "{3}{U}", -7, 0),
    creature("Snapping Drake", "{3}{U}", "Drake", 3, 2, (FLYING,), _FLYING),
    CardDef(name="Time Warp", types=SORCERY, cost=mana_cost("{3}{U}{U}"),
            text="Target player takes an extra turn after this one.",
            targets=(TARGET_PLAYER,), spell=(ExtraTurn(Target(0)),)),
    CardDef(name="Twincast", types=INSTANT, cost=mana_cost("{U}{U}"),
            text="Copy target instant or sorcery spell. You may choose new targets for the "
                 "copy.",
            targets=(TARGET_INSTANT_OR_SORCERY_SPELL,), spell=(CopySpell(Target(0)),)),
    creature("Wall of Frost", "{1}{U}{U}", "Wall", 0, 7, (DEFENDER,),
             "Defender\nWhenever Wall of Frost blocks a creature, that creature doesn't untap "
             "during its controller's next untap step.",
             abilities=(Triggered(Blocks(), (DoesntUntap(BLOCK_PARTNER),),
                                  text="That creature doesn't untap during its controller's "
                                       "next untap step."),)),
    creature("Black Knight", "{B}{B}", "Human Knight", 2, 2,
              (FIRST_STRIKE, Protection(COLOR, "W")),
              f"{_FIRST_STRIKE}\n{_protection('white')}"),
    creature("Bog Wraith", "{3}{B}", "Wraith", 3, 3, (Landwalk("Swamp"),), _walk("Swamp")),
    creature("Child of Night", "{1}{B}", "Vampire", 2, 1, (LIFELINK,), "Lifelink"),
    CardDef(name="Consume Spirit", types=SORCERY, cost=mana_cost("{X}{1}{B}"), x_color="B",
            text="Spend only black mana on X.\nConsume Spirit deals X damage to any target "
                 "and you gain X life.",
            targets=(ANY_TARGET,), spell=(Damage(X, Target(0)), GainLife(X, YOU))),
    creature("Hypnotic Specter", "{1}{B}{B}", "Specter", 2, 2, (FLYING,),
             "Flying\nWhenever Hypnotic Specter deals damage to an opponent, that player "
             "discards a card at random.",
             abilities=(Triggered(DealsDamage("opponent"),
                                  (Discard(1, EVENT_PLAYER, at_random=True),),
                                  text="That player discards a card at random."),)),
    CardDef(name="Megrim", types=ENCHANTMENT, cost=mana_cost("{2}{B}"),
            text="Whenever an opponent discards a card, Megrim deals 2 damage to that player.",
            abilities=(Triggered(PlayerDoes(DISCARDS, "opponent"), (Damage(2, EVENT_PLAYER),),
                                 text="Megrim deals 2 damage to that player."),)),
    CardDef(name="Mind Shatter", types=SORCERY, cost=mana_cost("{X}{B}{B}"),
            text="Target player discards X cards at random.",
            targets=(TARGET_PLAYER,), spell=(Discard(X, Target(0), at_random=True),)),
    CardDef(name="Sanguine Bond", types=ENCHANTMENT, cost=mana_cost("{3}{B}{B}"),
            text="Whenever you gain life, target opponent loses that much life.",
            abilities=(Triggered(PlayerDoes(GAINS_LIFE, "you"),
                                 (LoseLife(EVENT_AMOUNT, Target(0)),),
                                 targets=(TARGET_OPPONENT,),
                                 text="Target opponent loses that much life."),)),
    CardDef(name="Underworld Dreams", types=ENCHANTMENT, cost=mana_cost("{B}{B}{B}"),
            text="Whenever an opponent draws a card, Underworld Dreams deals 1 damage to that "
                 "player.",
            abilities=(Triggered(PlayerDoes(DRAWS, "opponent"), (Damage(1, EVENT_PLAYER),),
                                 text="Underworld Dreams deals 1 damage to that player."),)),
    creature("Xathrid Demon", "{3}{B}{B}{B}", "Demon", 7, 7, (FLYING, TRAMPLE),
             "Flying, trample\nAt the beginning of your upkeep, sacrifice a creature other "
             "than Xathrid Demon, then each opponent loses life equal to the sacrificed "
             "creature's power. If you can't sacrifice a creature, tap Xathrid Demon and you "
             "lose 7 life.",
             abilities=(Triggered(AtUpkeep(), (SacrificeCreature(
                 other=True, remember="power",
                 then=(LoseLife(Remembered("power"), EACH_OPPONENT),),
                 otherwise=(Tap(SELF), LoseLife(7, YOU))),),
                 text="Sacrifice another creature; each opponent loses life equal to its "
                      "power."),)),
    creature("Capricious Efreet", "{4}{R}{R}", "Efreet", 6, 4, (),
             "At the beginning of your upkeep, choose target nonland permanent you control and "
             "up to two target nonland permanents you don't control. Destroy one of them at "
             "random.",
             abilities=(Triggered(AtUpkeep(), (DestroyOneAtRandom(),),
                                  targets=(_NONLAND_YOURS, _NONLAND_NOT_YOURS,
                                           _NONLAND_NOT_YOURS),
                                  text="Destroy one of them at random."),)),
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
    _aura("Unholy Strength", "{B}", "gets +2/+1.", EnchantedGets(2, 1)),
    _aura("Weakness", "{B}", "gets -2/-1.", EnchantedGets(-2, -1)),
    creature("Fiery Hellhound", "{1}{R}{R}", "Elemental Dog", 2, 2, (),
             "{R}: Fiery Hellhound gets +1/+0 until end of turn.",
             abilities=(_pump("Fiery Hellhound", "{R}", 1, 0),)),
    creature("Goblin Chieftain", "{1}{R}{R}", "Goblin", 2, 2, (HASTE,),
             f"{_HASTE}\nOther Goblin creatures you control get +1/+1 and have haste.",
             abilities=(CreaturesGet(1, 1, "you", other=True, subtype="Goblin"),
                        CreaturesHave(HASTE, "you", other=True, subtype="Goblin"))),
    creature("Inferno Elemental", "{4}{R}{R}", "Elemental", 4, 4, (),
             "Whenever Inferno Elemental blocks or becomes blocked by a creature, Inferno "
             "Elemental deals 3 damage to that creature.",
             abilities=(Triggered(Blocks(or_blocked=True), (Damage(3, BLOCK_PARTNER),),
                                  text="Inferno Elemental deals 3 damage to that creature."),)),
    CardDef(name="Kindled Fury", types=INSTANT, cost=mana_cost("{R}"),
            text="Target creature gets +1/+0 and gains first strike until end of turn.",
            targets=(TARGET_CREATURE,),
            spell=(Pump(Target(0), 1, 0),
                   GrantKeyword(Target(0), FIRST_STRIKE, UNTIL_END_OF_TURN))),
    creature("Lightning Elemental", "{3}{R}", "Elemental", 4, 1, (HASTE,), _HASTE),
    CardDef(name="Manabarbs", types=ENCHANTMENT, cost=mana_cost("{3}{R}"),
            text="Whenever a player taps a land for mana, Manabarbs deals 1 damage to that "
                 "player.",
            abilities=(Triggered(PlayerDoes(TAPS_LAND_FOR_MANA), (Damage(1, EVENT_PLAYER),),
                                 text="Manabarbs deals 1 damage to that player."),)),
    creature("Prodigal Pyromancer", "{2}{R}", "Human Wizard", 1, 1, (),
              "{T}: Prodigal Pyromancer deals 1 damage to any target.",
              abilities=(Activated(Cost(tap=True), (Damage(1, Target(0)),),
                                   targets=(ANY_TARGET,),
                                   text="Prodigal Pyromancer deals 1 damage to any target."),)),
    creature("Raging Goblin", "{R}", "Goblin Berserker", 1, 1, (HASTE,), _HASTE),
    creature("Shivan Dragon", "{4}{R}{R}", "Dragon", 5, 5, (FLYING,),
              f"{_FLYING}\n{{R}}: Shivan Dragon gets +1/+0 until end of turn.",
              abilities=(_pump("Shivan Dragon", "{R}", 1, 0),)),
    creature("Stone Giant", "{2}{R}{R}", "Giant", 3, 4, (),
             "{T}: Target creature you control with toughness less than Stone Giant's power "
             "gains flying until end of turn. Destroy that creature at the beginning of the "
             "next end step.",
             abilities=(Activated(
                 Cost(tap=True),
                 (GrantKeyword(Target(0), FLYING, UNTIL_END_OF_TURN),
                  DelayedTrigger(AtEndStep("each"), (Destroy(EVENT_OBJECT),), Target(0),
                                 text="Destroy that creature.")),
                 targets=(TargetSpec("creature", where(
                     "target creature you control with toughness less than Stone Giant's "
                     "power", controller="you", toughness_below_source_power=True)),),
                 text="Target creature you control with toughness less than Stone Giant's "
                      "power gains flying until end of turn; destroy it at the beginning of "
                      "the next end step."),)),
    creature("Viashino Spearhunter", "{2}{R}", "Lizard Warrior", 2, 1, (FIRST_STRIKE,),
              _FIRST_STRIKE),
    creature("Wall of Fire", "{1}{R}{R}", "Wall", 0, 5, (DEFENDER,),
              f"{_DEFENDER}\n{{R}}: Wall of Fire gets +1/+0 until end of turn.",
              abilities=(_pump("Wall of Fire", "{R}", 1, 0),)),
    creature("Awakener Druid", "{2}{G}", "Human Druid", 1, 1, (),
             "When Awakener Druid enters, target Forest becomes a 4/5 green Treefolk creature "
             "for as long as Awakener Druid remains on the battlefield. It's still a land.",
             abilities=(Triggered(
                 SelfEnters(),
                 (BecomeCreature(Target(0), 4, 5, color="G", subtype="Treefolk",
                                 duration=WHILE_SOURCE_ON_BATTLEFIELD),),
                 targets=(TargetSpec("permanent", where("target Forest",
                                                        subtypes=("Forest",))),),
                 text="Target Forest becomes a 4/5 green Treefolk creature."),)),
    creature("Birds of Paradise", "{G}", "Bird", 0, 1, (FLYING,),
              "Flying\n{T}: Add one mana of any color.", abilities=(ManaAbility(ANY_COLOR),)),
    creature("Bramble Creeper", "{4}{G}", "Elemental", 0, 3, (),
             "Whenever Bramble Creeper attacks, it gets +5/+0 until end of turn.",
             abilities=(Triggered(Attacks(), (Pump(SELF, 5, 0),),
                                  text="It gets +5/+0 until end of turn."),)),
    creature("Deadly Recluse", "{1}{G}", "Spider", 1, 2, (REACH, DEATHTOUCH),
              f"{_REACH}\n{_DEATHTOUCH}"),
    creature("Emerald Oryx", "{3}{G}", "Antelope", 2, 3, (Landwalk("Forest"),),
              _walk("Forest")),
    _pump_spell("Giant Growth", "{G}", 3, 3),
    creature("Giant Spider", "{3}{G}", "Spider", 2, 4, (REACH,), _REACH),
    creature("Kalonian Behemoth", "{5}{G}{G}", "Beast", 9, 9, (SHROUD,), _SHROUD),
    _pump_spell("Might of Oaks", "{3}{G}", 7, 7),
    creature("Mist Leopard", "{3}{G}", "Cat", 3, 2, (SHROUD,), _SHROUD),
    creature("Mold Adder", "{G}", "Fungus Snake", 1, 1, (),
             "Whenever an opponent casts a blue or black spell, you may put a +1/+1 counter on "
             "Mold Adder.",
             abilities=(Triggered(PlayerCastsSpell(colors=frozenset("UB"), who="opponent"),
                                  (May((PutCounters(SELF, "+1/+1", 1),),
                                       prompt="Put a +1/+1 counter on it?"),),
                                  text="You may put a +1/+1 counter on it."),)),
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
    _life_when_cast("Angel's Feather", "W"),
    CardDef(name="Coat of Arms", types=ARTIFACT, cost=mana_cost("{5}"),
            text="Each creature gets +1/+1 for each other creature on the battlefield that "
                 "shares at least one creature type with it. (For example, if two Goblin "
                 "Warriors and a Goblin Shaman are on the battlefield, each gets +2/+2.)",
            abilities=(SharedTypeBonus(),)),
    _life_when_cast("Demon's Horn", "B"),
    _life_when_cast("Dragon's Claw", "R"),
    CardDef(name="Howling Mine", types=ARTIFACT, cost=mana_cost("{2}"),
            text="At the beginning of each player's draw step, if Howling Mine is untapped, "
                 "that player draws an additional card.",
            abilities=(Triggered(AtDrawStep("each", per_player=True), (Draw(1, EVENT_PLAYER),),
                                 condition=SourceUntapped(),
                                 text="That player draws an additional card."),)),
    _life_when_cast("Kraken's Eye", "U"),
    creature("Ornithopter", "{0}", "Thopter", 0, 2, (FLYING,), "Flying",
              types=ARTIFACT_CREATURE),
    _life_when_cast("Wurm's Tooth", "G"),
]
