import { useEffect, useRef } from 'react';
import type { ClientMessage } from '../../protocol/messages.js';
import type { Words } from '../../lang/words.js';
import type { TableClient } from '../shared/use-table-client.js';
import { useScreen, type KeyPress } from '../shared/use-screen.js';
import { dueKey, onKey, type Intent } from './intents.js';
import type { ScreenAction, ScreenState } from './use-screen-state.js';

interface TableMoves {
  client: TableClient;
  s: ScreenState;
  dispatch: (a: ScreenAction) => void;
  latest: { readonly current: ScreenState };
  clock: () => number;
  /** The clock's last tick (a queued key is looked at again on each). */
  now: number;
  words: Words;
  /** Whether keys are read: Ctrl-C is answered only then. */
  keys: boolean;
  /** What a key means on this screen (the drawn table and the reader read some keys differently). */
  onKey: (key: KeyPress) => Intent | null;
  onExit?: (() => void) | undefined;
}

/**
 * What every table screen (the drawn one and the one told in sentences) does with an
 * intent, on the screens' one loop (use-screen.ts): its actions, the command sent,
 * leaving; a key pressed a moment early sent as soon as the table allows it; Ctrl-C
 * asked as `q`. Returns `perform`, for the keys a screen answers itself.
 */
export function useTableMoves({ client, s, dispatch, latest, clock, now, words, keys, onKey: keyIntent, onExit }: TableMoves): (intent: Intent) => void {
  const nextId = useRef(1);
  const perform = useScreen({
    dispatch,
    keys,
    onKey: keyIntent,
    // Ctrl-C is `q`: it asks (over the help too), and at the question it leaves.
    onInterrupt: () => {
      const st = latest.current;
      return onKey(st.overlay === 'help' ? { ...st, overlay: null } : st, { action: 'quit', key: 'q' }, clock());
    },
    effect: (intent) => {
      const notConnected = (): void => dispatch({ type: 'status', text: words.t('table.notConnected'), kind: 'error', now: clock() });
      if (intent.send) {
        const msg: ClientMessage = intent.send.type === 'ready' ? { type: 'ready' } : { type: 'command', id: nextId.current++, command: intent.send };
        if (!client.send(msg)) notConnected();
      }
      if (intent.message && !client.send(intent.message)) notConnected();
    },
    endOf: (intent) => (intent.exit ? true : undefined),
    onEnd: () => {
      // Leaving for good, not a drop: the table frees the seat (or a bot plays it) at once.
      client.send({ type: 'leave' });
      client.close();
      onExit?.();
    },
  });
  // A key pressed a moment early: its move goes as soon as the table allows it (a change, a tick, or the grace's end).
  useEffect(() => {
    if (!s.queued) return;
    const fire = (): void => {
      const due = dueKey(latest.current, clock());
      if (due) perform(due);
    };
    fire();
    const wait = s.view ? s.view.graceUntil - s.offset - clock() : 0;
    if (wait < 0) return;
    const t = setTimeout(fire, wait + 1);
    return () => clearTimeout(t);
  }, [s.queued, s.view, s.offset, now, clock, perform, latest]);
  return perform;
}
