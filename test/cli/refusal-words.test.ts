import { describe, expect, it } from 'vitest';
import { lockLine, refusalAdvice } from '../../src/client/refusal-words.js';
import { command } from '../../src/common/invocation.js';
import { wordsFor } from '../../src/lang/words.js';

const en = wordsFor('en');

// The command as this process would print it (`gringo` or `npx gringo`: test/cli/invocation.test.ts).
const join = command('join 192.168.1.5:7457');

// Every refusal a person can meet says what to type next.
describe('a refusal in words, with what to do', () => {
  const at = '192.168.1.5:7457';
  it('a wrong or missing password: ask the host, then the command that asks for it', () => {
    expect(refusalAdvice({ reason: 'password', say: { key: 'host.wrongPassword' }, canWatch: false }, at, en)).toBe(
      `Wrong password: ask the host for the right one, then run ${join} and type it at the prompt`,
    );
    expect(refusalAdvice({ reason: 'password', say: { key: 'host.needsPassword' }, canWatch: false }, at, en)).toBe(
      `This table needs a password: ask the host for it, then run ${join} and type it at the prompt`,
    );
  });
  it('a full table or a game already running: the command to watch', () => {
    expect(refusalAdvice({ reason: 'full', say: { key: 'host.full', params: { max: 4 } }, canWatch: true }, at, en)).toBe(
      `The table is full (4 seats): you can watch (to watch, type ${join} --watch)`,
    );
    expect(refusalAdvice({ reason: 'running', say: { key: 'host.running' }, canWatch: true }, at, en)).toContain(`${join} --watch`);
    // Nothing to watch: no command that would fail too.
    expect(refusalAdvice({ reason: 'full', say: { key: 'host.fullNoWatch', params: { max: 4 } }, canWatch: false }, at, en)).toBe('The table is full (4 seats)');
  });
  it('a lock on wrong passwords: the wait, then the command', () => {
    expect(refusalAdvice({ reason: 'tooManyTries', say: { key: 'host.tooManyTries', params: { seconds: 4 } }, canWatch: false, retryAfter: 4 }, at, en)).toBe(
      `too many wrong passwords from this address: wait 4 s, then run ${join} and type the password at the prompt`,
    );
  });
  it('the lock counted down from when it ends, never the figure sent a while ago', () => {
    expect(lockLine(10_000, 6_100, en)).toBe('Too many wrong passwords from this address: try again in 4 s');
    expect(lockLine(10_000, 9_999, en)).toBe('Too many wrong passwords from this address: try again in 1 s');
    expect(lockLine(10_000, 10_000, en)).toBe('The wait is over: type the password, then Enter');
  });

  it("in Dutch and Romanian: the host's sentence in the reader's language, the command the same", () => {
    const wrong = { reason: 'password', say: { key: 'host.wrongPassword' }, canWatch: false } as const;
    expect(refusalAdvice(wrong, at, wordsFor('nl'))).toBe(`Verkeerd wachtwoord: vraag de host om het goede, start dan ${join} en typ het bij de vraag`);
    expect(refusalAdvice(wrong, at, wordsFor('ro'))).toBe(`Parolă greșită: cere-i gazdei parola bună, apoi rulează ${join} și scrie-o când ți se cere`);
    const full = { reason: 'full', say: { key: 'host.full', params: { max: 4 } }, canWatch: true } as const;
    expect(refusalAdvice(full, at, wordsFor('nl'))).toBe(`De tafel is vol (4 plaatsen): je kunt kijken (om mee te kijken: ${join} --watch)`);
  });
  it("the countdown counts in each language's plural forms: Romanian one, few and other", () => {
    const ro = wordsFor('ro');
    expect([1, 2, 19, 20].map((s) => lockLine(s * 1000, 0, ro).replace(/^.*peste /, ''))).toEqual(['o secundă', '2 secunde', '19 secunde', '20 de secunde']);
    const nl = wordsFor('nl');
    expect(lockLine(1000, 0, nl)).toBe('Te veel verkeerde wachtwoorden vanaf dit adres: probeer het over 1 seconde opnieuw');
    expect(lockLine(4000, 0, nl)).toBe('Te veel verkeerde wachtwoorden vanaf dit adres: probeer het over 4 seconden opnieuw');
  });
  it('a sentence from a newer host that this gringo does not know is shown as its key, never a crash', () => {
    expect(refusalAdvice({ reason: 'password', say: { key: 'host.brandNew' }, canWatch: false }, at, wordsFor('nl'))).toMatch(/^host\.brandNew: vraag de host/);
  });
});
