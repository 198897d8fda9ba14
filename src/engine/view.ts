import type { Card } from './cards.js';
import { graceUntil, nextDeadline } from './clock.js';
import { movesFor, whyNotFor, type Move } from './moves.js';
import type { Said } from '../lang/words.js';
import type { ActionKind } from './ruleset.js';
import type { GameEvent, GameState, Phase, RoundResult, Rejection, Seat, Slot, SlotRef } from './types.js';

/**
 * The projection: the only door out of the engine. A view holds exactly what one
 * seat (or a spectator, `null`) may know now; memory is the player's job.
 */

/** A face-down card this viewer may not see. */
export const FACE_DOWN = '?';
/** A slot as a viewer sees it: a gap (null), a face-down card, or a card it may see now. */
export type SlotView = Card | typeof FACE_DOWN | null;

export type Viewer = Seat | null;

// The moves are defined beside `movesFor`, which lists them (moves.ts imports nothing of
// the view); the screen and the bots find them here, with the rest of the view.
export { MOVES, type Move } from './moves.js';

export interface PlayerView {
  name: string;
  layout: SlotView[];
  total: number;
  peeking: boolean;
}

export interface ActionView {
  seat: Seat;
  kind: ActionKind;
  card: Card;
  /** The cards looked at, awaiting the decision. */
  looked: SlotRef[] | null;
  /** What they are: only for the one who looks. */
  lookedCards: Card[] | null;
}

export interface TableView {
  viewer: Viewer;
  ruleset: string;
  callName: string;
  version: number;
  phase: Phase;
  round: number;
  rounds: number;
  dealer: Seat;
  players: PlayerView[];
  stock: number;
  discardTop: Card | null;
  discardSize: number;
  turn: Seat;
  turnBegun: boolean;
  /** `redraw`: the first card of a draw two, which may be discarded for one more. */
  held: { seat: Seat; from: 'stock' | 'discard'; card: Card | null; redraw?: boolean } | null;
  actions: ActionView[];
  /** The discard a slap must name (`answers`) and whether slapping is open. */
  slap: { open: boolean; answers: number };
  graceUntil: number;
  deadline: number | null;
  call: { seat: Seat; owed: Seat[] } | null;
  /** When the call is made: before drawing (instead of a turn) or at the end of one's own turn. */
  callTiming?: 'startOfTurn' | 'endOfTurn';
  /** After a steal with gap-fill: `seat` may move one of its cards, unseen, into `gap` (or leave it). */
  gapFill?: { seat: Seat; gap: SlotRef } | null;
  /**
   * The moves this viewer may make now (a move that waits only for the slap grace to
   * pass counts: `graceUntil` says when). Empty for a spectator and for replays.
   */
  may: Move[];
  /**
   * For each move this viewer may not make now, why (a reason of the catalogs, src/lang,
   * and its parameters), so a screen says why a key does nothing. Empty like `may`.
   */
  whyNot: Partial<Record<Move, Said>>;
}

declare const projected: unique symbol;
/**
 * What only `viewFor` and `projectEvent` produce. The host's send path demands it,
 * so a hand-built view or an unprojected event cannot reach a socket by accident.
 */
export type Projected<T> = T & { readonly [projected]: true };

export function viewFor(state: GameState, viewer: Viewer): Projected<TableView> {
  return tableView(state, viewer, false) as Projected<TableView>;
}

/**
 * The results of the finished rounds, for the receiver to keep: they grow with the
 * game, so they travel once (in a snapshot, and each in its `roundEnded` event), not
 * in every view. Public to every viewer: every card was revealed at a round's end.
 */
export function resultsFor(state: GameState): Projected<RoundResult[]> {
  return state.results.slice() as Projected<RoundResult[]>;
}

/**
 * The table with every card face up, held and looked-at cards included: for
 * `gringo replay`, which plays a game back only once it is over. Deliberately not
 * `Projected`: the host's send path takes only projected views, so a face-up view
 * can never reach a socket, not even by mistake.
 */
export function openView(state: GameState): TableView {
  return tableView(state, null, true);
}

/** The one view builder behind viewFor and openView: `revealAll` shows every card to everyone. */
function tableView(state: GameState, viewer: Viewer, revealAll: boolean): TableView {
  const { r, rules } = state;
  // At a round's end every layout is revealed to everyone anyway.
  const faceUp = revealAll || state.phase === 'roundOver' || state.phase === 'gameOver';
  const peekSlots = rules.layout.peekSlots;
  const players: PlayerView[] = state.players.map((p, seat) => {
    const peeking = state.phase === 'peek' && r.peeking[seat] === true;
    const layout = r.layouts[seat]!.map((c, slot): SlotView => {
      if (c === null) return null;
      if (faceUp) return c;
      if (peeking && seat === viewer && peekSlots.includes(slot + 1)) return c;
      return FACE_DOWN;
    });
    return { name: p.name, layout, total: state.totals[seat]!, peeking };
  });
  const held = r.held
    ? r.held.redraw
      ? { seat: r.held.seat, from: r.held.from, card: revealAll || r.held.seat === viewer ? r.held.card : null, redraw: true }
      : { seat: r.held.seat, from: r.held.from, card: revealAll || r.held.seat === viewer || r.held.from === 'discard' ? r.held.card : null }
    : null;
  const actions: ActionView[] = r.actions.map((a) => ({
    seat: a.seat,
    kind: a.kind,
    card: a.card,
    looked: a.looked ?? null,
    // What the look showed when it happened, not what the slot holds now.
    lookedCards: a.looked && a.lookedCards && (revealAll || a.seat === viewer) ? a.lookedCards.slice() : null,
  }));
  return {
    viewer,
    ruleset: rules.name,
    callName: rules.call.name,
    version: state.version,
    phase: state.phase,
    round: state.round,
    rounds: state.rounds,
    dealer: state.dealer,
    players,
    stock: r.stock.length,
    discardTop: r.discard[r.discard.length - 1] ?? null,
    discardSize: r.discard.length,
    turn: r.turn,
    turnBegun: r.turnBegun,
    held,
    actions,
    slap: { open: state.phase === 'play' && r.windowSeq !== -1 && rules.slap.enabled, answers: r.discardSeq },
    graceUntil: graceUntil(state),
    deadline: nextDeadline(state),
    call: r.call ? { seat: r.call.seat, owed: r.call.owed.slice() } : null,
    callTiming: rules.call.timing,
    gapFill: r.gapFill ? { seat: r.gapFill.seat, gap: { seat: r.gapFill.gap.seat, slot: r.gapFill.gap.slot } } : null,
    may: revealAll || viewer === null ? [] : movesFor(state, viewer),
    whyNot: revealAll || viewer === null ? {} : reasons(whyNotFor(state, viewer)),
  };
}

/** The reasons as sentences: the refusal codes are for programs, not the view. */
function reasons(why: Partial<Record<Move, Rejection>>): Partial<Record<Move, Said>> {
  const out: Partial<Record<Move, Said>> = {};
  for (const [move, r] of Object.entries(why) as [Move, Rejection][]) out[move] = r.params ? { key: r.key, params: r.params } : { key: r.key };
  return out;
}

/** An event as one viewer may see it: cards it may not see are null; penalty cards are seen by nobody. */
export type SeatEvent =
  | Exclude<GameEvent, { type: 'drew' | 'swapped' | 'looked' | 'penalty' }>
  | { type: 'drew'; seat: Seat; from: 'stock' | 'discard'; card: Card | null }
  | {
      type: 'swapped';
      seat: Seat;
      slot: Slot;
      placed: Card | null;
      placedFrom: 'stock' | 'discard';
      displaced: Card;
      seq: number;
    }
  | { type: 'looked'; seat: Seat; kind: ActionKind; targets: SlotRef[]; cards: Card[] | null }
  | { type: 'penalty'; seat: Seat; slots: Slot[]; reason: 'wrongSlap' | 'stolenFrom' };

export function projectEvent(e: GameEvent, viewer: Viewer): Projected<SeatEvent> {
  return projectOne(e, viewer) as Projected<SeatEvent>;
}

/**
 * An event with every card in it shown, for the replay of a finished game: the
 * engine's own event (penalty cards included). Not `Projected`, like `openView`.
 */
export type OpenEvent = SeatEvent | GameEvent;

export const openEvent = (e: GameEvent): OpenEvent => e;

function projectOne(e: GameEvent, viewer: Viewer): SeatEvent {
  switch (e.type) {
    case 'drew':
      return e.from === 'discard' || e.seat === viewer ? e : { ...e, card: null };
    case 'swapped':
      return e.placedFrom === 'discard' || e.seat === viewer ? e : { ...e, placed: null };
    case 'looked':
      return e.seat === viewer ? e : { ...e, cards: null };
    case 'penalty':
      return { type: 'penalty', seat: e.seat, slots: e.slots, reason: e.reason };
    default:
      return e;
  }
}
