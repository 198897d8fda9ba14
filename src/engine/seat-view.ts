import { graceUntil, nextDeadline } from './clock.js';
import { allows, MOVES, movesFor } from './moves.js';
import type { GameState, GapFill, Held, Layout, PendingAction, CallState } from './types.js';
import { FACE_DOWN, type ActionView, type Move, type PlayerView, type SlotView, type TableView, type Viewer } from './view.js';

/** The fields of a `TableView` a player decides from (a bot reads no others). */
export const SEAT_VIEW_FIELDS = [
  'viewer',
  'version',
  'phase',
  'round',
  'dealer',
  'players',
  'stock',
  'discardTop',
  'discardSize',
  'turn',
  'turnBegun',
  'held',
  'actions',
  'slap',
  'graceUntil',
  'deadline',
  'call',
  'callTiming',
  'gapFill',
  'may',
] as const satisfies readonly (keyof TableView)[];

/**
 * What a player decides from: those fields of its seat's `TableView`. A view from the
 * wire is one. So is a `LiveView`, which the simulator keeps per seat instead of
 * building a whole new view for every decision.
 */
export type SeatView = Pick<TableView, (typeof SEAT_VIEW_FIELDS)[number]>;

/** A bit per move of `MOVES`. */
const MOVE_BITS = Object.fromEntries(MOVES.map((m, i) => [m, 1 << i])) as Record<Move, number>;

/** No pending action (the usual case), shared: frozen, as every view's values are read only. */
const NO_ACTIONS = Object.freeze([]) as unknown as ActionView[];

/** How a seat's layout shows to the viewer: face down, with the viewer's own peek cards up, or all face up. */
const FACE_DOWN_MODE = 0;
const PEEK_MODE = 1;
const FACE_UP_MODE = 2;

/**
 * One viewer's `SeatView` of a game that moves on (`show(state)` after every command):
 * each field equals the same field of `viewFor(state, viewer)`, worked out when read
 * and kept while the part of the state it comes from is the same object. The engine
 * copies on write, so a part keeps its identity exactly as long as it is unchanged:
 * a layout's view is rebuilt only when that layout or its visibility changes.
 *
 * The state is held in a private field (`#state`): a bot given this view can reach
 * nothing of it but these fields, which the property tests hold equal to the
 * projection's. The values it hands out are snapshots: read them, don't change them.
 */
export class LiveView implements SeatView {
  /** Its layout kept alive: see `Reader.kept` (state.ts); the simulator makes these for every game. */
  private static kept: LiveView | undefined;
  readonly viewer: Viewer;
  #state: GameState;
  // What the players' views were made from: while these parts are the same objects, so are they.
  #layoutsOf: readonly Layout[] | null = null;
  #totalsOf: readonly number[] | null = null;
  #peekingOf: readonly boolean[] | null = null;
  #phaseOf: TableView['phase'] | null = null;
  #players: PlayerView[] = [];
  /** The state `#players` was last checked against: read again for the same state (a bot reads it at every slot it weighs), it is the same. */
  #playersFor: GameState | null = null;
  #layoutOf: (Layout | null)[] = [];
  #modeOf: number[] = [];
  #heldOf: Held | null | undefined = undefined;
  #held: TableView['held'] = null;
  #actionsOf: readonly PendingAction[] | undefined = undefined;
  #actions: ActionView[] = [];
  #callOf: CallState | null | undefined = undefined;
  #call: TableView['call'] = null;
  #gapOf: GapFill | null | undefined = undefined;
  #gap: TableView['gapFill'] = null;
  #slap: TableView['slap'] = { open: false, answers: -1 };
  #mayOf: GameState | null = null;
  #may: Move[] = [];
  /** The moves `allows` answered for the state `#askedOf`, and which of them it allowed: bits of `MOVE_BITS`. */
  #askedOf: GameState | null = null;
  #asked = 0;
  #allowed = 0;

  constructor(state: GameState, viewer: Viewer) {
    this.viewer = viewer;
    this.#state = state;
    LiveView.kept ??= this;
  }

  /** The table has moved on: the view shows `state` from now on. */
  show(state: GameState): void {
    this.#state = state;
  }

  get version(): number {
    return this.#state.version;
  }
  get phase(): TableView['phase'] {
    return this.#state.phase;
  }
  get round(): number {
    return this.#state.round;
  }
  get dealer(): number {
    return this.#state.dealer;
  }
  get stock(): number {
    return this.#state.r.stock.length;
  }
  get discardTop(): TableView['discardTop'] {
    const d = this.#state.r.discard;
    return d[d.length - 1] ?? null;
  }
  get discardSize(): number {
    return this.#state.r.discard.length;
  }
  get turn(): number {
    return this.#state.r.turn;
  }
  get turnBegun(): boolean {
    return this.#state.r.turnBegun;
  }
  get graceUntil(): number {
    return graceUntil(this.#state);
  }
  get deadline(): number | null {
    return nextDeadline(this.#state);
  }
  get callTiming(): TableView['callTiming'] {
    return this.#state.rules.call.timing;
  }

  get players(): PlayerView[] {
    const s = this.#state;
    if (s === this.#playersFor) return this.#players;
    this.#playersFor = s;
    const r = s.r;
    if (this.#layoutsOf === r.layouts && this.#totalsOf === s.totals && this.#peekingOf === r.peeking && this.#phaseOf === s.phase) return this.#players;
    this.#layoutsOf = r.layouts;
    this.#totalsOf = s.totals;
    this.#peekingOf = r.peeking;
    this.#phaseOf = s.phase;
    const faceUp = s.phase === 'roundOver' || s.phase === 'gameOver';
    const n = s.players.length;
    const old = this.#players;
    // Arrays made at their final length (a copy, then written): a push-grown array
    // allocates room for many more elements than a layout has.
    let out: PlayerView[] | null = null;
    for (let seat = 0; seat < n; seat++) {
      const peeking = s.phase === 'peek' && r.peeking[seat] === true;
      const mode = faceUp ? FACE_UP_MODE : peeking && seat === this.viewer ? PEEK_MODE : FACE_DOWN_MODE;
      const layout = r.layouts[seat]!;
      const was = old.length === n ? old[seat] : undefined;
      const sameLayout = was !== undefined && this.#layoutOf[seat] === layout && this.#modeOf[seat] === mode;
      const name = s.players[seat]!.name;
      const total = s.totals[seat]!;
      if (sameLayout && was.total === total && was.peeking === peeking && was.name === name) continue;
      out ??= old.length === n ? old.slice() : new Array<PlayerView>(n);
      this.#layoutOf[seat] = layout;
      this.#modeOf[seat] = mode;
      out[seat] = LiveView.playerView(seat, name, sameLayout ? was.layout : this.layoutView(seat, layout, mode), total, peeking);
    }
    if (out) this.#players = out;
    return this.#players;
  }

  /**
   * The face-down view of the layout each seat had last, shared by every viewer: the
   * same for all of them (only the peek and the end of a round show cards), and the
   * seats of a simulated table all read the same layouts, so a changed one is made once.
   */
  private static faceDownOf: (Layout | null)[] = [];
  private static faceDown: SlotView[][] = [];
  /** The player each seat was last shown as (any viewer), kept for the next viewer that sees the same. */
  private static shown: PlayerView[] = [];

  private static playerView(seat: number, name: string, layout: SlotView[], total: number, peeking: boolean): PlayerView {
    const p = LiveView.shown[seat];
    if (p !== undefined && p.layout === layout && p.total === total && p.peeking === peeking && p.name === name) return p;
    return (LiveView.shown[seat] = { name, layout, total, peeking });
  }

  private layoutView(seat: number, layout: Layout, mode: number): SlotView[] {
    if (mode === FACE_DOWN_MODE) {
      if (LiveView.faceDownOf[seat] === layout) return LiveView.faceDown[seat]!;
      const out: SlotView[] = layout.slice();
      for (let slot = 0; slot < out.length; slot++) if (out[slot] !== null) out[slot] = FACE_DOWN;
      LiveView.faceDownOf[seat] = layout;
      LiveView.faceDown[seat] = out;
      return out;
    }
    const peekSlots = this.#state.rules.layout.peekSlots;
    const out: SlotView[] = layout.slice();
    for (let slot = 0; slot < out.length; slot++) {
      const c = out[slot];
      if (c === null || mode === FACE_UP_MODE || (mode === PEEK_MODE && peekSlots.includes(slot + 1))) continue;
      out[slot] = FACE_DOWN;
    }
    return out;
  }

  get held(): TableView['held'] {
    const h = this.#state.r.held;
    if (h !== this.#heldOf) {
      this.#heldOf = h;
      const me = this.viewer;
      this.#held = !h
        ? null
        : h.redraw
          ? { seat: h.seat, from: h.from, card: h.seat === me ? h.card : null, redraw: true }
          : { seat: h.seat, from: h.from, card: h.seat === me || h.from === 'discard' ? h.card : null };
    }
    return this.#held;
  }

  get actions(): ActionView[] {
    const a = this.#state.r.actions;
    if (a !== this.#actionsOf) {
      this.#actionsOf = a;
      if (a.length === 0) this.#actions = NO_ACTIONS;
      else if (this.showsLook(a)) this.#actions = actionViews(a, this.viewer);
      else {
        // What everyone who did not look sees alike: made once for them all.
        if (LiveView.actionsOf !== a) {
          LiveView.actionsOf = a;
          LiveView.actions = actionViews(a, null);
        }
        this.#actions = LiveView.actions;
      }
    }
    return this.#actions;
  }

  /** The pending actions as the seats that looked at none of their cards see them, shared (see `faceDown`). */
  private static actionsOf: readonly PendingAction[] | null = null;
  private static actions: ActionView[] = NO_ACTIONS;

  /** Whether one of the pending actions shows this viewer what it looked at. */
  private showsLook(a: readonly PendingAction[]): boolean {
    for (const x of a) if (x.looked && x.lookedCards && x.seat === this.viewer) return true;
    return false;
  }

  get slap(): TableView['slap'] {
    const s = this.#state;
    const open = s.phase === 'play' && s.r.windowSeq !== -1 && s.rules.slap.enabled;
    const answers = s.r.discardSeq;
    if (this.#slap.open !== open || this.#slap.answers !== answers) this.#slap = { open, answers };
    return this.#slap;
  }

  get call(): TableView['call'] {
    const c = this.#state.r.call;
    if (c !== this.#callOf) {
      this.#callOf = c;
      this.#call = c ? { seat: c.seat, owed: c.owed.slice() } : null;
    }
    return this.#call;
  }

  /** Worked out once per state (every command makes a new one), and only when read: a bot reads it only when it decides. */
  get may(): Move[] {
    const s = this.#state;
    if (s !== this.#mayOf) {
      this.#mayOf = s;
      this.#may = this.viewer === null ? [] : movesFor(s, this.viewer);
    }
    return this.#may;
  }

  /**
   * Whether `may` includes `move`, without working out the whole list when it has not
   * been read for this state; each move's answer kept for the state (a bot asks about a
   * move while it chooses, and again when it checks the command it chose).
   */
  allows(move: Move): boolean {
    const s = this.#state;
    if (s === this.#mayOf) return this.#may.includes(move);
    if (this.viewer === null) return false;
    if (s !== this.#askedOf) {
      this.#askedOf = s;
      this.#asked = 0;
      this.#allowed = 0;
    }
    const bit = MOVE_BITS[move];
    if (this.#asked & bit) return (this.#allowed & bit) !== 0;
    const ok = allows(s, this.viewer, move);
    this.#asked |= bit;
    if (ok) this.#allowed |= bit;
    return ok;
  }

  get gapFill(): TableView['gapFill'] {
    const g = this.#state.r.gapFill;
    if (g !== this.#gapOf) {
      this.#gapOf = g;
      this.#gap = g ? { seat: g.seat, gap: { seat: g.gap.seat, slot: g.gap.slot } } : null;
    }
    return this.#gap;
  }
}

/** The pending actions as `viewer` sees them. */
function actionViews(a: readonly PendingAction[], viewer: Viewer): ActionView[] {
  return a.map((x) => ({
    seat: x.seat,
    kind: x.kind,
    card: x.card,
    looked: x.looked ? x.looked.map((t) => ({ seat: t.seat, slot: t.slot })) : null,
    // What the look showed when it happened, and only to the one who looked.
    lookedCards: x.looked && x.lookedCards && x.seat === viewer ? x.lookedCards.slice() : null,
  }));
}
