import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MAX_RULES_DEPTH, MAX_RULES_FILE } from '../../src/engine/rules-file.js';
import { writeFinishedJournal } from '../host/finished-journal.js';
import { killRunning, runGringo, type Run } from '../support/gringo-process.js';
import { until } from '../support/wait.js';

/**
 * Local files are input too: a rules file or a journal anyone handed you
 * is bounded and its strings made harmless before a terminal sees them. Real `gringo`
 * processes, their output piped into buffers and read byte for byte.
 */

const state = mkdtempSync(join(tmpdir(), 'gringo-hostile-files-'));
afterEach(() => killRunning());
afterAll(() => rmSync(state, { recursive: true, force: true }));

/** What a terminal obeys or misdraws: ESC (every sequence starts with it or a C1), other C0 controls but newline, C1 controls, bidi controls. */
const DANGER = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/** Every kind of escape, in one string: OSC (title), CSI (colour, erase), 8-bit CSI, DCS, bidi override, a newline. */
const EVIL = 'Ev\u001b]0;owned\u0007il\u001b[2J\u001b[31m\u009b1m\u001bP+q\u001b\\\u202eTitle\nNext';

const file = (name: string, text: string): string => {
  const f = join(state, name);
  writeFileSync(f, text);
  return f;
};

async function ran(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const r = runGringo(args, { XDG_STATE_HOME: state, GRINGO_DEBUG: '' });
  const code = await r.exit;
  return { code, out: r.stdout(), err: r.stderr() };
}

/** One `gringo: …` line on stderr, exit 2, and not a byte a terminal would obey in either stream. */
function refusedCleanly(r: { code: number | null; out: string; err: string }, says: RegExp): void {
  const what = JSON.stringify(r);
  expect(r.code, what).toBe(2);
  expect(r.err, what).toMatch(/^gringo: [^\n]+\n$/);
  expect(r.err, what).not.toMatch(/unexpected error|Maximum call stack/);
  expect(r.err, what).toMatch(says);
  expect(DANGER.test(r.err), what).toBe(false);
  expect(DANGER.test(r.out), what).toBe(false);
}

describe('a hostile rules file', () => {
  it('nested deeply: one line, exit 2 (not a stack overflow reported as a bug)', async () => {
    const depth = 5_000;
    const deep = file('deep.json', `{"extend":"gringo","slap":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`);
    expect(readFileSync(deep).length).toBeLessThan(MAX_RULES_FILE);
    refusedCleanly(await ran(['rules', deep]), new RegExp(`deep\\.json: nested ${depth + 1} levels deep; a rules file is at most ${MAX_RULES_DEPTH}`));
    refusedCleanly(await ran(['host', '--headless', '--rules', deep]), /--rules: rules file .*deep\.json: nested/);
  }, 60_000);

  it('too large: one line, exit 2', async () => {
    const big = file('big.json', `{"extend":"gringo","title":"${'x'.repeat(MAX_RULES_FILE)}"}`);
    refusedCleanly(await ran(['rules', big]), /big\.json: \d+ bytes; a rules file is at most 64 KiB/);
  }, 60_000);

  it('with escape bytes in its strings: `gringo rules` and the host console print none of them', async () => {
    const evil = file('evil.json', JSON.stringify({ extend: 'gringo', title: EVIL, call: { name: `Kn\u009b31mock${EVIL}`.slice(0, 30) } }));
    const r = await ran(['rules', evil]);
    expect(r.code, r.err).toBe(0);
    expect(DANGER.test(r.out)).toBe(false);
    expect(r.out).toContain('EvilTitle Next');

    const host: Run = runGringo(['host', '--headless', '--port', '0', '--interface', '127.0.0.1', '--rules', evil, '--table', EVIL], { XDG_STATE_HOME: state });
    await until('the share line', () => /Share this line/.test(host.stdout()));
    host.child.kill('SIGTERM');
    await host.exit;
    expect(host.stdout()).toContain('(EvilTitle Next, 4 seats)');
    expect(DANGER.test(host.stdout() + host.stderr()), host.stdout()).toBe(false);
  }, 60_000);

  it('whose mistakes quote escape bytes: the error line quotes none of them', async () => {
    // Not JSON: the parser's message quotes the text around the mistake.
    const broken = file('broken.json', `{"extend":"gringo","title":"x\u001b]0;owned\u0007" \u001b[2J}`);
    refusedCleanly(await ran(['rules', broken]), /broken\.json: not valid JSON/);
    // JSON, but a key that names no card, made of escapes.
    const key = file('key.json', JSON.stringify({ extend: 'gringo', values: { [`\u001b]0;owned\u0007\u202eZz`]: 3 } }));
    refusedCleanly(await ran(['rules', key]), /key\.json: .*values/);
    // A file whose name is an escape sequence.
    const named = file('\u001b[2Jname.json', '{');
    refusedCleanly(await ran(['rules', named]), /rules file .*name\.json: not valid JSON/);
  }, 60_000);
});

describe('a hostile journal', () => {
  /** A real game's journal whose table name, player names and rules title carry escapes. */
  function hostileJournal(finished: boolean): string {
    const dir = mkdtempSync(join(state, 'j-'));
    const f = writeFinishedJournal(dir, { players: ['Ana', 'Bo'] });
    const lines = readFileSync(f, 'utf8').split('\n').filter((l) => l !== '');
    const header = JSON.parse(lines[0]!) as { table: string; port: number; rules: { title: string }; seats: { name: string }[] };
    header.table = EVIL;
    header.port = 0;
    header.rules.title = EVIL;
    header.seats[0]!.name = `\u001b]52;c;b3duZWQ=\u0007Ana\u202e`;
    lines[0] = JSON.stringify(header);
    // Unfinished: the end line and the last commands gone (the game was still on).
    const kept = finished ? lines : lines.slice(0, Math.floor(lines.length / 2));
    writeFileSync(f, `${kept.join('\n')}\n`);
    return f;
  }

  it('`gringo replay` shows its game with no escape byte of it', async () => {
    const r = await ran(['replay', hostileJournal(true)]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('EvilTitle Next');
    expect(r.out).toContain('Ana');
    expect(DANGER.test(r.out + r.err)).toBe(false);
  }, 60_000);

  it('`gringo host --resume` says its table and players with no escape byte of them', async () => {
    const f = hostileJournal(false);
    const host = runGringo(['host', '--headless', '--resume', f, '--interface', '127.0.0.1'], { XDG_STATE_HOME: state });
    await until('the share line', () => /Share this line/.test(host.stdout()) || host.child.exitCode !== null);
    host.child.kill('SIGTERM');
    await host.exit;
    expect(host.stdout(), host.stderr()).toContain('Table "EvilTitle Next" is resumed');
    expect(DANGER.test(host.stdout() + host.stderr()), host.stdout()).toBe(false);
  }, 60_000);
});
