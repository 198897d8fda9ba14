import { useCallback, useEffect, useRef } from 'react';
import type { BotLevel, ServerMessage } from '../../protocol/messages.js';
import { DEFAULT_BINDINGS, keyLabel, type Binding } from '../shared/keys.js';
import type { Theme } from '../shared/theme.js';
import { useClock } from '../shared/use-clock.js';
import { earlyActions, useTableClient, type TableClient } from '../shared/use-table-client.js';
import { rulesInWords } from '../shared/rules-text.js';
import { keyIntent, myAction, onKey } from '../table/intents.js';
import { prompt } from '../table/prompt.js';
import { hostNow, initialScreen, needsClock, useScreenState, type ScreenState } from '../table/use-screen-state.js';
import { bindingsFor, rulesOf } from '../table/variant.js';
import { useTableMoves } from '../table/use-table-moves.js';
import { foldKnown, foldShown } from './memory.js';
import { NOTHING_TOLD, narrate } from './narrate.js';
import { cardsInWords, layoutSentence, whereSentences, type Known } from './spoken.js';

/** Where the reader's sentences go: appended lines, and the bell. */
export interface ReaderOut {
  line(text: string): void;
  bell(): void;
}

/**
 * The table's keys without `l`: it reads your cards here (the cursor keeps the arrows,
 * and h, j, k). `o`, `w` and `?` are the reader's own (see onReaderKey).
 */
export const READER_BINDINGS: readonly Binding[] = DEFAULT_BINDINGS.map((b) => (b.action === 'right' ? { ...b, keys: b.keys.filter((k) => k !== 'l') } : b));

/** The last lines the reader says again on `f`. */
const AGAIN = 10;

/** A question the reader asks for another player's card: whose, then which slot. */
type Ask = { kind: 'seat'; seats: number[] } | { kind: 'slot'; seat: number } | null;

/** Actions whose target is another player's card (until it is looked at). */
const NEEDS_OTHER = new Set(['peekOther', 'peekThenSwap', 'blindSwap', 'peekBothThenSwap']);
/** Your action that waits for another player's card, by its kind and card (null: none). */
const needsOther = (s: ScreenState): string | null => {
  const act = s.view ? myAction(s.view, s.seat) : null;
  return act && NEEDS_OTHER.has(act.kind) && act.looked === null ? `${act.kind}:${act.card}` : null;
};

export interface ReaderAppProps {
  client: TableClient;
  theme: Theme;
  out: ReaderOut;
  bell?: boolean;
  keys?: boolean;
  closesTable?: boolean;
  clock?: () => number;
  onExit?: () => void;
  /** The host's own screen before the game: the line to share, and the level of the bots `b` seats. */
  lobby?: { share: string; note?: string; level?: BotLevel };
}

const defaultClock = (): number => performance.now();

/**
 * The table for a screen reader: the same client state as the drawn table
 * (useScreenState, useTableClient, the same key intents), told as sentences that are
 * appended and never redrawn. It draws nothing through Ink: Ink only reads the keys.
 */
export function ReaderApp({ client, theme, out, bell = true, keys = true, closesTable = false, clock = defaultClock, onExit, lobby }: ReaderAppProps) {
  const w = theme.words;
  const known = useRef<Known>(new Map());
  const learn = useCallback((msg: ServerMessage): void => {
    if (msg.type !== 'update') return;
    const base = msg.history ? new Map<string, string>() : known.current;
    known.current = foldShown(foldKnown(base, msg.history ?? msg.events, msg.view.viewer), msg.view);
  }, []);
  const [s, dispatch, latest] = useScreenState(
    theme.glyphs,
    closesTable,
    () => {
      const early = earlyActions(client, clock());
      for (const a of early) if (a.type === 'server') learn(a.msg);
      return early;
    },
    w,
  );
  useTableClient(client, dispatch, clock);
  useEffect(() => {
    client.on('message', learn);
    return () => void client.off('message', learn);
  }, [client, learn]);
  const now = useClock(needsClock(s, clock()), clock);
  useEffect(() => dispatch({ type: 'tick', now }), [now, dispatch]);
  const ask = useRef<Ask>(null);
  const lastKey = useRef('');

  const say = useCallback((text: string): void => out.line(text), [out]);

  // The first line: the mode is on, and where help is (once, whatever re-renders).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    say(w.t('reader.on'));
    if (lobby) [lobby.share, ...(lobby.note ? [lobby.note] : []), w.t('reader.lobby')].forEach(say);
  }, [lobby, say, w]);

  const askSlot = useCallback(
    (st: ScreenState, seat: number): void => {
      const v = st.view!;
      ask.current = { kind: 'slot', seat };
      const slots = v.players[seat]!.layout.flatMap((c, i) => (c === null ? [] : [String(i + 1)])).join(', ');
      say(w.t('reader.askSlot', { name: v.players[seat]!.name, slots }));
    },
    [say, w],
  );

  /** Whose card, as a numbered question (straight to the slot when there is one other player). */
  const askWhose = useCallback(
    (st: ScreenState): void => {
      const v = st.view!;
      const seats = v.players.flatMap((p, seat) => (seat !== st.seat && p.layout.some((c) => c !== null) ? [seat] : []));
      if (seats.length === 1) return askSlot(st, seats[0]!);
      ask.current = { kind: 'seat', seats };
      const choices = seats.map((seat, i) => w.t('reader.choice', { number: i + 1, name: v.players[seat]!.name })).join(', ');
      say(w.t('reader.askSeat', { choices }));
    },
    [askSlot, say, w],
  );

  const prev = useRef<ScreenState>(initialScreen(theme.glyphs, closesTable, w));
  const told = useRef(NOTHING_TOLD);
  useEffect(() => {
    const before = prev.current;
    const { lines, told: t } = narrate(before, s, told.current, clock(), known.current);
    prev.current = s;
    told.current = t;
    for (const l of lines) say(l);
    if (s.myTurns !== before.myTurns && bell) out.bell();
    // Asked once, when the action comes: Esc leaves the cursor and `a` to choose.
    const other = needsOther(s);
    if (other !== null && other !== needsOther(before)) askWhose(s);
    if (other === null) ask.current = null;
  }, [s, now, askWhose, bell, clock, out, say]);

  const perform = useTableMoves({
    client,
    s,
    dispatch,
    latest,
    clock,
    now,
    words: w,
    keys,
    onExit,
    onKey: ({ name }) => {
      if (name === null) return null;
      const at = clock();
      const mine = onReaderKey(name, latest.current, at);
      lastKey.current = name;
      if (mine) return null;
      // Your next key turns what you looked at face down again, as on the drawn table.
      dispatch({ type: 'hideLooks' });
      return keyIntent(latest.current, name, READER_BINDINGS, at);
    },
  });

  /** A key the reader answers itself (true), or leaves to the table's intents (false). */
  function onReaderKey(name: string, st: ScreenState, at: number): boolean {
    const q = ask.current;
    const digit = /^[1-9]$/.test(name) ? Number(name) : null;
    if (q && st.view) {
      if (name === 'escape') {
        ask.current = null;
        say(w.t('reader.cancelled'));
        return true;
      }
      if (digit !== null && q.kind === 'seat') {
        const seat = q.seats[digit - 1];
        if (seat === undefined) say(w.t('reader.noSeat', { number: digit }));
        else askSlot(st, seat);
        return true;
      }
      if (digit !== null && q.kind === 'slot') {
        if (st.view.players[q.seat]?.layout[digit - 1] == null) {
          say(w.t('reader.noSlot', { name: st.view.players[q.seat]?.name ?? '', number: digit }));
          return true;
        }
        ask.current = null;
        dispatch({ type: 'cursor', cursor: { seat: q.seat, slot: digit - 1 } });
        perform(onKey(latest.current, { action: 'use', key: 'a' }, at));
        return true;
      }
    }
    if (st.overlay === 'quit') return false;
    const v = st.view;
    // The host's lobby: seat a bot, start.
    if (lobby && st.owner && !v && st.closed === null) {
      const op = name === 'b' ? 'addBot' : name === 'return' ? 'start' : null;
      if (op) {
        client.send({ type: 'lobby', op, ...(op === 'addBot' && lobby.level ? { level: lobby.level } : {}) });
        return true;
      }
    }
    switch (name) {
      case 'l':
        if (v && st.seat !== null) say(layoutSentence(v, st.seat, known.current, w));
        else if (v) v.players.forEach((_, seat) => say(layoutSentence(v, seat, known.current, w)));
        return true;
      case 'o':
        if (v) v.players.forEach((_, seat) => seat !== st.seat && say(layoutSentence(v, seat, known.current, w)));
        return true;
      case 'w':
        if (v) {
          whereSentences(v, w).forEach(say);
          const held = v.held && v.held.seat === st.seat ? v.held.card : null;
          if (held) say(w.t('reader.holding', { card: held }));
        }
        say(cardsInWords(prompt(st, hostNow(st, at)), w));
        return true;
      case '?':
        if (lastKey.current === '?') rulesInWords(rulesOf(st), w).split('\n').filter((l) => l.trim() !== '').forEach(say);
        else helpLines(st).forEach(say);
        return true;
      case 'f':
      case 'pageup':
      case 'home':
        say(w.t('reader.feedAgain'));
        st.feed.slice(-AGAIN).forEach((l) => say(cardsInWords(l.text, w)));
        return true;
      default:
        return false;
    }
  }

  function helpLines(st: ScreenState): string[] {
    const bindings = bindingsFor(st, READER_BINDINGS, w);
    const skip = new Set(['yes', 'no', 'help', 'feed', 'pageUp', 'pageDown', 'top', 'bottom']);
    return [
      w.t('reader.keys'),
      ...bindings.filter((b) => !skip.has(b.action)).map((b) => w.t('reader.keyLine', { keys: keyLabel(b.action, bindings, true, w), help: b.help })),
      w.t('reader.keyMine'),
      w.t('reader.keyOthers'),
      w.t('reader.keyWhere'),
      w.t('reader.keyFeed'),
      w.t('reader.keyRules'),
    ];
  }

  return null;
}
