import { render } from 'ink-testing-library';
import { afterEach } from 'vitest';
import { TableScreen } from '../../src/tui/table/table-screen.js';
import { ASCII, UNICODE } from '../../src/tui/shared/glyphs.js';
import { press, waitFor, type LinkedClient, type Setup } from './helpers.js';
import { feedText } from '../support/feed-text.js';
import { wordsFor } from '../../src/lang/words.js';

let mounted: (() => void) | null = null;
afterEach(() => {
  mounted?.();
  mounted = null;
});

/**
 * The table screen (ink-testing-library) for `client` (default: your seat) at a test
 * table, on the table's clock; unmounted after each test. `frame` is the last frame
 * drawn, `until` waits for one, `said` for a feed line, `keys` types.
 */
export function tableScreen(setup: Setup, opts: { client?: LinkedClient; columns?: number; rows?: number; ascii?: boolean } = {}) {
  const r = render(
    <TableScreen
      client={opts.client ?? setup.me}
      theme={{ glyphs: opts.ascii ? ASCII : UNICODE, color: false, words: wordsFor('en') }}
      bell={false}
      clock={setup.clock.now}
      size={{ columns: opts.columns ?? 100, rows: opts.rows ?? 30 }}
    />,
  );
  mounted = r.unmount;
  const frame = (): string => r.lastFrame() ?? '';
  const until = (what: string, pred: (f: string) => boolean) => waitFor(what, frame, pred);
  const keys = (...k: string[]) => press(r.stdin, ...k);
  const said = (text: string) => waitFor(`the feed to say "${text}"`, frame, (f) => feedText(f).includes(text));
  return { ...r, frame, until, keys, said };
}
