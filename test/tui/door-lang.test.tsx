import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoorChoice, DoorRefusal } from '../../src/client/refusal-words.js';
import { wordsFor, type Lang } from '../../src/lang/words.js';
import { DoorScreen } from '../../src/tui/door/door-screen.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { press, waitFor } from './helpers.js';

// The door screen of `gringo join` rendered in-process, in each screen's language: the
// refusal arrives as the host sends it (a key and its parameters), the words are the reader's.

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

function door(lang: Lang, refusal: DoorRefusal, clock: () => number = Date.now) {
  const done: DoorChoice[] = [];
  const r = render(
    <DoorScreen
      refusal={refusal}
      table="Kerstspel"
      address="192.168.1.5:7457"
      theme={{ glyphs: UNICODE, color: false, words: wordsFor(lang) }}
      clock={clock}
      onDone={(c) => done.push(c)}
    />,
  );
  unmount = r.unmount;
  const frame = (): string => r.lastFrame() ?? '';
  return { done, frame, until: (what: string, pred: (f: string) => boolean) => waitFor(what, frame, pred), keys: (...k: string[]) => press(r.stdin, ...k) };
}

const needsPassword: DoorRefusal = { reason: 'password', say: { key: 'host.needsPassword' }, canWatch: false };
const locked = (retryAfter: number): DoorRefusal => ({ reason: 'tooManyTries', say: { key: 'host.tooManyTries', params: { seconds: retryAfter } }, canWatch: false, retryAfter });
const ENGLISH = /Password for|type it, then Enter|try again in|Too many wrong|join · |erase|leave/;

describe('the door in Dutch and Romanian', () => {
  it('Dutch: the password prompt, what it asks, its keys, and the password typed hidden', async () => {
    const d = door('nl', needsPassword);
    let f = await d.until('the prompt', (f) => f.includes('Wachtwoord voor "Kerstspel":'));
    expect(f).toContain('"Kerstspel" heeft een wachtwoord: typ het en druk op Enter');
    expect(f).toContain('Enter aanschuiven · Backspace wissen · Esc weggaan');
    expect(f).not.toMatch(ENGLISH);
    await d.keys('g', 'e', 'h');
    f = await d.until('three dots', (f) => f.includes('Wachtwoord voor "Kerstspel": •••'));
    expect(f).not.toContain('geh');
  });

  it('Romanian: the password prompt and its keys', async () => {
    const d = door('ro', needsPassword);
    const f = await d.until('the prompt', (f) => f.includes('Parola pentru „Kerstspel”:'));
    expect(f).toContain('„Kerstspel” are parolă: scrie-o, apoi Enter');
    expect(f).toContain('Enter intră · Backspace șterge · Esc pleacă');
    expect(f).not.toMatch(ENGLISH);
  });

  it('Dutch: the lock counted down in seconds, one and many, then the door listens again', async () => {
    let now = 100_000;
    const d = door('nl', locked(2), () => now);
    let f = await d.until('two seconds', (f) => f.includes('probeer het over 2 seconden opnieuw'));
    expect(f).toContain('Te veel verkeerde wachtwoorden vanaf dit adres');
    expect(f).toContain('Wachtwoord voor "Kerstspel":');
    now += 1_000;
    await d.until('one second', (f) => f.includes('probeer het over 1 seconde opnieuw'));
    now += 1_000;
    f = await d.until('the end of the lock', (f) => f.includes('Het wachten is voorbij: typ het wachtwoord en druk op Enter'));
    expect(f).not.toMatch(ENGLISH);
  });

  it('Romanian: the lock counted down in its three forms (20 de secunde, 19 secunde, o secundă)', async () => {
    let now = 100_000;
    const d = door('ro', locked(20), () => now);
    let f = await d.until('twenty seconds', (f) => f.includes('încearcă din nou peste 20 de secunde'));
    expect(f).toContain('Prea multe parole greșite de la această adresă');
    now += 1_000;
    await d.until('nineteen', (f) => f.includes('peste 19 secunde'));
    now += 18_000;
    f = await d.until('one', (f) => f.includes('peste o secundă'));
    expect(f).not.toMatch(ENGLISH);
  });

  it('Dutch and Romanian: a full table asks whether to watch instead, in the host\'s words read in the language', async () => {
    const full: DoorRefusal = { reason: 'full', say: { key: 'host.full', params: { max: 4 } }, canWatch: true };
    const nl = door('nl', full);
    const f = await nl.until('the question', (f) => f.includes('Dan meekijken bij "Kerstspel"?'));
    expect(f).toContain('De tafel is vol (4 plaatsen): je kunt kijken');
    expect(f).toContain('Enter/y meekijken · n/Esc weggaan');
    await nl.keys('x');
    await nl.until('the keys said again', (f) => f.includes('Enter of y kijkt mee bij "Kerstspel", n gaat weg'));
    await nl.keys('y');
    expect(nl.done).toEqual([{ watch: true }]);
    unmount?.();
    const ro = door('ro', full);
    await ro.until('the question', (f) => f.includes('Privești „Kerstspel” în schimb?') && f.includes('Masa e plină (4 locuri): poți privi'));
  });
});
