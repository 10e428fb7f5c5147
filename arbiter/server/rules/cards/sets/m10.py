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
    LAND,
    SORCERY,
    creature,
    equip,
    loyalty_ability,
    mana_cost,
    planeswalker,
    token,
)
from ..vocab import (
    ANY_CARD,
    ANY_TARGET,
    ARTIFACT_CARD,
    ATTACKS_YOU,
    BASIC_LAND_CARD,
    BLOCK_PARTNER,
    CANT_BE_BLOCKED,
    CANT_BLOCK,
    CHOSEN,
    COLOR,
    COLOR_NAMES,
    CREATURE_CARD,
    DEATHTOUCH,
    DEFENDER,
    DISCARDS,
    DRAWS,
    EACH_CREATURE,
    EACH_CREATURE_OF_TARGET,
    EACH_CREATURE_WITH_FLYING,
    EACH_CREATURE_WITHOUT_FLYING,
    EACH_CREATURE_YOU_CONTROL,
    EACH_OPPONENT,
    EACH_PLAYER,
    EACH_PLAYER_BUT_EVENT_PLAYER,
    EACH_TARGET,
    ENCHANTED,
    ENCHANTED_CONTROLLER,
    EVENT_AMOUNT,
    EVENT_OBJECT,
    EVENT_PLAYER,
    FIRST_STRIKE,
    FLASH,
    FLYING,
    GAINS_LIFE,
    HASTE,
    INDESTRUCTIBLE,
    LIFELINK,
    NONCREATURE_NONLAND_CARD,
    PLAYER_OR_PLANESWALKER,
    REACH,
    SELF,
    SHROUD,
    SUBTYPE,
    TAPS_LAND_FOR_MANA,
    TARGET_CONTROLLER,
    TARGET_CREATURE,
    TARGET_INSTANT_OR_SORCERY_SPELL,
    TARGET_OPPONENT,
    TARGET_OPPONENT_CREATURE,
    TARGET_PERMANENT,
    TARGET_PLAYER,
    TO_HAND,
    TO_TOP,
    TRAMPLE,
    UNTIL_END_OF_TURN,
    VIGILANCE,
    WHILE_SOURCE_ON_BATTLEFIELD,
    X_DIVIDED_EVENLY,
    YOU,
    Ability,
    Activated,
    ActivatedThisTurnAtLeast,
    AlsoBecomes,
    AnyNumberInDeck,
    AtDrawStep,
    AtEndStep,
    Attacks,
    AttacksEachCombat,
    AtUpkeep,
    BecomeCreature,
    BecomesTarget,
    Blocks,
    BlocksAnyNumber,
    CantAttackOrBlockAlone,
    CantAttackUnlessDefenderControls,
    CantBeBlocked,
    CantBeCountered,
    CardDef,
    CardFilter,
    ChooseBasicLandType,
    ChooseCardName,
    CopySpell,
    Cost,
    CostsMorePerExtraTarget,
    CounterRemovedFromSelf,
    CounterSpell,
    CreateToken,
    CreatureEnters,
    CreaturesGet,
    CreaturesHave,
    Damage,
    DealsCombatDamage,
    DealsDamage,
    Delayed,
    Destroy,
    DestroyAll,
    DestroyOneAtRandom,
    Discard,
    DividedAsYouChoose,
    DoesntUntap,
    Draw,
    EachCreatureGets,
    EnchantedCant,
    EnchantedGets,
    EnchantedIsChosenType,
    EntersAsCopy,
    EntersTappedUnlessControl,
    EntersWithCounters,
    Exile,
    ExileGraveyardAndNamesakes,
    ExtraTurn,
    GainLife,
    GetsPerOtherNamed,
    GrantKeyword,
    If,
    InCombatThisTurn,
    Keyword,
    Landwalk,
    LibraryFromExile,
    LookAtTop,
    LoseLife,
    ManaAbility,
    May,
    Mill,
    MustBeBlockedByAll,
    NamedCantBeActivated,
    NoMaximumHandSizeStatic,
    NumberYouControl,
    ObjectFilter,
    OpponentsCantCastThisTurn,
    OpponentsPlayWithHandsRevealed,
    PackStrike,
    PermanentsShuffledAndRedealt,
    PlayerCastsSpell,
    PlayerDoes,
    PlayTopCardFree,
    PlayWithTopCardRevealed,
    PowerToughnessEqualTo,
    PowerToughnessEqualToLife,
    PreventAllCombatDamage,
    PreventAllDamageTo,
    PreventDamageRemoveCounters,
    PreventNoncombatDamageToEnchanted,
    PreventOneFromOpponents,
    Protection,
    Pump,
    PutCounters,
    PutFromHand,
    PutOntoBattlefield,
    PutOnTopOfLibrary,
    RedirectFromChosenSource,
    Regenerate,
    Remembered,
    ReturnAllFromGraveyards,
    ReturnToHand,
    RevealHandYouChoose,
    RevealTopCard,
    RevealUntil,
    Sacrifice,
    SacrificeOne,
    SearchLibrary,
    SearchThenNamed,
    SelfDies,
    SelfEnters,
    SharedTypeBonus,
    Shuffle,
    ShuffleIntoLibraryInstead,
    SourceUntapped,
    Tap,
    TapCreaturesOf,
    Target,
    TargetSpec,
    Triggered,
    Untap,
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


def _regeneration(who: str) -> str:
    return (f"(The next time {who} would be destroyed this turn, it isn't. Instead tap it, "
            "remove all damage from it, and remove it from combat.)")


def _regenerator(name: str, mana: str, subtypes: str, power: int, toughness: int,
                 regen: str, keywords: tuple[Keyword, ...] = (), before: str = "") -> CardDef:
    """A creature with "{regen}: Regenerate NAME." (and its reminder text) after ``before``,
    the text of its keywords."""
    text = f"Regenerate {name}."
    return creature(name, mana, subtypes, power, toughness, keywords,
                    f"{before}{regen}: {text} {_regeneration('this creature')}",
                    abilities=(Activated(Cost(mana=mana_cost(regen)), (Regenerate(SELF),),
                                         text=text),))


def _dual(name: str, first: str, second: str, mana: str) -> CardDef:
    """A land that "enters tapped unless you control a FIRST or a SECOND" and taps for either
    of two colours (``mana``: "BR" is "{B} or {R}")."""
    def a(land: str) -> str:
        return f"{'an' if land[0] in 'AEIOU' else 'a'} {land}"

    return CardDef(name=name, types=LAND,
                   text=f"{name} enters tapped unless you control {a(first)} or {a(second)}.\n"
                        f"{{T}}: Add {{{mana[0]}}} or {{{mana[1]}}}.",
                   abilities=(EntersTappedUnlessControl((first, second)), ManaAbility(mana)))


def _walk(land: str) -> str:
    return (f"{land}walk (This creature can't be blocked as long as defending player controls "
            f"a {land}.)")




_INSTANT_OR_SORCERY = frozenset({"Instant", "Sorcery"})


def _aura(name: str, mana: str, effect: str, *abilities: Ability) -> CardDef:
    """An Aura with "Enchant creature" and "Enchanted creature ``effect``"."""
    return _enchant(name, mana, "creature", TARGET_CREATURE, f"Enchanted creature {effect}",
                    *abilities)


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


def _makes_tokens(name: str, token_name: str, count: int) -> Triggered:
    """"When NAME enters, create ``count`` tokens" (CR 111.1)."""
    return Triggered(SelfEnters(), (CreateToken(token_name, YOU, count),),
                     text=f"When {name} enters, create {count} {token_name}s.")


_UP_TO_ONE_CREATURE = TargetSpec("creature", optional=True)
_TARGET_LAND = TargetSpec("permanent", where("target land", types=("Land",)))
_CREATURE_CARD_IN_A_GRAVEYARD = TargetSpec(
    "graveyard_card", where("target creature card from a graveyard", types=("Creature",)))
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
_EQUIP = "Equip {2} ({2}: Attach to target creature you control. Equip only as a sorcery.)"
_TAPPED_CREATURE = TargetSpec("creature", where("target tapped creature", tapped=True))
_LAND = TargetSpec("permanent", where("target land", types=("Land",)))


def _enchant(name: str, mana: str, what: str, spec: TargetSpec, rest: str,
             *abilities: Ability) -> CardDef:
    """An Aura: "Enchant ``what``" (CR 702.5a, cast targeting ``spec``), then ``rest``."""
    return CardDef(name=name, types=ENCHANTMENT, subtypes=("Aura",), cost=mana_cost(mana),
                   text=f"Enchant {what}\n{rest}", enchant=spec, abilities=abilities)


def _equipment(name: str, mana: str, text: str, *abilities: Ability) -> CardDef:
    """An Equipment with "Equip {2}" (CR 301.5, 702.6a)."""
    return CardDef(name=name, types=ARTIFACT, subtypes=("Equipment",), cost=mana_cost(mana),
                   text=text, abilities=(*abilities, equip("{2}")))
_TRAMPLE = ("Trample (This creature can deal excess combat damage to the player or planeswalker "
            "it's attacking.)")
_SKELETON_VAMPIRE_OR_ZOMBIE = TargetSpec("permanent", where(
    "target Skeleton, Vampire, or Zombie", subtypes=("Skeleton", "Vampire", "Zombie")))


def _counterspell(name: str, mana: str, spec: TargetSpec) -> CardDef:
    """"Counter target [kind of] spell." (CR 701.5)"""
    return CardDef(name=name, types=INSTANT, cost=mana_cost(mana),
                   text=f"Counter {spec.describe()}.", targets=(spec,),
                   spell=(CounterSpell(Target(0)),))


def _destroy_creature(name: str, mana: str, types: frozenset[str],
                      which: ObjectFilter) -> CardDef:
    """"Destroy target [kind of] creature." (CR 701.8)"""
    return CardDef(name=name, types=types, cost=mana_cost(mana), text=f"Destroy {which.words}.",
                   targets=(TargetSpec("creature", which),), spell=(Destroy(Target(0)),))


_ARTIFACT_OR_ENCHANTMENT = TargetSpec("permanent", where("target artifact or enchantment",
                                                         types=("Artifact", "Enchantment")))
_SWAMPS = NumberYouControl(where("Swamps", subtypes=("Swamp",)))
_FORESTS = NumberYouControl(where("Forests", subtypes=("Forest",)))
_YOUR_CREATURES = where("creatures you control", controller="you")

# The tokens M10's cards create, named by CR 111.4 ("Wolf Token").
TOKENS = [
    token("Avatar", "W", None, None,
          "This creature's power and toughness are each equal to your life total.",
          abilities=(PowerToughnessEqualToLife(),)),
    token("Soldier", "W", 1, 1, "(A 1/1 white Soldier creature.)"),
    token("Goblin", "R", 1, 1, "(A 1/1 red Goblin creature.)"),
    token("Insect", "G", 1, 1, "(A 1/1 green Insect creature.)"),
    token("Beast", "G", 3, 3, "(A 3/3 green Beast creature.)"),
    token("Wolf", "G", 2, 2, "(A 2/2 green Wolf creature.)"),
    token("Zombie", "B", 2, 2, "(A 2/2 black Zombie creature.)"),
    token("Gargoyle", "", 3, 4, "Flying (A 3/4 colorless Gargoyle artifact creature.)",
          types=ARTIFACT_CREATURE, keywords=frozenset({FLYING})),
]

CARDS = [
    planeswalker("Ajani Goldmane", "{2}{W}{W}", "Ajani", 4,
                 "[+1]: You gain 2 life.\n[-1]: Put a +1/+1 counter on each creature you "
                 "control. Those creatures gain vigilance until end of turn.\n[-6]: Create a "
                 "white Avatar creature token. It has \"This creature's power and toughness "
                 "are each equal to your life total.\"",
                 (loyalty_ability(1, (GainLife(2, YOU),), "You gain 2 life."),
                  loyalty_ability(-1, (PutCounters(EACH_CREATURE_YOU_CONTROL, "+1/+1", 1),
                                       GrantKeyword(EACH_CREATURE_YOU_CONTROL, VIGILANCE,
                                                    UNTIL_END_OF_TURN)),
                                  "Put a +1/+1 counter on each creature you control. Those "
                                  "creatures gain vigilance until end of turn."),
                  loyalty_ability(-6, (CreateToken("Avatar Token", YOU),),
                                  "Create a white Avatar creature token."))),
    _aura("Armored Ascension", "{3}{W}",
          "gets +1/+1 for each Plains you control and has flying.",
          EnchantedGets(1, 1, (FLYING,), per_land="Plains")),
    creature("Baneslayer Angel", "{3}{W}{W}", "Angel", 5, 5,
              (FLYING, FIRST_STRIKE, LIFELINK, Protection(SUBTYPE, "Demon"),
               Protection(SUBTYPE, "Dragon")),
              "Flying, first strike, lifelink, protection from Demons and from Dragons"),
    creature("Blinding Mage", "{1}{W}", "Human Wizard", 1, 2, (),
             "{W}, {T}: Tap target creature.",
             abilities=(Activated(Cost(mana_cost("{W}"), tap=True), (Tap(Target(0)),),
                                  targets=(TARGET_CREATURE,), text="Tap target creature."),)),
    creature("Captain of the Watch", "{4}{W}{W}", "Human Soldier", 3, 3, (VIGILANCE,),
             "Vigilance (Attacking doesn't cause this creature to tap.)\nOther Soldier "
             "creatures you control get +1/+1 and have vigilance.\nWhen Captain of the Watch "
             "enters, create three 1/1 white Soldier creature tokens.",
             abilities=(CreaturesGet(1, 1, "you", other=True, subtype="Soldier"),
                        CreaturesHave(VIGILANCE, "you", other=True, subtype="Soldier"),
                        _makes_tokens("Captain of the Watch", "Soldier Token", 3))),
    CardDef(name="Celestial Purge", types=INSTANT, cost=mana_cost("{1}{W}"),
            text="Exile target black or red permanent.",
            targets=(TargetSpec("permanent", where("target black or red permanent",
                                                   colors="BR")),),
            spell=(Exile(Target(0)),)),
    CardDef(name="Divine Verdict", types=INSTANT, cost=mana_cost("{3}{W}"),
            text="Destroy target attacking or blocking creature.",
            targets=(TargetSpec("creature", where("target attacking or blocking creature",
                                                  combat="in_combat")),),
            spell=(Destroy(Target(0)),)),
    creature("Elite Vanguard", "{W}", "Human Soldier", 2, 1),
    CardDef(name="Excommunicate", types=SORCERY, cost=mana_cost("{2}{W}"),
            text="Put target creature on top of its owner's library.",
            targets=(TARGET_CREATURE,), spell=(PutOnTopOfLibrary(Target(0)),)),
    CardDef(name="Glorious Charge", types=INSTANT, cost=mana_cost("{1}{W}"),
            text="Creatures you control get +1/+1 until end of turn.",
            spell=(EachCreatureGets(_YOUR_CREATURES, 1, 1),)),
    creature("Griffin Sentinel", "{2}{W}", "Griffin", 1, 3, (FLYING, VIGILANCE),
              "Flying\nVigilance (Attacking doesn't cause this creature to tap.)"),
    creature("Guardian Seraph", "{2}{W}{W}", "Angel", 3, 4, (FLYING,),
             "Flying\nIf a source an opponent controls would deal damage to you, prevent 1 of "
             "that damage.", abilities=(PreventOneFromOpponents(),)),
    CardDef(name="Harm's Way", types=INSTANT, cost=mana_cost("{W}"),
            text="The next 2 damage that a source of your choice would deal to you and/or "
                 "permanents you control this turn is dealt to any target instead.",
            targets=(ANY_TARGET,), spell=(RedirectFromChosenSource(2),)),
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
    CardDef(name="Open the Vaults", types=SORCERY, cost=mana_cost("{4}{W}{W}"),
            text="Return all artifact and enchantment cards from all graveyards to the "
                 "battlefield under their owners' control. (Auras with nothing to enchant "
                 "remain in graveyards.)",
            spell=(ReturnAllFromGraveyards(CardFilter(frozenset({"Artifact", "Enchantment"}))),)),
    _aura("Pacifism", "{1}{W}", "can't attack or block.", EnchantedCant(attack=True, block=True)),
    creature("Palace Guard", "{2}{W}", "Human Soldier", 1, 4, (),
             "Palace Guard can block any number of creatures.",
             abilities=(BlocksAnyNumber(),)),
    CardDef(name="Planar Cleansing", types=SORCERY, cost=mana_cost("{3}{W}{W}{W}"),
            text="Destroy all nonland permanents.", spell=(DestroyAll(nonland=True),)),
    creature("Razorfoot Griffin", "{3}{W}", "Griffin", 2, 2, (FLYING, FIRST_STRIKE),
              f"{_FLYING}\n{_FIRST_STRIKE}"),
    creature("Rhox Pikemaster", "{2}{W}{W}", "Rhino Soldier", 3, 3, (FIRST_STRIKE,),
             f"{_FIRST_STRIKE}\nOther Soldier creatures you control have first strike.",
             abilities=(CreaturesHave(FIRST_STRIKE, "you", other=True, subtype="Soldier"),)),
    CardDef(name="Righteousness", types=INSTANT, cost=mana_cost("{W}"),
            text="Target blocking creature gets +7/+7 until end of turn.",
            targets=(TargetSpec("creature", where("target blocking creature",
                                                  combat="blocking")),),
            spell=(Pump(Target(0), 7, 7),)),
    CardDef(name="Safe Passage", types=INSTANT, cost=mana_cost("{2}{W}"),
            text="Prevent all damage that would be dealt to you and creatures you control this "
                 "turn.", spell=(PreventAllDamageTo(YOU),)),
    creature("Siege Mastodon", "{4}{W}", "Elephant", 3, 5),
    CardDef(name="Silence", types=INSTANT, cost=mana_cost("{W}"),
            text="Your opponents can't cast spells this turn.",
            spell=(OpponentsCantCastThisTurn(),)),
    creature("Silvercoat Lion", "{1}{W}", "Cat", 2, 2),
    CardDef(name="Solemn Offering", types=SORCERY, cost=mana_cost("{2}{W}"),
            text="Destroy target artifact or enchantment. You gain 4 life.",
            targets=(_ARTIFACT_OR_ENCHANTMENT,), spell=(Destroy(Target(0)), GainLife(4, YOU))),
    creature("Soul Warden", "{W}", "Human Cleric", 1, 1, (),
             "Whenever another creature enters, you gain 1 life.",
             abilities=(Triggered(CreatureEnters(nontoken=False, other=True),
                                  (GainLife(1, YOU),), text="You gain 1 life."),)),
    creature("Stormfront Pegasus", "{1}{W}", "Pegasus", 2, 1, (FLYING,), "Flying"),
    CardDef(name="Tempest of Light", types=INSTANT, cost=mana_cost("{2}{W}"),
            text="Destroy all enchantments.", spell=(DestroyAll(frozenset({"Enchantment"})),)),
    creature("Undead Slayer", "{2}{W}", "Human Cleric", 2, 2, (),
             "{W}, {T}: Exile target Skeleton, Vampire, or Zombie.",
             abilities=(Activated(Cost(mana_cost("{W}"), tap=True), (Exile(Target(0)),),
                                  targets=(_SKELETON_VAMPIRE_OR_ZOMBIE,),
                                  text="Exile target Skeleton, Vampire, or Zombie."),)),
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
    _counterspell("Cancel", "{1}{U}{U}", TargetSpec("spell")),
    creature("Clone", "{3}{U}", "Shapeshifter", 0, 0, (),
             "You may have Clone enter as a copy of any creature on the battlefield.",
             abilities=(EntersAsCopy(),)),
    _enchant("Convincing Mirage", "{1}{U}", "land", _LAND,
             "As Convincing Mirage enters, choose a basic land type.\n"
             "Enchanted land is the chosen type.",
             ChooseBasicLandType(), EnchantedIsChosenType()),
    creature("Coral Merfolk", "{1}{U}", "Merfolk", 2, 1),
    _pump_spell("Disorient", "{3}{U}", -7, 0),
    creature("Djinn of Wishes", "{3}{U}{U}", "Djinn", 4, 4, (FLYING,),
             "Flying\nDjinn of Wishes enters with three wish counters on it.\n"
             "{2}{U}{U}, Remove a wish counter from Djinn of Wishes: Reveal the top card of "
             "your library. You may play that card without paying its mana cost. If you "
             "don't, exile it.",
             abilities=(EntersWithCounters("wish", 3),
                        Activated(Cost(mana=mana_cost("{2}{U}{U}"), remove_counter="wish"),
                                  (PlayTopCardFree(),),
                                  text="Reveal the top card of your library. You may play that "
                                       "card without paying its mana cost. If you don't, exile "
                                       "it."))),
    _counterspell("Essence Scatter", "{1}{U}",
                  TargetSpec("spell", where("target creature spell", types=("Creature",)))),
    CardDef(name="Fabricate", types=SORCERY, cost=mana_cost("{2}{U}"),
            text="Search your library for an artifact card, reveal it, put it into your hand, "
                 "then shuffle.",
            spell=(SearchLibrary(YOU, ARTIFACT_CARD, to=TO_HAND, reveal=True),)),
    _counterspell("Flashfreeze", "{1}{U}",
                  TargetSpec("spell", where("target red or green spell", colors="RG"))),
    CardDef(name="Hive Mind", types=ENCHANTMENT, cost=mana_cost("{5}{U}"),
            text="Whenever a player casts an instant or sorcery spell, each other player copies "
                 "that spell. Each of those players may choose new targets for their copy.",
            abilities=(Triggered(PlayerCastsSpell(_INSTANT_OR_SORCERY),
                                 (CopySpell(EVENT_OBJECT, EACH_PLAYER_BUT_EVENT_PLAYER),),
                                 text="Each other player copies that spell."),)),
    creature("Horned Turtle", "{2}{U}", "Turtle", 1, 4),
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
    planeswalker("Jace Beleren", "{1}{U}{U}", "Jace", 3,
                 "[+2]: Each player draws a card.\n[-1]: Target player draws a card.\n[-10]: "
                 "Target player mills twenty cards.",
                 (loyalty_ability(2, (Draw(1, EACH_PLAYER),), "Each player draws a card."),
                  loyalty_ability(-1, (Draw(1, Target(0)),), "Target player draws a card.",
                                  (TARGET_PLAYER,)),
                  loyalty_ability(-10, (Mill(20, Target(0)),),
                                  "Target player mills twenty cards.", (TARGET_PLAYER,)))),
    CardDef(name="Jump", types=INSTANT, cost=mana_cost("{U}"),
            text="Target creature gains flying until end of turn.",
            targets=(TARGET_CREATURE,),
            spell=(GrantKeyword(Target(0), FLYING, UNTIL_END_OF_TURN),)),
    CardDef(name="Levitation", types=ENCHANTMENT, cost=mana_cost("{2}{U}{U}"),
            text="Creatures you control have flying.", abilities=(CreaturesHave(FLYING, "you"),)),
    creature("Merfolk Looter", "{1}{U}", "Merfolk Rogue", 1, 1, (),
             "{T}: Draw a card, then discard a card.",
             abilities=(Activated(Cost(tap=True), (Draw(1, YOU), Discard(1, YOU)),
                                  text="Draw a card, then discard a card."),)),
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
    _counterspell("Negate", "{1}{U}",
                  TargetSpec("spell", where("target noncreature spell",
                                            not_types=("Creature",)))),
    creature("Phantom Warrior", "{1}{U}{U}", "Illusion Warrior", 2, 2, (),
             "Phantom Warrior can't be blocked.", abilities=(CantBeBlocked(),)),
    CardDef(name="Polymorph", types=SORCERY, cost=mana_cost("{3}{U}"),
            text="Destroy target creature. It can't be regenerated. Its controller reveals "
                 "cards from the top of their library until they reveal a creature card. The "
                 "player puts that card onto the battlefield, then shuffles all other cards "
                 "revealed this way into their library.",
            targets=(TARGET_CREATURE,),
            spell=(Destroy(Target(0), no_regen=True),
                   RevealUntil(CREATURE_CARD, TARGET_CONTROLLER))),
    CardDef(name="Ponder", types=SORCERY, cost=mana_cost("{U}"),
            text="Look at the top three cards of your library, then put them back in any "
                 "order. You may shuffle.\nDraw a card.",
            spell=(LookAtTop(3), May((Shuffle(),), prompt="Shuffle your library?"),
                   Draw(1, YOU))),
    creature("Sage Owl", "{1}{U}", "Bird", 1, 1, (FLYING,),
             "Flying\nWhen Sage Owl enters, look at the top four cards of your library, then "
             "put them back in any order.",
             abilities=(Triggered(SelfEnters(), (LookAtTop(4),),
                                  text="Look at the top four cards of your library, then put "
                                       "them back in any order."),)),
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
    creature("Sphinx Ambassador", "{5}{U}{U}", "Sphinx", 5, 5, (FLYING,),
             "Flying\nWhenever Sphinx Ambassador deals combat damage to a player, search that "
             "player's library for a card, then that player chooses a card name. If you "
             "searched for a creature card that doesn't have that name, you may put it onto "
             "the battlefield under your control. Then that player shuffles.",
             abilities=(Triggered(DealsCombatDamage("player"),
                                  (SearchThenNamed(EVENT_PLAYER, CREATURE_CARD),),
                                  text="Search that player's library for a card; that player "
                                       "names a card."),)),
    CardDef(name="Telepathy", types=ENCHANTMENT, cost=mana_cost("{U}"),
            text="Your opponents play with their hands revealed.",
            abilities=(OpponentsPlayWithHandsRevealed(),)),
    CardDef(name="Time Warp", types=SORCERY, cost=mana_cost("{3}{U}{U}"),
            text="Target player takes an extra turn after this one.",
            targets=(TARGET_PLAYER,), spell=(ExtraTurn(Target(0)),)),
    CardDef(name="Tome Scour", types=SORCERY, cost=mana_cost("{U}"),
            text="Target player mills five cards.",
            targets=(TARGET_PLAYER,), spell=(Mill(5, Target(0)),)),
    CardDef(name="Twincast", types=INSTANT, cost=mana_cost("{U}{U}"),
            text="Copy target instant or sorcery spell. You may choose new targets for the "
                 "copy.",
            targets=(TARGET_INSTANT_OR_SORCERY_SPELL,), spell=(CopySpell(Target(0)),)),
    CardDef(name="Unsummon", types=INSTANT, cost=mana_cost("{U}"),
            text="Return target creature to its owner's hand.",
            targets=(TARGET_CREATURE,), spell=(ReturnToHand(Target(0)),)),
    creature("Wall of Frost", "{1}{U}{U}", "Wall", 0, 7, (DEFENDER,),
             "Defender\nWhenever Wall of Frost blocks a creature, that creature doesn't untap "
             "during its controller's next untap step.",
             abilities=(Triggered(Blocks(), (DoesntUntap(BLOCK_PARTNER),),
                                  text="That creature doesn't untap during its controller's "
                                       "next untap step."),)),
    creature("Wind Drake", "{2}{U}", "Drake", 2, 2, (FLYING,), "Flying"),
    creature("Zephyr Sprite", "{U}", "Faerie", 1, 1, (FLYING,), "Flying"),
    creature("Acolyte of Xathrid", "{B}", "Human Cleric", 0, 1, (),
             "{1}{B}, {T}: Target player loses 1 life.",
             abilities=(Activated(Cost(mana_cost("{1}{B}"), tap=True),
                                  (LoseLife(1, Target(0)),), targets=(TARGET_PLAYER,),
                                  text="Target player loses 1 life."),)),
    _destroy_creature("Assassinate", "{2}{B}", SORCERY,
                      where("target tapped creature", tapped=True)),
    creature("Black Knight", "{B}{B}", "Human Knight", 2, 2,
              (FIRST_STRIKE, Protection(COLOR, "W")),
              f"{_FIRST_STRIKE}\n{_protection('white')}"),
    creature("Bog Wraith", "{3}{B}", "Wraith", 3, 3, (Landwalk("Swamp"),), _walk("Swamp")),
    creature("Cemetery Reaper", "{1}{B}{B}", "Zombie", 2, 2, (),
             "Other Zombie creatures you control get +1/+1.\n{2}{B}, {T}: Exile target "
             "creature card from a graveyard. Create a 2/2 black Zombie creature token.",
             abilities=(CreaturesGet(1, 1, "you", other=True, subtype="Zombie"),
                        Activated(Cost(mana=mana_cost("{2}{B}"), tap=True),
                                  (Exile(Target(0)), CreateToken("Zombie Token", YOU)),
                                  targets=(_CREATURE_CARD_IN_A_GRAVEYARD,),
                                  text="Exile target creature card from a graveyard. Create a "
                                       "2/2 black Zombie creature token."))),
    creature("Child of Night", "{1}{B}", "Vampire", 2, 1, (LIFELINK,), "Lifelink"),
    CardDef(name="Consume Spirit", types=SORCERY, cost=mana_cost("{X}{1}{B}"), x_color="B",
            text="Spend only black mana on X.\nConsume Spirit deals X damage to any target "
                 "and you gain X life.",
            targets=(ANY_TARGET,), spell=(Damage(X, Target(0)), GainLife(X, YOU))),
    _destroy_creature("Deathmark", "{B}", SORCERY,
                      where("target green or white creature", colors="GW")),
    CardDef(name="Diabolic Tutor", types=SORCERY, cost=mana_cost("{2}{B}{B}"),
            text="Search your library for a card, put that card into your hand, then shuffle.",
            spell=(SearchLibrary(YOU, ANY_CARD, to=TO_HAND),)),
    CardDef(name="Disentomb", types=SORCERY, cost=mana_cost("{B}"),
            text="Return target creature card from your graveyard to your hand.",
            targets=(TargetSpec("your_graveyard_card",
                                where("target creature card from your graveyard",
                                      types=("Creature",))),),
            spell=(ReturnToHand(Target(0)),)),
    _destroy_creature("Doom Blade", "{1}{B}", INSTANT,
                      where("target nonblack creature", not_colors="B")),
    creature("Dread Warlock", "{1}{B}{B}", "Human Wizard Warlock", 2, 2, (),
             "Dread Warlock can't be blocked except by black creatures.",
             abilities=(CantBeBlocked(except_colors="B"),)),
    _regenerator("Drudge Skeletons", "{1}{B}", "Skeleton", 1, 1, "{B}"),
    CardDef(name="Duress", types=SORCERY, cost=mana_cost("{B}"),
            text="Target opponent reveals their hand. You choose a noncreature, nonland card "
                 "from it. That player discards that card.",
            targets=(TARGET_OPPONENT,),
            spell=(RevealHandYouChoose(Target(0), NONCREATURE_NONLAND_CARD),)),
    creature("Gravedigger", "{3}{B}", "Zombie", 2, 2, (),
             "When Gravedigger enters, you may return target creature card from your graveyard "
             "to your hand.",
             abilities=(Triggered(SelfEnters(), (May((ReturnToHand(Target(0)),),
                                                     prompt="Return the creature card to your "
                                                            "hand?"),),
                                  targets=(TargetSpec("your_graveyard_card", where(
                                      "target creature card from your graveyard",
                                      types=("Creature",))),),
                                  text="You may return target creature card from your "
                                       "graveyard to your hand."),)),
    CardDef(name="Haunting Echoes", types=SORCERY, cost=mana_cost("{3}{B}{B}"),
            text="Exile all cards from target player's graveyard other than basic land cards. "
                 "For each card exiled this way, search that player's library for all cards "
                 "with the same name as that card and exile them. Then that player shuffles.",
            targets=(TARGET_PLAYER,),
            spell=(ExileGraveyardAndNamesakes(Target(0), BASIC_LAND_CARD),)),
    creature("Howling Banshee", "{2}{B}{B}", "Spirit", 3, 3, (FLYING,),
             "Flying\nWhen Howling Banshee enters, each player loses 3 life.",
             abilities=(Triggered(SelfEnters(), (LoseLife(3, EACH_PLAYER),),
                                  text="Each player loses 3 life."),)),
    creature("Hypnotic Specter", "{1}{B}{B}", "Specter", 2, 2, (FLYING,),
             "Flying\nWhenever Hypnotic Specter deals damage to an opponent, that player "
             "discards a card at random.",
             abilities=(Triggered(DealsDamage("opponent"),
                                  (Discard(1, EVENT_PLAYER, at_random=True),),
                                  text="That player discards a card at random."),)),
    creature("Kelinore Bat", "{2}{B}", "Bat", 2, 1, (FLYING,), "Flying"),
    planeswalker("Liliana Vess", "{3}{B}{B}", "Liliana", 5,
                 "[+1]: Target player discards a card.\n[-2]: Search your library for a card, "
                 "then shuffle and put that card on top.\n[-8]: Put all creature cards from "
                 "all graveyards onto the battlefield under your control.",
                 (loyalty_ability(1, (Discard(1, Target(0)),), "Target player discards a card.",
                                  (TARGET_PLAYER,)),
                  loyalty_ability(-2, (SearchLibrary(YOU, ANY_CARD, to=TO_TOP),),
                                  "Search your library for a card, then shuffle and put that "
                                  "card on top."),
                  loyalty_ability(-8, (ReturnAllFromGraveyards(CREATURE_CARD, yours=True),),
                                  "Put all creature cards from all graveyards onto the "
                                  "battlefield under your control."))),
    creature("Looming Shade", "{2}{B}", "Shade", 1, 1, (),
             "{B}: Looming Shade gets +1/+1 until end of turn.",
             abilities=(_pump("Looming Shade", "{B}", 1, 1),)),
    CardDef(name="Megrim", types=ENCHANTMENT, cost=mana_cost("{2}{B}"),
            text="Whenever an opponent discards a card, Megrim deals 2 damage to that player.",
            abilities=(Triggered(PlayerDoes(DISCARDS, "opponent"), (Damage(2, EVENT_PLAYER),),
                                 text="Megrim deals 2 damage to that player."),)),
    CardDef(name="Mind Rot", types=SORCERY, cost=mana_cost("{2}{B}"),
            text="Target player discards two cards.",
            targets=(TARGET_PLAYER,), spell=(Discard(2, Target(0)),)),
    CardDef(name="Mind Shatter", types=SORCERY, cost=mana_cost("{X}{B}{B}"),
            text="Target player discards X cards at random.",
            targets=(TARGET_PLAYER,), spell=(Discard(X, Target(0), at_random=True),)),
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
    CardDef(name="Rise from the Grave", types=SORCERY, cost=mana_cost("{4}{B}"),
            text="Put target creature card from a graveyard onto the battlefield under your "
                 "control. That creature is a black Zombie in addition to its other colors "
                 "and types.",
            targets=(_CREATURE_CARD_IN_A_GRAVEYARD,),
            spell=(PutOntoBattlefield(Target(0)), AlsoBecomes(CHOSEN, "B", ("Zombie",)))),
    creature("Royal Assassin", "{1}{B}{B}", "Human Assassin", 1, 1, (),
             "{T}: Destroy target tapped creature.",
             abilities=(Activated(Cost(tap=True), (Destroy(Target(0)),),
                                  targets=(TargetSpec("creature", where(
                                      "target tapped creature", tapped=True)),),
                                  text="Destroy target tapped creature."),)),
    CardDef(name="Sanguine Bond", types=ENCHANTMENT, cost=mana_cost("{3}{B}{B}"),
            text="Whenever you gain life, target opponent loses that much life.",
            abilities=(Triggered(PlayerDoes(GAINS_LIFE, "you"),
                                 (LoseLife(EVENT_AMOUNT, Target(0)),),
                                 targets=(TARGET_OPPONENT,),
                                 text="Target opponent loses that much life."),)),
    CardDef(name="Sign in Blood", types=SORCERY, cost=mana_cost("{B}{B}"),
            text="Target player draws two cards and loses 2 life.",
            targets=(TARGET_PLAYER,), spell=(Draw(2, Target(0)), LoseLife(2, Target(0)))),
    _enchant("Soul Bleed", "{2}{B}", "creature", TARGET_CREATURE,
             "At the beginning of the upkeep of enchanted creature's controller, that player "
             "loses 1 life.",
             Triggered(AtUpkeep("enchanted"), (LoseLife(1, ENCHANTED_CONTROLLER),),
                       text="That player loses 1 life.")),
    CardDef(name="Tendrils of Corruption", types=INSTANT, cost=mana_cost("{3}{B}"),
            text="Tendrils of Corruption deals X damage to target creature and you gain X "
                 "life, where X is the number of Swamps you control.",
            targets=(TARGET_CREATURE,),
            spell=(Damage(_SWAMPS, Target(0)), GainLife(_SWAMPS, YOU))),
    CardDef(name="Underworld Dreams", types=ENCHANTMENT, cost=mana_cost("{B}{B}{B}"),
            text="Whenever an opponent draws a card, Underworld Dreams deals 1 damage to that "
                 "player.",
            abilities=(Triggered(PlayerDoes(DRAWS, "opponent"), (Damage(1, EVENT_PLAYER),),
                                 text="Underworld Dreams deals 1 damage to that player."),)),
    _aura("Unholy Strength", "{B}", "gets +2/+1.", EnchantedGets(2, 1)),
    creature("Vampire Aristocrat", "{2}{B}", "Vampire Rogue Noble", 2, 2, (),
             "Sacrifice a creature: Vampire Aristocrat gets +2/+2 until end of turn.",
             abilities=(Activated(Cost(sacrifice="Creature"), (Pump(SELF, 2, 2),),
                                  text="Vampire Aristocrat gets +2/+2 until end of turn."),)),
    creature("Vampire Nocturnus", "{1}{B}{B}{B}", "Vampire", 3, 3, (),
             "Play with the top card of your library revealed.\nAs long as the top card of "
             "your library is black, Vampire Nocturnus and other Vampire creatures you "
             "control get +2/+1 and have flying.",
             abilities=(PlayWithTopCardRevealed(),
                        CreaturesGet(2, 1, "you", subtype="Vampire", self_too=True,
                                     while_top_card="B"),
                        CreaturesHave(FLYING, "you", subtype="Vampire", self_too=True,
                                      while_top_card="B"))),
    _regenerator("Wall of Bone", "{2}{B}", "Skeleton Wall", 1, 4, "{B}", (DEFENDER,),
                 f"{_DEFENDER}\n"),
    creature("Warpath Ghoul", "{2}{B}", "Zombie", 3, 2),
    _aura("Weakness", "{B}", "gets -2/-1.", EnchantedGets(-2, -1)),
    creature("Xathrid Demon", "{3}{B}{B}{B}", "Demon", 7, 7, (FLYING, TRAMPLE),
             "Flying, trample\nAt the beginning of your upkeep, sacrifice a creature other "
             "than Xathrid Demon, then each opponent loses life equal to the sacrificed "
             "creature's power. If you can't sacrifice a creature, tap Xathrid Demon and you "
             "lose 7 life.",
             abilities=(Triggered(AtUpkeep(), (SacrificeOne(
                 YOU, CREATURE, other=True, remember="power",
                 then=(LoseLife(Remembered("power"), EACH_OPPONENT),),
                 otherwise=(Tap(SELF), LoseLife(7, YOU))),),
                 text="Sacrifice another creature; each opponent loses life equal to its "
                      "power."),)),
    creature("Zombie Goliath", "{4}{B}", "Zombie Giant", 4, 3),
    creature("Ball Lightning", "{R}{R}{R}", "Elemental", 6, 1, (TRAMPLE, HASTE),
             f"{_TRAMPLE}\n{_HASTE}\nAt the beginning of the end step, sacrifice Ball Lightning.",
             abilities=(Triggered(AtEndStep("each"), (Sacrifice(SELF),),
                                  text="Sacrifice Ball Lightning."),)),
    creature("Berserkers of Blood Ridge", "{4}{R}", "Human Berserker", 4, 4, (),
             "Berserkers of Blood Ridge attacks each combat if able.",
             abilities=(AttacksEachCombat(),)),
    creature("Bogardan Hellkite", "{6}{R}{R}", "Dragon", 5, 5, (FLASH, FLYING),
             "Flash\nFlying\nWhen Bogardan Hellkite enters, it deals 5 damage divided as you "
             "choose among any number of targets.",
             abilities=(Triggered(SelfEnters(), (Damage(DividedAsYouChoose(5), EACH_TARGET),),
                                  targets=(ANY_TARGET,),
                                  text="It deals 5 damage divided as you choose among any "
                                       "number of targets."),)),
    CardDef(name="Burning Inquiry", types=SORCERY, cost=mana_cost("{R}"),
            text="Each player draws three cards, then discards three cards at random.",
            spell=(Draw(3, EACH_PLAYER), Discard(3, EACH_PLAYER, at_random=True))),
    CardDef(name="Burst of Speed", types=SORCERY, cost=mana_cost("{R}"),
            text="Creatures you control gain haste until end of turn. (They can attack and {T} "
                 "even if they just came under your control.)",
            spell=(EachCreatureGets(_YOUR_CREATURES, 0, 0, HASTE),)),
    creature("Canyon Minotaur", "{3}{R}", "Minotaur Warrior", 3, 3),
    creature("Capricious Efreet", "{4}{R}{R}", "Efreet", 6, 4, (),
             "At the beginning of your upkeep, choose target nonland permanent you control and "
             "up to two target nonland permanents you don't control. Destroy one of them at "
             "random.",
             abilities=(Triggered(AtUpkeep(), (DestroyOneAtRandom(),),
                                  targets=(_NONLAND_YOURS, _NONLAND_NOT_YOURS,
                                           _NONLAND_NOT_YOURS),
                                  text="Destroy one of them at random."),)),
    planeswalker("Chandra Nalaar", "{3}{R}{R}", "Chandra", 6,
                 "[+1]: Chandra Nalaar deals 1 damage to target player or planeswalker.\n[-X]: "
                 "Chandra Nalaar deals X damage to target creature.\n[-8]: Chandra Nalaar "
                 "deals 10 damage to target player or planeswalker and each creature that "
                 "player or that planeswalker's controller controls.",
                 (loyalty_ability(1, (Damage(1, Target(0)),),
                                  "Chandra Nalaar deals 1 damage to target player or "
                                  "planeswalker.", (PLAYER_OR_PLANESWALKER,)),
                  loyalty_ability("-X", (Damage(X, Target(0)),),
                                  "Chandra Nalaar deals X damage to target creature.",
                                  (TARGET_CREATURE,)),
                  loyalty_ability(-8, (Damage(10, Target(0)),
                                       Damage(10, EACH_CREATURE_OF_TARGET)),
                                  "Chandra Nalaar deals 10 damage to target player or "
                                  "planeswalker and each creature that player or that "
                                  "planeswalker's controller controls.",
                                  (PLAYER_OR_PLANESWALKER,)))),
    creature("Dragon Whelp", "{2}{R}{R}", "Dragon", 2, 3, (FLYING,),
             "Flying\n{R}: Dragon Whelp gets +1/+0 until end of turn. If this ability has been "
             "activated four or more times this turn, sacrifice Dragon Whelp at the beginning "
             "of the next end step.",
             abilities=(Activated(
                 Cost(mana_cost("{R}")),
                 (Pump(SELF, 1, 0),
                  If(ActivatedThisTurnAtLeast(4),
                     (Delayed(AtEndStep("each"), (Sacrifice(SELF),),
                              text="Sacrifice Dragon Whelp."),))),
                 text="Dragon Whelp gets +1/+0 until end of turn. If this ability has been "
                      "activated four or more times this turn, sacrifice Dragon Whelp at the "
                      "beginning of the next end step."),)),
    CardDef(name="Earthquake", types=SORCERY, cost=mana_cost("{X}{R}"),
            text="Earthquake deals X damage to each creature without flying and each player.",
            spell=(Damage(X, EACH_CREATURE_WITHOUT_FLYING), Damage(X, EACH_PLAYER))),
    creature("Fiery Hellhound", "{1}{R}{R}", "Elemental Dog", 2, 2, (),
             "{R}: Fiery Hellhound gets +1/+0 until end of turn.",
             abilities=(_pump("Fiery Hellhound", "{R}", 1, 0),)),
    CardDef(name="Fireball", types=SORCERY, cost=mana_cost("{X}{R}"),
            text="This spell costs {1} more to cast for each target beyond the first.\n"
                 "Fireball deals X damage divided evenly, rounded down, among any number of "
                 "targets.",
            targets=(ANY_TARGET,), any_number_of_targets=True,
            abilities=(CostsMorePerExtraTarget(1),),
            spell=(Damage(X_DIVIDED_EVENLY, EACH_TARGET),)),
    _enchant("Firebreathing", "{R}", "creature", TARGET_CREATURE,
             "{R}: Enchanted creature gets +1/+0 until end of turn.",
             Activated(Cost(mana=mana_cost("{R}")), (Pump(ENCHANTED, 1, 0),),
                       text="Enchanted creature gets +1/+0 until end of turn.")),
    creature("Goblin Artillery", "{1}{R}{R}", "Goblin Warrior", 1, 3, (),
             "{T}: Goblin Artillery deals 2 damage to any target and 3 damage to you.",
             abilities=(Activated(Cost(tap=True), (Damage(2, Target(0)), Damage(3, YOU)),
                                  targets=(ANY_TARGET,),
                                  text="Goblin Artillery deals 2 damage to any target and 3 "
                                       "damage to you."),)),
    creature("Goblin Chieftain", "{1}{R}{R}", "Goblin", 2, 2, (HASTE,),
             f"{_HASTE}\nOther Goblin creatures you control get +1/+1 and have haste.",
             abilities=(CreaturesGet(1, 1, "you", other=True, subtype="Goblin"),
                        CreaturesHave(HASTE, "you", other=True, subtype="Goblin"))),
    creature("Goblin Piker", "{1}{R}", "Goblin Warrior", 2, 1),
    CardDef(name="Ignite Disorder", types=INSTANT, cost=mana_cost("{1}{R}"),
            text="Ignite Disorder deals 3 damage divided as you choose among one, two, or three "
                 "target white and/or blue creatures.",
            targets=(TargetSpec("creature", where("target white and/or blue creature",
                                                  colors="WU")),),
            any_number_of_targets=True,  # up to three: each target gets at least 1 of the 3
            spell=(Damage(DividedAsYouChoose(3), EACH_TARGET),)),
    creature("Inferno Elemental", "{4}{R}{R}", "Elemental", 4, 4, (),
             "Whenever Inferno Elemental blocks or becomes blocked by a creature, Inferno "
             "Elemental deals 3 damage to that creature.",
             abilities=(Triggered(Blocks(or_blocked=True), (Damage(3, BLOCK_PARTNER),),
                                  text="Inferno Elemental deals 3 damage to that creature."),)),
    creature("Jackal Familiar", "{R}", "Jackal", 2, 2, (),
             "Jackal Familiar can't attack or block alone.",
             abilities=(CantAttackOrBlockAlone(),)),
    CardDef(name="Kindled Fury", types=INSTANT, cost=mana_cost("{R}"),
            text="Target creature gets +1/+0 and gains first strike until end of turn.",
            targets=(TARGET_CREATURE,),
            spell=(Pump(Target(0), 1, 0),
                   GrantKeyword(Target(0), FIRST_STRIKE, UNTIL_END_OF_TURN))),
    creature("Lightning Elemental", "{3}{R}", "Elemental", 4, 1, (HASTE,), _HASTE),
    creature("Magma Phoenix", "{3}{R}{R}", "Phoenix", 3, 3, (FLYING,),
             "Flying\nWhen Magma Phoenix dies, it deals 3 damage to each creature and each "
             "player.\n{3}{R}{R}: Return Magma Phoenix from your graveyard to your hand.",
             abilities=(Triggered(SelfDies(), (Damage(3, EACH_CREATURE), Damage(3, EACH_PLAYER)),
                                  text="It deals 3 damage to each creature and each player."),
                        Activated(Cost(mana_cost("{3}{R}{R}")), (ReturnToHand(SELF),),
                                  zone="graveyard",
                                  text="Return Magma Phoenix from your graveyard to your "
                                       "hand."))),
    CardDef(name="Manabarbs", types=ENCHANTMENT, cost=mana_cost("{3}{R}"),
            text="Whenever a player taps a land for mana, Manabarbs deals 1 damage to that "
                 "player.",
            abilities=(Triggered(PlayerDoes(TAPS_LAND_FOR_MANA), (Damage(1, EVENT_PLAYER),),
                                 text="Manabarbs deals 1 damage to that player."),)),
    CardDef(name="Panic Attack", types=SORCERY, cost=mana_cost("{2}{R}"),
            text="Up to three target creatures can't block this turn.",
            targets=(_UP_TO_ONE_CREATURE,) * 3,
            spell=(InCombatThisTurn(EACH_TARGET, CANT_BLOCK),)),
    creature("Prodigal Pyromancer", "{2}{R}", "Human Wizard", 1, 1, (),
              "{T}: Prodigal Pyromancer deals 1 damage to any target.",
              abilities=(Activated(Cost(tap=True), (Damage(1, Target(0)),),
                                   targets=(ANY_TARGET,),
                                   text="Prodigal Pyromancer deals 1 damage to any target."),)),
    CardDef(name="Pyroclasm", types=SORCERY, cost=mana_cost("{1}{R}"),
            text="Pyroclasm deals 2 damage to each creature.",
            spell=(Damage(2, EACH_CREATURE),)),
    creature("Raging Goblin", "{R}", "Goblin Berserker", 1, 1, (HASTE,), _HASTE),
    CardDef(name="Seismic Strike", types=INSTANT, cost=mana_cost("{2}{R}"),
            text="Seismic Strike deals damage to target creature equal to the number of "
                 "Mountains you control.",
            targets=(TARGET_CREATURE,),
            spell=(Damage(NumberYouControl(where("Mountains", subtypes=("Mountain",))),
                          Target(0)),)),
    CardDef(name="Shatter", types=INSTANT, cost=mana_cost("{1}{R}"),
            text="Destroy target artifact.",
            targets=(TargetSpec("permanent", where("target artifact", types=("Artifact",))),),
            spell=(Destroy(Target(0)),)),
    creature("Shivan Dragon", "{4}{R}{R}", "Dragon", 5, 5, (FLYING,),
              f"{_FLYING}\n{{R}}: Shivan Dragon gets +1/+0 until end of turn.",
              abilities=(_pump("Shivan Dragon", "{R}", 1, 0),)),
    creature("Siege-Gang Commander", "{3}{R}{R}", "Goblin", 2, 2, (),
             "When Siege-Gang Commander enters, create three 1/1 red Goblin creature tokens.\n"
             "{1}{R}, Sacrifice a Goblin: Siege-Gang Commander deals 2 damage to any target.",
             abilities=(_makes_tokens("Siege-Gang Commander", "Goblin Token", 3),
                        Activated(Cost(mana=mana_cost("{1}{R}"), sacrifice="Goblin"),
                                  (Damage(2, Target(0)),), targets=(ANY_TARGET,),
                                  text="Siege-Gang Commander deals 2 damage to any target."))),
    creature("Sparkmage Apprentice", "{1}{R}", "Human Wizard", 1, 1, (),
             "When Sparkmage Apprentice enters, it deals 1 damage to any target.",
             abilities=(Triggered(SelfEnters(), (Damage(1, Target(0)),), targets=(ANY_TARGET,),
                                  text="It deals 1 damage to any target."),)),
    creature("Stone Giant", "{2}{R}{R}", "Giant", 3, 4, (),
             "{T}: Target creature you control with toughness less than Stone Giant's power "
             "gains flying until end of turn. Destroy that creature at the beginning of the "
             "next end step.",
             abilities=(Activated(
                 Cost(tap=True),
                 (GrantKeyword(Target(0), FLYING, UNTIL_END_OF_TURN),
                  Delayed(AtEndStep("each"), (Destroy(EVENT_OBJECT),), "Destroy that creature.",
                          about=Target(0))),
                 targets=(TargetSpec("creature", where(
                     "target creature you control with toughness less than Stone Giant's "
                     "power", controller="you", toughness_below_source_power=True)),),
                 text="Target creature you control with toughness less than Stone Giant's "
                      "power gains flying until end of turn; destroy it at the beginning of "
                      "the next end step."),)),
    CardDef(name="Trumpet Blast", types=INSTANT, cost=mana_cost("{2}{R}"),
            text="Attacking creatures get +2/+0 until end of turn.",
            spell=(EachCreatureGets(where("attacking creatures", combat="attacking"), 2, 0),)),
    creature("Viashino Spearhunter", "{2}{R}", "Lizard Warrior", 2, 1, (FIRST_STRIKE,),
              _FIRST_STRIKE),
    creature("Wall of Fire", "{1}{R}{R}", "Wall", 0, 5, (DEFENDER,),
              f"{_DEFENDER}\n{{R}}: Wall of Fire gets +1/+0 until end of turn.",
              abilities=(_pump("Wall of Fire", "{R}", 1, 0),)),
    CardDef(name="Warp World", types=SORCERY, cost=mana_cost("{5}{R}{R}{R}"),
            text="Each player shuffles all permanents they own into their library, then "
                 "reveals that many cards from the top of their library. Each player puts all "
                 "artifact, creature, and land cards revealed this way onto the battlefield, "
                 "then does the same for enchantment cards, then puts all cards revealed this "
                 "way that weren't put onto the battlefield on the bottom of their library.",
            spell=(PermanentsShuffledAndRedealt(frozenset({"Artifact", "Creature", "Land"}),
                                                ENCHANTMENT),)),
    CardDef(name="Yawning Fissure", types=SORCERY, cost=mana_cost("{4}{R}"),
            text="Each opponent sacrifices a land.",
            spell=(SacrificeOne(EACH_OPPONENT, LAND),)),
    creature("Acidic Slime", "{3}{G}{G}", "Ooze", 2, 2, (DEATHTOUCH,),
             f"{_DEATHTOUCH}\nWhen Acidic Slime enters, destroy target artifact, enchantment, or "
             "land.",
             abilities=(Triggered(SelfEnters(), (Destroy(Target(0)),),
                                  targets=(TargetSpec("permanent", where(
                                      "target artifact, enchantment, or land",
                                      types=("Artifact", "Enchantment", "Land"))),),
                                  text="Destroy target artifact, enchantment, or land."),)),
    creature("Ant Queen", "{3}{G}{G}", "Insect", 5, 5, (),
             "{1}{G}: Create a 1/1 green Insect creature token.",
             abilities=(Activated(Cost(mana=mana_cost("{1}{G}")),
                                  (CreateToken("Insect Token", YOU),),
                                  text="Create a 1/1 green Insect creature token."),)),
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
    creature("Borderland Ranger", "{2}{G}", "Human Scout Ranger", 2, 2, (),
             "When Borderland Ranger enters, you may search your library for a basic land "
             "card, reveal it, put it into your hand, then shuffle.",
             abilities=(Triggered(SelfEnters(),
                                  (May((SearchLibrary(YOU, BASIC_LAND_CARD, to=TO_HAND,
                                                      reveal=True),),
                                       prompt="Search your library for a basic land card?"),),
                                  text="You may search your library for a basic land card."),)),
    CardDef(name="Bountiful Harvest", types=SORCERY, cost=mana_cost("{4}{G}"),
            text="You gain 1 life for each land you control.",
            spell=(GainLife(NumberYouControl(where("lands", types=("Land",))), YOU),)),
    creature("Bramble Creeper", "{4}{G}", "Elemental", 0, 3, (),
             "Whenever Bramble Creeper attacks, it gets +5/+0 until end of turn.",
             abilities=(Triggered(Attacks(), (Pump(SELF, 5, 0),),
                                  text="It gets +5/+0 until end of turn."),)),
    creature("Centaur Courser", "{2}{G}", "Centaur Warrior", 3, 3),
    creature("Craw Wurm", "{4}{G}{G}", "Wurm", 6, 4),
    _regenerator("Cudgel Troll", "{2}{G}{G}", "Troll", 4, 3, "{G}"),
    creature("Deadly Recluse", "{1}{G}", "Spider", 1, 2, (REACH, DEATHTOUCH),
              f"{_REACH}\n{_DEATHTOUCH}"),
    creature("Elvish Archdruid", "{1}{G}{G}", "Elf Druid", 2, 2, (),
             "Other Elf creatures you control get +1/+1.\n{T}: Add {G} for each Elf you control.",
             abilities=(CreaturesGet(1, 1, "you", other=True, subtype="Elf"),
                        ManaAbility("G", per_subtype="Elf"))),
    creature("Elvish Piper", "{3}{G}", "Elf Shaman", 1, 1, (),
             "{G}, {T}: You may put a creature card from your hand onto the battlefield.",
             abilities=(Activated(Cost(mana=mana_cost("{G}"), tap=True),
                                  (PutFromHand(CREATURE_CARD),),
                                  text="You may put a creature card from your hand onto the "
                                       "battlefield."),)),
    creature("Elvish Visionary", "{1}{G}", "Elf Shaman", 1, 1, (),
             "When Elvish Visionary enters, draw a card.",
             abilities=(Triggered(SelfEnters(), (Draw(1, YOU),), text="Draw a card."),)),
    creature("Emerald Oryx", "{3}{G}", "Antelope", 2, 3, (Landwalk("Forest"),),
              _walk("Forest")),
    creature("Enormous Baloth", "{6}{G}", "Beast", 7, 7),
    _enchant("Entangling Vines", "{3}{G}", "tapped creature", _TAPPED_CREATURE,
             "Enchanted creature doesn't untap during its controller's untap step.",
             EnchantedCant(untap=True)),
    CardDef(name="Fog", types=INSTANT, cost=mana_cost("{G}"),
            text="Prevent all combat damage that would be dealt this turn.",
            spell=(PreventAllCombatDamage(),)),
    planeswalker("Garruk Wildspeaker", "{2}{G}{G}", "Garruk", 3,
                 "[+1]: Untap two target lands.\n[-1]: Create a 3/3 green Beast creature "
                 "token.\n[-4]: Creatures you control get +3/+3 and gain trample until end of "
                 "turn.",
                 (loyalty_ability(1, (Untap(Target(0)), Untap(Target(1))),
                                  "Untap two target lands.", (_TARGET_LAND, _TARGET_LAND)),
                  loyalty_ability(-1, (CreateToken("Beast Token", YOU),),
                                  "Create a 3/3 green Beast creature token."),
                  loyalty_ability(-4, (EachCreatureGets(_YOUR_CREATURES, 3, 3, TRAMPLE),),
                                  "Creatures you control get +3/+3 and gain trample until end "
                                  "of turn."))),
    _pump_spell("Giant Growth", "{G}", 3, 3),
    creature("Giant Spider", "{3}{G}", "Spider", 2, 4, (REACH,), _REACH),
    creature("Great Sable Stag", "{1}{G}{G}", "Elk", 3, 3,
             (Protection(COLOR, "U"), Protection(COLOR, "B")),
             "This spell can't be countered.\nProtection from blue and from black (This "
             "creature can't be blocked, targeted, dealt damage, or enchanted by anything blue "
             "or black.)", abilities=(CantBeCountered(),)),
    CardDef(name="Howl of the Night Pack", types=SORCERY, cost=mana_cost("{6}{G}"),
            text="Create a 2/2 green Wolf creature token for each Forest you control.",
            spell=(CreateToken("Wolf Token", YOU, _FORESTS),)),
    creature("Kalonian Behemoth", "{5}{G}{G}", "Beast", 9, 9, (SHROUD,), _SHROUD),
    CardDef(name="Lurking Predators", types=ENCHANTMENT, cost=mana_cost("{4}{G}{G}"),
            text="Whenever an opponent casts a spell, reveal the top card of your library. If "
                 "it's a creature card, put it onto the battlefield. Otherwise, you may put that "
                 "card on the bottom of your library.",
            abilities=(Triggered(PlayerCastsSpell(who="opponent"),
                                 (RevealTopCard(CREATURE_CARD),),
                                 text="Reveal the top card of your library."),)),
    creature("Master of the Wild Hunt", "{2}{G}{G}", "Human Shaman", 3, 3, (),
             "At the beginning of your upkeep, create a 2/2 green Wolf creature token.\n{T}: "
             "Tap all untapped Wolf creatures you control. Each Wolf tapped this way deals "
             "damage equal to its power to target creature. That creature deals damage equal "
             "to its power divided as its controller chooses among any number of those "
             "Wolves.",
             abilities=(Triggered(AtUpkeep(), (CreateToken("Wolf Token", YOU),),
                                  text="Create a 2/2 green Wolf creature token."),
                        Activated(Cost(tap=True), (PackStrike("Wolf"),),
                                  targets=(TARGET_CREATURE,),
                                  text="Tap all untapped Wolf creatures you control. Each Wolf "
                                       "tapped this way deals damage equal to its power to "
                                       "target creature."))),
    _pump_spell("Might of Oaks", "{3}{G}", 7, 7),
    creature("Mist Leopard", "{3}{G}", "Cat", 3, 2, (SHROUD,), _SHROUD),
    creature("Mold Adder", "{G}", "Fungus Snake", 1, 1, (),
             "Whenever an opponent casts a blue or black spell, you may put a +1/+1 counter on "
             "Mold Adder.",
             abilities=(Triggered(PlayerCastsSpell(colors=frozenset("UB"), who="opponent"),
                                  (May((PutCounters(SELF, "+1/+1", 1),),
                                       prompt="Put a +1/+1 counter on it?"),),
                                  text="You may put a +1/+1 counter on it."),)),
    CardDef(name="Naturalize", types=INSTANT, cost=mana_cost("{1}{G}"),
            text="Destroy target artifact or enchantment.",
            targets=(_ARTIFACT_OR_ENCHANTMENT,), spell=(Destroy(Target(0)),)),
    CardDef(name="Nature's Spiral", types=SORCERY, cost=mana_cost("{1}{G}"),
            text="Return target permanent card from your graveyard to your hand.",
            targets=(TargetSpec("your_graveyard_card",
                                where("target permanent card from your graveyard",
                                      types=("Artifact", "Creature", "Enchantment", "Land",
                                             "Planeswalker"))),),
            spell=(ReturnToHand(Target(0)),)),
    _aura("Oakenform", "{2}{G}", "gets +3/+3.", EnchantedGets(3, 3)),
    CardDef(name="Overrun", types=SORCERY, cost=mana_cost("{2}{G}{G}{G}"),
            text="Creatures you control get +3/+3 and gain trample until end of turn.",
            spell=(EachCreatureGets(_YOUR_CREATURES, 3, 3, TRAMPLE),)),
    creature("Prized Unicorn", "{3}{G}", "Unicorn", 2, 2, (),
             "All creatures able to block Prized Unicorn do so.",
             abilities=(MustBeBlockedByAll(),)),
    creature("Protean Hydra", "{X}{G}", "Hydra", 0, 0, (),
             "Protean Hydra enters with X +1/+1 counters on it.\nIf damage would be dealt to "
             "Protean Hydra, prevent that damage and remove that many +1/+1 counters from it.\n"
             "Whenever a +1/+1 counter is removed from Protean Hydra, put two +1/+1 counters "
             "on it at the beginning of the next end step.",
             abilities=(EntersWithCounters("+1/+1", X), PreventDamageRemoveCounters("+1/+1"),
                        Triggered(CounterRemovedFromSelf("+1/+1"),
                                  (Delayed(AtEndStep("each"), (PutCounters(SELF, "+1/+1", 2),),
                                           "Put two +1/+1 counters on Protean Hydra."),),
                                  text="Put two +1/+1 counters on it at the beginning of the "
                                       "next end step."))),
    CardDef(name="Rampant Growth", types=SORCERY, cost=mana_cost("{1}{G}"),
            text="Search your library for a basic land card, put that card onto the "
                 "battlefield tapped, then shuffle.",
            spell=(SearchLibrary(YOU, BASIC_LAND_CARD, tapped=True),)),
    CardDef(name="Regenerate", types=INSTANT, cost=mana_cost("{1}{G}"),
            text=f"Regenerate target creature. {_regeneration('that creature')}",
            targets=(TARGET_CREATURE,), spell=(Regenerate(Target(0)),)),
    creature("Stampeding Rhino", "{4}{G}", "Rhino", 4, 4, (TRAMPLE,), _TRAMPLE),
    CardDef(name="Windstorm", types=INSTANT, cost=mana_cost("{X}{G}"),
            text="Windstorm deals X damage to each creature with flying.",
            spell=(Damage(X, EACH_CREATURE_WITH_FLYING),)),
    _life_when_cast("Angel's Feather", "W"),
    CardDef(name="Coat of Arms", types=ARTIFACT, cost=mana_cost("{5}"),
            text="Each creature gets +1/+1 for each other creature on the battlefield that "
                 "shares at least one creature type with it. (For example, if two Goblin "
                 "Warriors and a Goblin Shaman are on the battlefield, each gets +2/+2.)",
            abilities=(SharedTypeBonus(),)),
    creature("Darksteel Colossus", "{11}", "Golem", 11, 11, (TRAMPLE, INDESTRUCTIBLE),
             "Trample, indestructible\nIf Darksteel Colossus would be put into a graveyard "
             "from anywhere, reveal Darksteel Colossus and shuffle it into its owner's library "
             "instead.", types=ARTIFACT_CREATURE, abilities=(ShuffleIntoLibraryInstead(),)),
    _life_when_cast("Demon's Horn", "B"),
    _life_when_cast("Dragon's Claw", "R"),
    _equipment("Gorgon Flail", "{2}",
               "Equipped creature gets +1/+1 and has deathtouch. (Any amount of damage it "
               f"deals to a creature is enough to destroy that creature.)\n{_EQUIP}",
               EnchantedGets(1, 1, (DEATHTOUCH,))),
    CardDef(name="Howling Mine", types=ARTIFACT, cost=mana_cost("{2}"),
            text="At the beginning of each player's draw step, if Howling Mine is untapped, "
                 "that player draws an additional card.",
            abilities=(Triggered(AtDrawStep("each", per_player=True), (Draw(1, EVENT_PLAYER),),
                                 condition=SourceUntapped(),
                                 text="That player draws an additional card."),)),
    _life_when_cast("Kraken's Eye", "U"),
    _equipment("Magebane Armor", "{3}",
               "Equipped creature gets +2/+4 and loses flying.\nPrevent all noncombat damage "
               f"that would be dealt to equipped creature.\n{_EQUIP}",
               EnchantedGets(2, 4, loses=(FLYING,)), PreventNoncombatDamageToEnchanted()),
    CardDef(name="Mirror of Fate", types=ARTIFACT, cost=mana_cost("{5}"),
            text="{T}, Sacrifice Mirror of Fate: Choose up to seven face-up exiled cards you "
                 "own. Exile all the cards from your library, then put the chosen cards on top "
                 "of your library.",
            abilities=(Activated(Cost(tap=True, sacrifice_self=True), (LibraryFromExile(7),),
                                 text="Choose up to seven face-up exiled cards you own."),)),
    creature("Ornithopter", "{0}", "Thopter", 0, 2, (FLYING,), "Flying",
              types=ARTIFACT_CREATURE),
    CardDef(name="Pithing Needle", types=ARTIFACT, cost=mana_cost("{1}"),
            text="As Pithing Needle enters, choose a card name.\nActivated abilities of sources "
                 "with the chosen name can't be activated unless they're mana abilities.",
            abilities=(ChooseCardName(), NamedCantBeActivated())),
    CardDef(name="Rod of Ruin", types=ARTIFACT, cost=mana_cost("{4}"),
            text="{3}, {T}: Rod of Ruin deals 1 damage to any target.",
            abilities=(Activated(Cost(mana_cost("{3}"), tap=True), (Damage(1, Target(0)),),
                                 targets=(ANY_TARGET,),
                                 text="Rod of Ruin deals 1 damage to any target."),)),
    CardDef(name="Spellbook", types=ARTIFACT, cost=mana_cost("{0}"),
            text="You have no maximum hand size.", abilities=(NoMaximumHandSizeStatic(),)),
    _equipment("Whispersilk Cloak", "{3}",
               "Equipped creature can't be blocked and has shroud. (It can't be the target of "
               "spells or abilities.)\nEquip {2}",
               EnchantedGets(0, 0, (SHROUD,)), EnchantedCant(be_blocked=True)),
    _life_when_cast("Wurm's Tooth", "G"),
    _dual("Dragonskull Summit", "Swamp", "Mountain", "BR"),
    _dual("Drowned Catacomb", "Island", "Swamp", "UB"),
    CardDef(name="Gargoyle Castle", types=LAND,
            text="{T}: Add {C}.\n{5}, {T}, Sacrifice Gargoyle Castle: Create a 3/4 colorless "
                 "Gargoyle artifact creature token with flying.",
            abilities=(ManaAbility("C"),
                       Activated(Cost(mana=mana_cost("{5}"), tap=True, sacrifice_self=True),
                                 (CreateToken("Gargoyle Token", YOU),),
                                 text="Create a 3/4 colorless Gargoyle artifact creature token "
                                      "with flying."))),
    _dual("Glacial Fortress", "Plains", "Island", "WU"),
    _dual("Rootbound Crag", "Mountain", "Forest", "RG"),
    _dual("Sunpetal Grove", "Forest", "Plains", "GW"),
    CardDef(name="Terramorphic Expanse", types=LAND,
            text="{T}, Sacrifice Terramorphic Expanse: Search your library for a basic land "
                 "card, put it onto the battlefield tapped, then shuffle.",
            abilities=(Activated(Cost(tap=True, sacrifice_self=True),
                                 (SearchLibrary(YOU, BASIC_LAND_CARD, tapped=True),),
                                 text="Search your library for a basic land card."),)),
]
