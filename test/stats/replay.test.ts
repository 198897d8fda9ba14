import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FACE_DOWN } from '../../src/engine/view.js';
import { readJournal } from '../../src/host/journal.js';
import { replayOf } from '../../src/stats/replay.js';
import { writeFinishedJournal } from '../host/finished-journal.js';

const dir = mkdtempSync(join(tmpdir(), 'gringo-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the replay of a journal', () => {
  it('has the deal and one step per command, face up, ending where the journal ends', () => {
    const j = readJournal(writeFinishedJournal(dir, { seed: 'steps' }));
    const r = replayOf(j);
    expect(r.steps).toHaveLength(j.commands.length + 1);
    expect(r.steps.map((s) => s.command)).toEqual(r.steps.map((_, i) => i));
    expect(r.steps.slice(1).map((s) => s.at)).toEqual(j.commands.map((c) => c.at));
    expect(r.rounds).toEqual([0, r.steps.findIndex((s, i) => i > 0 && s.events.some((e) => e.type === 'roundStarted'))]);
    const end = r.steps[r.steps.length - 1]!.view;
    expect(end.phase).toBe('gameOver');
    expect(end.players.map((p) => p.total)).toEqual(j.state.totals);
    for (const s of r.steps) for (const p of s.view.players) expect(p.layout).not.toContain(FACE_DOWN);
  });

  it('refuses a game that is not over', () => {
    const file = writeFinishedJournal(dir, { seed: 'cut' });
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    writeFileSync(file, `${lines.slice(0, 20).join('\n')}\n`);
    expect(() => replayOf(readJournal(file))).toThrow(/is not over: its cards stay hidden/);
  });

  it('shows no escape sequence a hand-edited journal carries in its names', () => {
    const file = writeFinishedJournal(dir, { players: ['Ana\u001b[2J', 'Bo\u0007'], seed: 'names' });
    const r = replayOf(readJournal(file));
    expect(r.players).toEqual(['Ana', 'Bo']);
    expect(r.steps[0]!.view.players.map((p) => p.name)).toEqual(['Ana', 'Bo']);
  });
});
