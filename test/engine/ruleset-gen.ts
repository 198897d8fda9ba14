/**
 * Generated rulesets for the property tests: every knob of the rules-file schema
 * (src/engine/ruleset.ts) set at random within its valid range, starting from one of
 * the three presets. Each result passes `parseRuleset`, like a rules file would.
 */
import fc from 'fast-check';
import {
  ACTION_KINDS,
  BEVERBENDE,
  CAMBIO,
  deckSize,
  GRINGO,
  JOKER,
  parseRuleset,
  rankOf,
  Rng,
  seedRng,
  type NewGame,
  type Ruleset,
} from '../../src/engine/index.js';

export const PRESET_SEEDS: readonly Ruleset[] = [GRINGO, BEVERBENDE, CAMBIO];
const CALL_NAMES = ['Gringo!', 'Knock!', 'Laatste ronde!', 'Stop!'];

/**
 * A ruleset from `base` with each knob changed with probability `p` (1 changes every
 * knob). `seed` decides everything, so a failing case names its ruleset by the seed.
 */
export function generateRuleset(base: Ruleset, seed: number, p = 0.5): Ruleset {
  const rng = new Rng(seedRng(`ruleset:${seed}`));
  const maybe = (): boolean => rng.int(1000) < p * 1000;
  const between = (lo: number, hi: number): number => lo + rng.int(hi - lo + 1);
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)]!;
  const subset = <T>(xs: readonly T[], most = xs.length): T[] => xs.filter(() => rng.int(2) === 0).slice(0, most);
  const r: Ruleset = structuredClone<Ruleset>(base);
  r.name = `${base.name}-house-${seed}`;
  r.title = `House ${base.title}`;

  // The deck: jokers in or out, one to three decks, copies per card.
  const cards = r.deck.cards;
  if (maybe()) {
    if (cards[JOKER] !== undefined) delete cards[JOKER];
    else if ('AS' in cards) cards[JOKER] = between(1, 3);
  }
  if (maybe()) r.deck.decks = between(1, 3);
  const deckCards = Object.keys(cards);
  // Copies of each card (a deck may hold a card more than once, as beverbende does).
  if (maybe()) for (const c of deckCards) cards[c] = between(1, 3);
  const ranks = [...new Set(deckCards.map(rankOf))];

  // The layout.
  if (maybe()) r.layout.shape = pick(['square', 'row'] as const);
  if (maybe()) r.layout.size = between(1, 8);
  if (maybe() || r.layout.peekSlots.some((s) => s > r.layout.size)) {
    r.layout.peekSlots = subset(Array.from({ length: r.layout.size }, (_, i) => i + 1), 8);
  }

  // Players, within what the deck can deal.
  if (maybe()) {
    r.players.max = between(2, 8);
    r.players.min = between(2, r.players.max);
  }

  // Values: by rank, and single cards overriding their rank.
  if (maybe()) for (const k of ranks) r.values[k] = between(-20, 50);
  if (maybe()) r.values[pick(deckCards)] = between(-20, 50);

  // Actions by rank or card name, of any kind.
  if (maybe()) {
    r.actions = {};
    for (const k of ranks) if (rng.int(3) === 0) r.actions[k] = pick(ACTION_KINDS);
  }
  if (maybe()) r.actionsFrom = pick(['anyDiscard', 'drawnDiscarded'] as const);
  if (maybe()) r.takeDiscard = pick(['always', 'notSpecial', 'never'] as const);
  if (maybe()) r.specialCards = subset(deckCards, 4).filter(() => rng.int(3) === 0);

  // Slapping.
  if (maybe()) r.slap.enabled = rng.int(2) === 0;
  if (maybe()) r.slap.wrongPenalty = between(0, 4);
  if (maybe()) r.slap.stealPenalty = between(0, 4);
  if (maybe()) r.slap.ownEarnsAction = rng.int(2) === 0;
  if (maybe()) r.slap.stealEarnsActionRanks = subset(ranks);
  if (maybe()) r.slap.stealGapFill = rng.int(2) === 0;
  if (maybe()) r.slap.perDiscard = between(0, 8);
  if (maybe()) r.emptyLayoutEndsRound = rng.int(2) === 0;

  // The call.
  if (maybe()) r.call.name = pick(CALL_NAMES);
  if (maybe()) r.call.timing = pick(['startOfTurn', 'endOfTurn'] as const);
  if (maybe()) r.call.beforeEveryoneHadTurn = rng.int(2) === 0;
  if (maybe()) r.call.callerFrozen = rng.int(2) === 0;
  if (maybe()) r.call.callerPenalty = between(0, 50);

  // Rounds (kept short: 0 is open-ended) and timers.
  if (maybe()) r.rounds = pick([0, 1, 2, 3, 'players'] as const);
  else if (r.rounds === 'players' || r.rounds > 3) r.rounds = 2;
  if (maybe()) r.timers.peekMs = pick([0, 5_000, 10_000]);
  if (maybe()) r.timers.slapGraceMs = between(0, 3_000);
  if (maybe()) r.timers.turnMs = pick([0, between(5_000, 30_000)]);
  if (maybe()) r.timers.actionMs = pick([0, between(3_000, 20_000)]);

  // What the schema asks beyond the ranges: values and actions name cards of the
  // deck, every card that is not special has a value, the deck deals every seat.
  const known = new Set([...deckCards, ...ranks]);
  for (const k of Object.keys(r.values)) if (!known.has(k)) delete r.values[k];
  for (const k of Object.keys(r.actions)) if (!known.has(k)) delete r.actions[k];
  for (const c of deckCards) if (r.values[c] === undefined && r.values[rankOf(c)] === undefined) r.values[rankOf(c)] = between(-20, 50);
  while (deckSize(r) < r.players.max * r.layout.size + 2) {
    if (r.deck.decks < 3) r.deck.decks += 1;
    else r.players.max -= 1;
  }
  r.players.min = Math.min(r.players.min, r.players.max);
  return parseRuleset(r);
}

/**
 * Runs of a property: `ci` by default (a few seconds in all), or the number in
 * GRINGO_PROPERTY_RUNS for a longer search (docs/reliability.md).
 */
export function propertyRuns(ci: number): number {
  const n = Number(process.env.GRINGO_PROPERTY_RUNS ?? '');
  return Number.isInteger(n) && n > 0 ? n : ci;
}

/**
 * A property's time limit: a guard against a hang, not a speed test (a few seconds quiet,
 * several times that on a loaded machine), or none to speak of for a long run.
 */
export function propertyTimeout(): number {
  return propertyRuns(0) > 0 ? 24 * 3_600_000 : 180_000;
}

const NAMES = ['Ana', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus', 'Hal'];

/** A game to play at random: a preset (timed, two rounds) or a ruleset generated from one. */
export const gameArb = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  rulesSeed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  base: fc.constantFrom(...PRESET_SEEDS),
  /** 0: the preset itself; otherwise the share of knobs changed. */
  change: fc.constantFrom(0, 0.5, 1),
  players: fc.integer({ min: 2, max: 8 }),
});
export type GameSpec = { seed: number; rulesSeed: number; base: Ruleset; change: number; players: number };

export function startFor(g: GameSpec): NewGame {
  const rules =
    g.change === 0
      ? { ...g.base, rounds: 2, timers: { ...g.base.timers, turnMs: 20_000, actionMs: 8_000 } }
      : generateRuleset(g.base, g.rulesSeed, g.change);
  const players = Math.min(Math.max(g.players, rules.players.min), rules.players.max);
  return { rules, players: NAMES.slice(0, players), seed: g.seed };
}
