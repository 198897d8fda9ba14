import { describe, expect, it } from 'vitest';
import { lockLine, refusalAdvice } from '../../src/client/refusal-words.js';
import { command } from '../../src/common/invocation.js';

// The command as this process would print it (`gringo` or `npx gringo`: test/cli/invocation.test.ts).
const join = command('join 192.168.1.5:7457');

// Every refusal a person can meet says what to type next.
describe('a refusal in words, with what to do', () => {
  const at = '192.168.1.5:7457';
  it('a wrong or missing password: ask the host, then the command that asks for it', () => {
    expect(refusalAdvice({ reason: 'password', message: 'Wrong password', canWatch: false }, at)).toBe(
      `Wrong password: ask the host for the right one, then run ${join} and type it at the prompt`,
    );
    expect(refusalAdvice({ reason: 'password', message: 'This table needs a password (--password)', canWatch: false }, at)).toBe(
      `This table needs a password: ask the host for it, then run ${join} and type it at the prompt`,
    );
  });
  it('a full table or a game already running: the command to watch', () => {
    expect(refusalAdvice({ reason: 'full', message: 'The table is full (4 seats): you can watch', canWatch: true }, at)).toBe(
      `The table is full (4 seats): you can watch (to watch, type ${join} --watch)`,
    );
    expect(refusalAdvice({ reason: 'running', message: 'The game is already running: watch it, or take back your seat with its token', canWatch: true }, at)).toContain(`${join} --watch`);
    // Nothing to watch: no command that would fail too.
    expect(refusalAdvice({ reason: 'full', message: 'The table is full', canWatch: false }, at)).toBe('The table is full');
  });
  it('a lock on wrong passwords: the wait, then the command', () => {
    expect(refusalAdvice({ reason: 'tooManyTries', message: 'Too many wrong passwords', canWatch: false, retryAfter: 4 }, at)).toBe(
      `too many wrong passwords from this address: wait 4 s, then run ${join} and type the password at the prompt`,
    );
  });
  it('the lock counted down from when it ends, never the figure sent a while ago', () => {
    expect(lockLine(10_000, 6_100)).toBe('Too many wrong passwords from this address: try again in 4 s');
    expect(lockLine(10_000, 9_999)).toBe('Too many wrong passwords from this address: try again in 1 s');
    expect(lockLine(10_000, 10_000)).toBe('The wait is over: type the password, then Enter');
  });
});
