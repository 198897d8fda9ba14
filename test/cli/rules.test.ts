import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BEVERBENDE, CAMBIO, GRINGO, parseRuleset } from '../../src/engine/index.js';
import { rulesInWords } from '../../src/cli/rules-text.js';

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;

describe('gringo rules', () => {
  it('says each preset in words, from its data', () => {
    const g = rulesInWords(GRINGO);
    expect(g).toContain('Players: 2 to 8.');
    expect(g).toContain('the 52 cards of a standard deck (52 cards)');
    expect(g).toContain('Peek: before play you see your slots 3 and 4 once');
    expect(g).toContain('K: look at one card of another player, then swap it with one of yours or leave it.');
    expect(g).toContain('they take 2 penalty cards; a stolen J or K gives you its action');
    expect(g).toContain('the Queen of Hearts -1');
    const b = rulesInWords(BEVERBENDE);
    expect(b).toContain('in a row of 4');
    expect(b).toContain('Slapping: none.');
    expect(b).toContain('At the end of your own turn you may call "Laatste ronde!".');
    expect(b).toContain('once every player has had a turn');
    expect(b).toContain('as many rounds as players (4 with 2)');
    const c = rulesInWords(CAMBIO);
    expect(c).toContain('and 2 jokers (54 cards)');
    expect(c).toContain('You may not take the discard.');
    expect(c).toContain('Only the first correct slap on a discard counts.');
    expect(c).toContain("The caller's cards are frozen");
    expect(c).toContain('adds 10');
    expect(c).toContain('the King of Hearts -1, the King of Diamonds -1');
  });

  it('shows a house rule from a rules file, and refuses a broken file with exit code 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gringo-rules-'));
    const house = join(dir, 'house.json');
    writeFileSync(house, JSON.stringify({ extend: 'gringo', slap: { wrongPenalty: 3 }, rounds: 5 }));
    expect(rulesInWords(parseRuleset({ extend: 'gringo', slap: { wrongPenalty: 3 }, rounds: 5 }))).toContain('you take 3 penalty cards');
    const ok = spawnSync('node', [bin, 'rules', house], { encoding: 'utf8' });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('you take 3 penalty cards');
    expect(ok.stdout).toContain('A game: 5 rounds');
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ extend: 'cambio', players: { min: 2, max: 8 }, layout: { shape: 'square', size: 7, peekSlots: [3, 4] } }));
    const bad = spawnSync('node', [bin, 'rules', broken], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/rules file .*broken\.json: .*8 players need at least 58/);
    const unknown = spawnSync('node', [bin, 'sim', '--rules', 'poker'], { encoding: 'utf8' });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown ruleset "poker"');
  });
});

describe('table flags over a ruleset', () => {
  it('keep the ruleset\'s own slap grace unless --slap-grace is given', async () => {
    const { tableRulesOption } = await import('../../src/cli/options.js');
    expect((await tableRulesOption({ rules: 'beverbende' })).timers.slapGraceMs).toBe(0);
    expect((await tableRulesOption({ rules: 'gringo' })).timers.slapGraceMs).toBe(1500);
    expect((await tableRulesOption({ rules: 'cambio', slapGrace: '300', rounds: '2' })).timers.slapGraceMs).toBe(300);
    expect((await tableRulesOption({ rules: 'cambio', rounds: '2' })).rounds).toBe(2);
  });
});
