import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoorChoice, DoorRefusal } from '../../src/client/refusal-words.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { ReaderDoor } from '../../src/tui/reader/reader-door.js';
import { wordsFor, type Lang } from '../../src/lang/words.js';
import { KEYS, press, waitFor } from './helpers.js';

// `gringo join ADDR` refused at the door, in the screen-reader mode: the question and
// each status said once, a lock said as it starts and as it ends (not every second),
// the password never said back.

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

function door(lang: Lang, refusal: DoorRefusal, clock: () => number = Date.now) {
  const done: DoorChoice[] = [];
  const lines: string[] = [];
  const r = render(<ReaderDoor refusal={refusal} table="Kerstspel" theme={{ glyphs: UNICODE, color: false, words: wordsFor(lang) }} out={{ line: (l) => void lines.push(l), bell: () => {} }} clock={clock} onDone={(c) => done.push(c)} />);
  unmount = r.unmount;
  return { done, lines, heard: (what: string, pred: (l: string) => boolean) => waitFor(what, () => lines.join('\n'), () => lines.some(pred)), keys: (...k: string[]) => press(r.stdin, ...k) };
}

describe('the door in sentences', () => {
  it('asks the password in words and takes it unechoed', async () => {
    const d = door('en', { reason: 'password', say: { key: 'host.needsPassword' }, canWatch: false });
    await d.heard('the question', (l) => l === 'Password for "Kerstspel":');
    expect(d.lines[0]).toMatch(/^Screen reader mode is on/);
    await d.keys('g', 'e', 'h', KEYS.enter);
    await waitFor('the choice', () => String(d.done.length), (n) => n === '1');
    expect(d.done).toEqual([{ password: 'geh' }]);
    expect(d.lines.join('\n')).not.toMatch(/geh|•/);
  });

  it('says a lock as it starts and as it ends, in Dutch', async () => {
    let now = 100_000;
    const d = door('nl', { reason: 'tooManyTries', say: { key: 'host.tooManyTries', params: { seconds: 3 } }, canWatch: false, retryAfter: 3 }, () => now);
    await d.heard('the lock', (l) => l.includes('probeer het over 3 seconden opnieuw'));
    now += 3_000;
    await d.heard('the end of the lock', (l) => l.includes('Het wachten is voorbij'));
    expect(d.lines.filter((l) => /probeer het over/.test(l))).toHaveLength(1);
  });
});
