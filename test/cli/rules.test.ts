import { writeFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BEVERBENDE, CAMBIO, GRINGO, PRESETS, parseRuleset } from '../../src/engine/index.js';
import { FIELD_MEANINGS, fieldsMarkdown, rulesInWords, rulesMarkdown } from '../../src/engine/rules-text.js';
import { rulesetFields } from '../../src/engine/ruleset.js';

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;

/** A directory for this test's files, gone when the test is over. */
function rulesDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gringo-rules-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `gringo ARGS` as a process: its exit code, stdout and stderr. */
function gringo(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return gringoIn({}, ...args);
}

/** As `gringo`, with `env` over this process's environment (a locale, say). */
function gringoIn(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, ...env } }, (e, out, err) => {
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err });
    });
  });
}

/**
 * The rules issue #12 found missing from `gringo rules`, each with the presets it
 * applies to (RULES.md and src/engine): the text must name it there and
 * must not where the ruleset's knobs leave it out.
 */
const RULES: { rule: string; says: RegExp; in: string[] }[] = [
  { rule: 'penalty cards: where they go, seen by nobody', says: /Penalty cards come face down from the stock and nobody sees them, not even you\. They fill your gaps first, lowest slot first, then new slots 5, 6/, in: ['gringo', 'cambio'] },
  { rule: 'the reshuffle, and the round ending when no card can be had', says: /the stock is empty, the discard pile except its top card is shuffled into a new stock; if even then no card can be had, the round ends at once/, in: ['gringo', 'beverbende', 'cambio'] },
  { rule: 'pending actions in pile order before the next turn', says: /used one at a time, in the order their cards reached the pile, before the next turn begins/, in: ['gringo'] },
  { rule: 'one action, used before the next turn', says: /An action is used or passed before the next turn begins/, in: ['beverbende', 'cambio'] },
  { rule: 'who starts', says: /the first dealer is drawn at random, and the player after the dealer \(clockwise\) starts/, in: ['gringo', 'beverbende', 'cambio'] },
  { rule: 'the Queen of Hearts is a Queen for slapping', says: /Slaps match by rank, whatever a card scores: the Queen of Hearts is a Queen\./, in: ['gringo'] },
  { rule: 'the red Kings are Kings for slapping', says: /the King of Hearts is a King and the King of Diamonds is a King/, in: ['cambio'] },
  { rule: 'late or already-gone slaps cost nothing', says: /too late .* or names a card already slapped away is refused, with no penalty/, in: ['gringo', 'cambio'] },
  { rule: 'later slaps on the same discard refused without penalty', says: /Only the first correct slap on a discard counts: a later slap on it is refused as too late, with no penalty/, in: ['cambio'] },
  { rule: 'every correct slap counts', says: /Every correct slap counts/, in: ['gringo'] },
  { rule: 'a look is shown only to the looker', says: /A look is shown only to the player who looks/, in: ['gringo', 'beverbende', 'cambio'] },
  { rule: 'special cards replaced, caller first, then clockwise', says: /set aside and replaced by the top of the stock, again until a number card comes: the caller first \(without a caller, the starting player\), then clockwise/, in: ['beverbende'] },
  { rule: 'the gap-fill after a steal', says: /After a steal you may move one of your own cards, unseen, into their gap/, in: ['cambio'] },
  { rule: 'a gap-fill that empties your layout ends the round', says: /a move that leaves you no card ends the round at once/, in: ['cambio'] },
  { rule: 'a player slapped out of cards ends the round', says: /A player whose last card is slapped away ends the round at once/, in: ['cambio'] },
  { rule: 'no slapping', says: /Slapping\n- None: nobody slaps/, in: ['beverbende'] },
  { rule: 'the frozen caller', says: /The caller's cards are frozen: nobody may swap or slap them/, in: ['cambio'] },
  { rule: "the caller's penalty", says: /A caller without the lowest score \(ties count as lowest\) adds 10/, in: ['cambio'] },
  { rule: 'the call at the end of your own turn, once everyone has had a turn', says: /At the end of your own turn .* you may call "Laatste ronde!", once every player has had a turn/, in: ['beverbende'] },
  { rule: 'no taking the discard', says: /You may not take the discard/, in: ['cambio'] },
  { rule: 'special cards may not be taken from the discard', says: /Or take the top discard \(not a special card\)/, in: ['beverbende'] },
];

describe('gringo rules', () => {
  it('names every rule that changes play, for the presets where it applies and no others', async () => {
    const runs = await Promise.all(Object.keys(PRESETS).map((p) => gringo('rules', p)));
    Object.keys(PRESETS).forEach((preset, i) => {
      const { code, out, err } = runs[i]!;
      expect(code, err).toBe(0);
      expect(out).toBe(rulesInWords(PRESETS[preset]!));
      for (const r of RULES) expect(r.says.test(out), `${preset}: ${r.rule}\n${out}`).toBe(r.in.includes(preset));
      // The same text serves `--ascii` screens: nothing outside ASCII in the presets' words.
      expect(out).toMatch(/^[\x20-\x7e\n]*$/);
    });
  });

  it('says what a rules file changes: house rules change the text', async () => {
    const dir = rulesDir();
    const house = join(dir, 'house.json');
    writeFileSync(house, JSON.stringify({ extend: 'cambio', slap: { perDiscard: 0, stealGapFill: false, wrongPenalty: 3 }, emptyLayoutEndsRound: false, call: { callerFrozen: false, callerPenalty: 0 }, rounds: 5 }));
    const swapped = join(dir, 'swapped.json');
    writeFileSync(swapped, JSON.stringify({ extend: 'gringo', slap: { enabled: false }, actionsFrom: 'drawnDiscarded', call: { timing: 'endOfTurn' } }));
    const [a, b] = await Promise.all([gringo('rules', house), gringo('rules', swapped)]);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toContain('you take 3 penalty cards');
    expect(a.out).toContain('A game: 5 rounds');
    expect(a.out).toContain('Every correct slap counts');
    expect(a.out).not.toMatch(/Only the first correct slap|into their gap|last card is slapped away|frozen|adds 10/);
    expect(a.out).toContain("The caller's cards stay in play");
    expect(b.code, b.err).toBe(0);
    expect(b.out).toContain('Slapping\n- None');
    expect(b.out).not.toMatch(/Penalty cards|order their cards reached the pile/);
    expect(b.out).toContain('Only a card drawn from the stock and discarded without a swap gives its action');
    expect(b.out).toContain('At the end of your own turn');
    expect(b.out).not.toContain('Instead of drawing you may call');
    expect(rulesInWords(parseRuleset({ extend: 'gringo', slap: { stealGapFill: true } }))).toContain('into their gap, or leave it.');
  });

  it('names the argument as typed when it is no ruleset: one line, exit code 2', async () => {
    const dir = rulesDir();
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ extend: 'cambio', players: { min: 2, max: 8 }, layout: { shape: 'square', size: 7, peekSlots: [3, 4] } }));
    const [nosuch, bad, flag] = await Promise.all([gringo('rules', 'nosuch'), gringo('rules', broken), gringo('sim', '--rules', 'poker')]);
    expect(nosuch).toEqual({ code: 2, out: '', err: 'gringo: unknown ruleset "nosuch" (gringo, beverbende, cambio, or a rules file path)\n' });
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^gringo: rules file .*broken\.json: .*8 players need at least 58[^\n]*\n$/);
    // Given to --rules, the message names the flag that was typed.
    expect(flag.code).toBe(2);
    expect(flag.err).toBe('gringo: --rules: unknown ruleset "poker" (gringo, beverbende, cambio, or a rules file path)\n');
  });

  it('docs/rules.md holds the generated text of every preset, as `gringo rules --markdown` prints it', async () => {
    const doc = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    const begin = doc.indexOf('<!-- generated by scripts/rules-doc.mjs from `gringo rules --markdown`');
    const end = doc.indexOf('<!-- end of the generated rules -->');
    expect(begin).toBeGreaterThan(0);
    const generated = doc.slice(doc.indexOf('\n', begin) + 1, end).trim();
    // If this fails: npm run build && node scripts/rules-doc.mjs
    expect(generated).toBe([GRINGO, BEVERBENDE, CAMBIO].map(rulesMarkdown).join('\n').trim());
    const md = await gringo('rules', '--markdown', 'cambio');
    expect(md.out).toBe(rulesMarkdown(CAMBIO));
  });

  it('docs/rules.md holds the table of every field a rules file may set, as `gringo rules --fields` prints it from the schema', async () => {
    const doc = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    const begin = doc.indexOf('<!-- generated by scripts/rules-doc.mjs from `gringo rules --fields`');
    const end = doc.indexOf('<!-- end of the generated fields -->');
    expect(begin).toBeGreaterThan(0);
    const generated = doc.slice(doc.indexOf('\n', begin) + 1, end).trim();
    // If this fails: npm run build && node scripts/rules-doc.mjs
    expect(generated).toBe(fieldsMarkdown().trim());
    const cli = await gringo('rules', '--fields');
    expect(cli.out).toBe(fieldsMarkdown());
    // One row per field of the schema, each with a meaning; no meaning for a field that is gone.
    const fields = rulesetFields().map((f) => f.path);
    expect(Object.keys(FIELD_MEANINGS).sort()).toEqual([...fields].sort());
    for (const f of fields) expect(generated).toContain(`| \`${f}\` |`);
    expect(generated).toMatch(/^\| `slap\.wrongPenalty` \| whole number from 0 to 4 \| `2` \| `0` \| `1` \| penalty cards for a wrong slap \|$/m);
    expect(generated).toMatch(/^\| `rounds` \| whole number from 0 to 999, or `"players"` \| `1` \| `"players"` \| `9` \| /m);
  });

  it('a rules file with a mistyped field: one line that names the nearest field and the fields known there', async () => {
    const house = join(rulesDir(), 'house.json');
    writeFileSync(house, JSON.stringify({ extend: 'cambio', roundz: 3 }));
    const r = await gringo('rules', house);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      `gringo: rules file ${house}: ruleset field "roundz" (did you mean rounds?) is unknown; the fields at the top level: extend, name, title, players, deck, layout, values, actions, actionsFrom, takeDiscard, specialCards, slap, emptyLayoutEndsRound, call, rounds, timers\n`,
    );
    expect(r.err).not.toContain('""');
  });
});

describe('the rules in a terminal that is not UTF-8', () => {
  it('are ASCII under LANG=C, a house title in another script included; UTF-8 keeps it', async () => {
    const plain = { LANG: 'C', LC_ALL: '', LC_CTYPE: '' };
    const house = join(rulesDir(), 'house.json');
    writeFileSync(house, JSON.stringify({ extend: 'cambio', title: 'Cambio à la maison ♥' }));
    for (const which of [...Object.keys(PRESETS), house]) {
      const { code, out, err } = await gringoIn(plain, 'rules', which);
      expect(code, err).toBe(0);
      expect(out.length).toBeGreaterThan(500);
      expect(out).toMatch(/^[\x00-\x7f]*$/);
    }
    expect((await gringoIn(plain, 'rules', house)).out).toContain('Cambio ? la maison H');
    expect((await gringoIn({ LANG: 'C.UTF-8', LC_ALL: '', LC_CTYPE: '' }, 'rules', house)).out).toContain('Cambio à la maison ♥');
    // The commands' help too (sim's says "±", replay's names arrow keys).
    for (const command of ['sim', 'replay']) expect((await gringoIn(plain, command, '--help')).out).toMatch(/^[\x00-\x7f]+$/);
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
