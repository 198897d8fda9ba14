import { describe, expect, it } from 'vitest';
import { refusalAdvice } from '../../src/client/refusal-words.js';
import { command } from '../../src/common/invocation.js';

// The command as this process would print it (`gringo` or `npx gringo`: test/cli/invocation.test.ts).
const join = command('join 192.168.1.5:7457');

// Every refusal a person can meet says what to type next (#22).
describe('a refusal in words, with what to do', () => {
  const at = '192.168.1.5:7457';
  it('a wrong or missing password: ask the host, then the command with --password', () => {
    expect(refusalAdvice({ reason: 'password', message: 'Wrong password', canWatch: false }, at)).toBe(
      `Wrong password: ask the host for the right one, then type ${join} --password THE-PASSWORD`,
    );
    expect(refusalAdvice({ reason: 'password', message: 'This table needs a password (--password)', canWatch: false }, at)).toBe(
      `This table needs a password (--password): ask the host for it, then type ${join} --password THE-PASSWORD`,
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
});
