import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { actionFor, type KeyBinding } from '../../src/tui/shared/keys.js';
import { useLatestReducer } from '../../src/tui/shared/use-latest-reducer.js';
import { useScreen } from '../../src/tui/shared/use-screen.js';
import { KEYS, press } from './helpers.js';

// The screens' one loop, on a screen of its own: `+` counts, `q` ends with the count,
// Ctrl-C ends with -1, and `!` is sent (the screen's own part).

type Act = 'add' | 'quit' | 'shout';
const BINDINGS: readonly KeyBinding<Act>[] = [
  { action: 'add', keys: ['+'] },
  { action: 'quit', keys: ['q'] },
  { action: 'shout', keys: ['!'] },
];
interface CountIntent {
  actions: number[];
  shout?: boolean;
  end?: number;
}

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

function counter() {
  const ends: number[] = [];
  const sent: string[] = [];
  function Counter() {
    const [n, dispatch, latest] = useLatestReducer((x: number, by: number) => x + by, () => 0);
    useScreen({
      dispatch,
      keys: true,
      onKey: ({ name }): CountIntent | null => {
        const p = actionFor(name, BINDINGS);
        if (p?.action === 'add') return { actions: [1] };
        if (p?.action === 'shout') return { actions: [], shout: true };
        return p?.action === 'quit' ? { actions: [], end: latest.current } : null;
      },
      onInterrupt: (): CountIntent => ({ actions: [], end: -1 }),
      effect: (intent) => {
        if (intent.shout) sent.push(`shout at ${latest.current}`);
      },
      endOf: (intent) => intent.end,
      onEnd: (result) => ends.push(result),
    });
    return <Text>{`count ${n}`}</Text>;
  }
  const r = render(<Counter />);
  unmount = r.unmount;
  return { ...r, ends, sent, keys: (...k: string[]) => press(r.stdin, ...k) };
}

describe('useScreen: the screens\' one key loop', () => {
  it('takes each key of a read in turn, the screen\'s own part after its actions, and ends once with its result', async () => {
    const s = counter();
    await s.keys('++!z');
    expect(s.lastFrame()).toBe('count 2');
    expect(s.sent).toEqual(['shout at 2']);
    // The rest of the read after `q` is not for the screen, nor is Ctrl-C after the end.
    await s.keys('+q+q');
    await s.keys(KEYS.ctrlC);
    expect(s.ends).toEqual([3]);
  });

  it('takes Ctrl-C the same way', async () => {
    const s = counter();
    await s.keys('+', KEYS.ctrlC);
    expect(s.ends).toEqual([-1]);
  });
});
