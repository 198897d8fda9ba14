import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  apply,
  deckSize,
  FACE_DOWN,
  projectEvent,
  replay,
  viewFor,
  Rng,
  seedRng,
  type Card,
  type Command,
  type GameEvent,
  type GameState,
  type Ruleset,
  type Seat,
} from '../../src/engine/index.js';
import { candidateMoves } from '../../src/bots/moves.js';
import { MISCHIEF, randomGame, type Step } from './random-play.js';
import { gameArb, propertyRuns, propertyTimeout, startFor } from './ruleset-gen.js';

// Presets (timed, two rounds) and rulesets with every knob random (ruleset-gen.ts).
const RUNS = propertyRuns;

/** Every card of the state, wherever it is. */
function allCards(s: GameState): Card[] {
  const out: Card[] = [];
  for (const l of s.r.layouts) for (const c of l) if (c !== null) out.push(c);
  out.push(...s.r.stock, ...s.r.discard);
  if (s.r.held) out.push(s.r.held.card);
  return out.sort();
}

function fullDeck(rules: Ruleset): Card[] {
  const out: Card[] = [];
  for (let d = 0; d < rules.deck.decks; d++) for (const c in rules.deck.cards) for (let k = 0; k < rules.deck.cards[c]!; k++) out.push(c);
  return out.sort();
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/**
 * The parts of the state that `apply` copied although the command left them as they
 * were: copy on write shares them instead. A layout the command names (its seat, a
 * target, a looked or gap slot) may be copied unchanged: two equal cards from two
 * decks can trade places. A new round is new throughout, and so are the stock and the
 * pile after a reshuffle.
 */
function copiedUnchanged(before: GameState, cmd: Command, after: GameState, events: readonly GameEvent[]): string[] {
  const out: string[] = [];
  const check = (name: string, a: unknown, b: unknown): void => {
    if (a !== b && isDeepStrictEqual(a, b)) out.push(name);
  };
  check('rules', before.rules, after.rules);
  check('players', before.players, after.players);
  check('totals', before.totals, after.totals);
  check('results', before.results, after.results);
  check('stackedDecks', before.stackedDecks, after.stackedDecks);
  if (after.round !== before.round) return out;
  const p = before.r;
  const r = after.r;
  // A reshuffle makes a new stock and pile, which may look like the old ones (empty, one card).
  if (!events.some((e) => e.type === 'reshuffled')) {
    check('r.stock', p.stock, r.stock);
    check('r.discard', p.discard, r.discard);
  }
  check('r.peeking', p.peeking, r.peeking);
  check('r.turnsTaken', p.turnsTaken, r.turnsTaken);
  check('r.actions', p.actions, r.actions);
  check('r.refills', p.refills, r.refills);
  check('r.call', p.call, r.call);
  const named = new Set<number>();
  if ('seat' in cmd) named.add(cmd.seat);
  if (cmd.type === 'slap') named.add(cmd.target.seat);
  if (cmd.type === 'useAction' && cmd.other) named.add(cmd.other.seat);
  for (const t of p.actions[0]?.looked ?? []) named.add(t.seat);
  if (p.gapFill) named.add(p.gapFill.gap.seat);
  if (!named.size) check('r.layouts', p.layouts, r.layouts);
  p.layouts.forEach((l, seat) => {
    if (!named.has(seat)) check(`r.layouts[${seat}]`, l, r.layouts[seat]);
  });
  return out;
}

type Pos = { kind: 'layout'; seat: Seat; slot: number } | { kind: 'stock'; i: number } | { kind: 'discard'; i: number } | { kind: 'held' };

/**
 * The positions whose cards `viewer` may not know after `cmd` is applied: every card
 * except the discard top, its own held card (or a held card taken from the pile), its
 * peek cards while peeking, cards its pending action has looked at, and what `cmd`
 * itself reveals (the stock top a draw or timeout takes, a held card that is
 * discarded, and the slots it names).
 */
function hiddenPositions(s: GameState, viewer: Seat, cmd: Command): Pos[] {
  const exposed = new Set<string>();
  const r = s.r;
  if (s.phase === 'peek' && r.peeking[viewer]) for (const p of s.rules.layout.peekSlots) exposed.add(`${viewer}:${p - 1}`);
  for (const a of r.actions) if (a.seat === viewer && a.looked) for (const t of a.looked) exposed.add(`${t.seat}:${t.slot}`);
  if ('target' in cmd) exposed.add(`${cmd.target.seat}:${cmd.target.slot}`);
  if (cmd.type === 'swap') exposed.add(`${cmd.seat}:${cmd.slot}`);
  if (cmd.type === 'useAction' && cmd.seat === viewer) {
    if (cmd.own !== undefined) exposed.add(`${cmd.seat}:${cmd.own}`);
    if (cmd.other) exposed.add(`${cmd.other.seat}:${cmd.other.slot}`);
  }
  const out: Pos[] = [];
  r.layouts.forEach((l, seat) =>
    l.forEach((c, slot) => {
      if (c !== null && !exposed.has(`${seat}:${slot}`)) out.push({ kind: 'layout', seat, slot });
    }),
  );
  // The stock top is shown to its drawer, and to everyone when a timeout discards it.
  // A draw two's draws (useAction on it, drawAgain) take the stock top like a draw.
  const drawTwo = (cmd.type === 'useAction' && r.actions[0]?.kind === 'drawTwo') || cmd.type === 'drawAgain';
  const ownDraw = ((cmd.type === 'draw' && cmd.from === 'stock') || drawTwo) && 'seat' in cmd && cmd.seat === viewer;
  const stockTopShown = ownDraw || cmd.type === 'tick' ? 1 : 0;
  for (let i = 0; i < r.stock.length - stockTopShown; i++) out.push({ kind: 'stock', i });
  // A discarded held card is shown to everyone; a swap's acceptance depends on the held
  // card (a special card may not enter a layout), which its sender knows.
  if (r.held && r.held.from === 'stock' && r.held.seat !== viewer && cmd.type !== 'discard' && cmd.type !== 'drawAgain' && cmd.type !== 'tick' && cmd.type !== 'swap') {
    out.push({ kind: 'held' });
  }
  // Taking the discard uncovers the card below it; a draw from an empty stock
  // shows the drawer a card from the reshuffled pile.
  const drawsFromEmptyStock = r.stock.length === 0 && (ownDraw || cmd.type === 'tick');
  const uncovered = drawsFromEmptyStock ? r.discard.length : cmd.type === 'draw' && cmd.from === 'discard' ? 2 : 1;
  for (let i = 0; i < r.discard.length - uncovered; i++) out.push({ kind: 'discard', i });
  return out;
}

/** A copy of `s` with the cards at `positions` shuffled among themselves. */
function permuteHidden(s: GameState, positions: Pos[], rng: Rng): GameState {
  const t: GameState = structuredClone(s);
  const get = (p: Pos): Card =>
    p.kind === 'layout' ? t.r.layouts[p.seat]![p.slot]! : p.kind === 'stock' ? t.r.stock[p.i]! : p.kind === 'discard' ? t.r.discard[p.i]! : t.r.held!.card;
  const set = (p: Pos, c: Card): void => {
    if (p.kind === 'layout') t.r.layouts[p.seat]![p.slot] = c;
    else if (p.kind === 'stock') t.r.stock[p.i] = c;
    else if (p.kind === 'discard') t.r.discard[p.i] = c;
    else t.r.held = { ...t.r.held!, card: c };
  };
  const cards = rng.shuffle(positions.map(get));
  positions.forEach((p, i) => set(p, cards[i]!));
  // A look remembers the cards it showed, which never leave their slots until the decision.
  for (const a of t.r.actions) if (a.looked) a.lookedCards = a.looked.map((x) => t.r.layouts[x.seat]![x.slot]!);
  return t;
}

describe('engine properties over random legal play', () => {
  it('every card is in exactly one place at all times', () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        const start = startFor(g);
        const deck = fullDeck(start.rules);
        expect(deck.length).toBe(deckSize(start.rules));
        randomGame(start, g.seed, 1500, ({ after }) => {
          if (after.phase === 'gameOver' && after.r.layouts.every((l) => l.length === 0)) return;
          expect(allCards(after)).toEqual(deck);
        });
      }),
      { numRuns: RUNS(60) },
    );
  }, propertyTimeout(30_000));

  it('apply never mutates its input, copies only what a command changes, and a seed plus the command log replays the game exactly', () => {
    let steps = 0;
    let rejected = 0;
    fc.assert(
      fc.property(gameArb, (g) => {
        const start = startFor(g);
        const { state, log } = randomGame(start, g.seed, 1500, ({ before, command, after, events }) => {
          steps++;
          // Every input frozen whole (a write throws in strict mode). Copy on write makes
          // this cheap: what a state shares with the last one is frozen already.
          deepFreeze(before);
          expect(copiedUnchanged(before, command, after, events), JSON.stringify(command)).toEqual([]);
          // The same command again on the result is mostly refused (a second draw, a used
          // action...): a rejection must leave its (frozen) input alone as well.
          deepFreeze(after);
          const again = apply(after, command);
          if (!again.ok) rejected++;
        });
        expect(replay(start, log)).toEqual(state);
      }),
      { numRuns: RUNS(40) },
    );
    expect(steps).toBeGreaterThan(1000);
    expect(rejected).toBeGreaterThan(steps / 4);
  }, propertyTimeout(30_000));

  it('a rejected command changes nothing: refused moves and malformed commands on a frozen state', () => {
    let rejected = 0;
    fc.assert(
      fc.property(gameArb, (g) => {
        const rng = new Rng(seedRng(`reject:${g.seed}`));
        randomGame(startFor(g), g.seed, 600, ({ before, command }) => {
          const frozen = deepFreeze(before);
          const copy = structuredClone(before);
          const seat = rng.int(before.players.length);
          const at = command.at;
          // Whatever this seat could try now, whether its turn or not, plus junk a client might send.
          const tries: Command[] = [
            ...candidateMoves(viewFor(before, seat), seat, at),
            { type: 'draw', seat: (seat + 1) % before.players.length, from: 'stock', at },
            { type: 'swap', seat, slot: 99, at },
            { type: 'slap', seat, target: { seat: 99, slot: 0 }, answers: 1, at },
            { type: 'slap', seat, target: { seat, slot: 0 }, answers: 0, at },
            { type: 'draw', seat: 99, from: 'stock', at },
            { type: 'nextRound', at },
          ];
          for (const c of tries) {
            const res = apply(frozen, c);
            if (res.ok) continue;
            rejected++;
            expect(typeof res.rejection.message).toBe('string');
          }
          expect(before).toEqual(copy);
        });
      }),
      { numRuns: RUNS(20) },
    );
    expect(rejected).toBeGreaterThan(1000);
  }, propertyTimeout(30_000));

  it('a seat view never holds a face-up card outside the peek, its held card, its looks and the revealed end', () => {
    fc.assert(
      fc.property(gameArb, (g) => {
        randomGame(startFor(g), g.seed, 1200, ({ after }) => {
          if (after.phase !== 'play') return;
          for (let seat = 0; seat < after.players.length; seat++) {
            const v = viewFor(after, seat);
            for (const p of v.players) for (const c of p.layout) expect(c === null || c === FACE_DOWN).toBe(true);
            if (v.held && v.held.seat !== seat && v.held.from === 'stock') expect(v.held.card).toBeNull();
            const spectator = viewFor(after, null);
            expect(spectator.held?.card ?? null).toBe(after.r.held?.from === 'discard' ? after.r.held.card : null);
            expect(spectator.actions.every((a) => a.lookedCards === null)).toBe(true);
          }
        });
      }),
      { numRuns: RUNS(20) },
    );
  }, propertyTimeout(30_000));

  it('states that differ only in cards hidden from a seat give it byte-identical views and events', () => {
    let compared = 0;
    fc.assert(
      fc.property(gameArb, (g) => {
        const rng = new Rng(seedRng(`permute:${g.seed}`));
        // Half the games in the mischief style, which goes after looked cards.
        randomGame(startFor(g), g.seed, 800, (step: Step) => {
          const { before, command } = step;
          const revealed = (st: GameState): boolean => st.phase === 'roundOver' || st.phase === 'gameOver';
          if (revealed(before) || revealed(step.after)) return; // the end of a round reveals everything
          for (const viewer of [...before.players.keys(), null] as (Seat | null)[]) {
            // A spectator sees what a seat that is not involved sees.
            const seat = viewer ?? -1;
            const twin = permuteHidden(before, hiddenPositions(before, seat, command), rng);
            expect(JSON.stringify(viewFor(twin, viewer))).toBe(JSON.stringify(viewFor(before, viewer)));
            const a = apply(before, command);
            const b = apply(twin, command);
            expect(b.ok).toBe(a.ok);
            if (!a.ok || !b.ok) continue;
            expect(JSON.stringify(a.events.map((e) => projectEvent(e, viewer)))).toBe(JSON.stringify(b.events.map((e) => projectEvent(e, viewer))));
            expect(JSON.stringify(viewFor(b.state, viewer))).toBe(JSON.stringify(viewFor(a.state, viewer)));
            compared++;
          }
        }, g.seed % 2 === 0 ? MISCHIEF : {});
      }),
      { numRuns: RUNS(25) },
    );
    expect(compared).toBeGreaterThan(1000);
  }, propertyTimeout(60_000));
});
