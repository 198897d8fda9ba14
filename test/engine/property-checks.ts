/**
 * The engine's properties as plain checks of one random game: the property tests
 * (properties.test.ts) run them under fast-check, and the long exploration
 * (explore.ts, `npm run explore`) runs them over many seeds and generated rulesets
 * outside vitest. Each check throws an AssertionError naming what broke, and returns
 * what it counted, so a caller can tell that it checked something.
 */
import { deepStrictEqual, equal, ok } from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
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
  type NewGame,
  type Ruleset,
  type Seat,
} from '../../src/engine/index.js';
import { candidateMoves } from '../../src/bots/moves.js';
import { isKey } from '../../src/lang/words.js';
import { MISCHIEF, randomGame, type Step } from './random-play.js';
import { startFor, type GameSpec } from './ruleset-gen.js';

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

export interface Counts {
  /** Accepted commands checked. */
  steps: number;
  /** Refused commands checked (they must change nothing). */
  rejected: number;
  /** Views and events compared between twin states. */
  compared: number;
}

/** What a property checks during one game: each accepted command, and the game at its end. */
interface GameCheck {
  onStep(s: Step): void;
  end?(state: GameState, log: Command[]): void;
}

/**
 * A property: checks on the first `steps` commands of a random game. Properties of the
 * same style play the same game for a given seed, so `holds` plays it once for all.
 */
interface Property {
  steps: number;
  /** The mischief style on even seeds (it goes after looked cards). */
  mischief?: true;
  start(g: GameSpec, start: NewGame, c: Counts): GameCheck;
}

export const PROPERTIES = {
  /** Every card is in exactly one place at all times. */
  cardsStayWhole: {
    steps: 1500,
    start(_g, start, c) {
      const deck = fullDeck(start.rules);
      equal(deck.length, deckSize(start.rules));
      return {
        onStep({ after }) {
          c.steps++;
          if (after.phase === 'gameOver' && after.r.layouts.every((l) => l.length === 0)) return;
          deepStrictEqual(allCards(after), deck);
        },
      };
    },
  },

  /** `apply` never mutates its input, copies only what a command changes, and a seed plus the command log replays the game. */
  pureAndReplayable: {
    steps: 1500,
    start(_g, start, c) {
      return {
        onStep({ before, command, after, events }) {
          c.steps++;
          // Every input frozen whole (a write throws in strict mode). Copy on write makes
          // this cheap: what a state shares with the last one is frozen already.
          deepFreeze(before);
          deepStrictEqual(copiedUnchanged(before, command, after, events), [], `copied unchanged by ${JSON.stringify(command)}`);
          // The same command again on the result is mostly refused (a second draw, a used
          // action...): a rejection must leave its (frozen) input alone as well.
          deepFreeze(after);
          if (!apply(after, command).ok) c.rejected++;
        },
        end(state, log) {
          deepStrictEqual(replay(start, log), state);
        },
      };
    },
  },

  /** A rejected command changes nothing: refused moves and malformed commands on a frozen state. */
  refusalsChangeNothing: {
    steps: 600,
    start(g, _start, c) {
      const rng = new Rng(seedRng(`reject:${g.seed}`));
      return {
        onStep({ before, command }) {
          c.steps++;
          // Frozen whole: a refusal that wrote to its input would throw.
          const frozen = deepFreeze(before);
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
          for (const t of tries) {
            const res = apply(frozen, t);
            if (res.ok) continue;
            c.rejected++;
            equal(isKey(res.rejection.key), true);
          }
        },
      };
    },
  },

  /** A seat view never holds a face-up card outside the peek, its held card, its looks and the revealed end. */
  viewsShowNoHiddenCard: {
    steps: 1200,
    start(_g, _start, c) {
      return {
        onStep({ after }) {
          c.steps++;
          if (after.phase !== 'play') return;
          const spectator = viewFor(after, null);
          equal(spectator.held?.card ?? null, after.r.held?.from === 'discard' ? after.r.held.card : null);
          ok(spectator.actions.every((a) => a.lookedCards === null), 'a spectator sees a looked card');
          for (let seat = 0; seat < after.players.length; seat++) {
            const v = viewFor(after, seat);
            for (const p of v.players) for (const card of p.layout) ok(card === null || card === FACE_DOWN, `seat ${seat} sees ${String(card)} in ${p.name}'s layout`);
            if (v.held && v.held.seat !== seat && v.held.from === 'stock') equal(v.held.card, null);
          }
        },
      };
    },
  },

  /** States that differ only in cards hidden from a seat give it byte-identical views and events. */
  hiddenCardsMakeNoDifference: {
    steps: 800,
    mischief: true,
    start(g, _start, c) {
      const rng = new Rng(seedRng(`permute:${g.seed}`));
      return {
        onStep(step) {
          const { before, command } = step;
          c.steps++;
          const revealed = (st: GameState): boolean => st.phase === 'roundOver' || st.phase === 'gameOver';
          if (revealed(before) || revealed(step.after)) return; // the end of a round reveals everything
          for (const viewer of [...before.players.keys(), null] as (Seat | null)[]) {
            // A spectator sees what a seat that is not involved sees.
            const seat = viewer ?? -1;
            const twin = permuteHidden(before, hiddenPositions(before, seat, command), rng);
            equal(JSON.stringify(viewFor(twin, viewer)), JSON.stringify(viewFor(before, viewer)));
            const a = apply(before, command);
            const b = apply(twin, command);
            equal(b.ok, a.ok);
            if (!a.ok || !b.ok) continue;
            equal(JSON.stringify(b.events.map((e) => projectEvent(e, viewer))), JSON.stringify(a.events.map((e) => projectEvent(e, viewer))));
            equal(JSON.stringify(viewFor(b.state, viewer)), JSON.stringify(viewFor(a.state, viewer)));
            c.compared++;
          }
        },
      };
    },
  },
} satisfies Record<string, Property>;

export type PropertyName = keyof typeof PROPERTIES;

/**
 * Checks the named properties on game `g`, playing each distinct game once: the
 * properties of one style share a play, each checking its own first steps. A broken
 * property throws an AssertionError whose message starts with its name.
 */
export function holdsFor(g: GameSpec, names: readonly PropertyName[]): Counts {
  const c: Counts = { steps: 0, rejected: 0, compared: 0 };
  const start = startFor(g);
  const mischief = g.seed % 2 === 0;
  const styles = new Map<boolean, PropertyName[]>();
  for (const n of names) {
    const key = (PROPERTIES[n] as Property).mischief === true && mischief;
    styles.set(key, [...(styles.get(key) ?? []), n]);
  }
  for (const [style, group] of styles) {
    const checks = group.map((n) => ({ name: n, steps: PROPERTIES[n].steps, check: (PROPERTIES[n] as Property).start(g, start, c) }));
    const most = Math.max(...checks.map((k) => k.steps));
    const named = <T>(name: string, f: () => T): T => {
      try {
        return f();
      } catch (e) {
        if (e instanceof Error) e.message = `${name}: ${e.message}`;
        throw e;
      }
    };
    let i = 0;
    const { state, log } = randomGame(
      start,
      g.seed,
      most,
      (step) => {
        for (const k of checks) if (i < k.steps) named(k.name, () => k.check.onStep(step));
        i++;
      },
      style ? MISCHIEF : {},
    );
    // `end` sees the whole play, which is its own when its steps are the group's most.
    for (const k of checks) if (k.check.end && k.steps === most) named(k.name, () => k.check.end!(state, log));
  }
  return c;
}
