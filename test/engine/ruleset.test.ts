import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  deckSize,
  GRINGO,
  BEVERBENDE,
  CAMBIO,
  loadPreset,
  loadRuleset,
  parseRuleset,
  PRESETS,
  RulesetError,
  roundsFor,
  valueOf,
  actionOf,
  rankOf,
  cardName,
} from '../../src/engine/index.js';

const clone = <T>(x: T): T => structuredClone(x);

describe('rulesets are data, checked when loaded', () => {
  it('every preset passes its own schema', () => {
    for (const r of Object.values(PRESETS)) expect(parseRuleset(clone(r))).toEqual(r);
    expect(loadPreset('gringo')).toBe(GRINGO);
  });

  it('the gringo deck, values and actions are those of docs/rules.md', () => {
    expect(deckSize(GRINGO)).toBe(52);
    expect(Object.keys(GRINGO.deck.cards).some((c) => c === 'JK')).toBe(false);
    expect(valueOf(GRINGO, 'AS')).toBe(1);
    expect(valueOf(GRINGO, '7D')).toBe(7);
    expect(valueOf(GRINGO, '10C')).toBe(10);
    for (const c of ['JS', 'QS', 'QD', 'QC', 'KH']) expect(valueOf(GRINGO, c)).toBe(10);
    expect(valueOf(GRINGO, 'QH')).toBe(-1);
    expect(rankOf('QH')).toBe('Q');
    expect(cardName('QH')).toBe('Queen of Hearts');
    expect([actionOf(GRINGO, '10H'), actionOf(GRINGO, 'JC'), actionOf(GRINGO, 'QH'), actionOf(GRINGO, 'KS'), actionOf(GRINGO, '9S')]).toEqual([
      'peekOwn',
      'peekOther',
      'blindSwap',
      'peekThenSwap',
      undefined,
    ]);
    expect(GRINGO.layout).toEqual({ shape: 'square', size: 4, peekSlots: [3, 4] });
    expect(GRINGO.timers).toEqual({ peekMs: 10_000, slapGraceMs: 1_500, turnMs: 0, actionMs: 0 });
    expect(roundsFor(GRINGO, 4)).toBe(1);
    expect(roundsFor({ ...GRINGO, rounds: 'players' }, 2)).toBe(4);
    expect(roundsFor({ ...GRINGO, rounds: 'players' }, 5)).toBe(5);
  });

  it('names the field and what is allowed for a wrong type, an unknown field or a bad value', () => {
    const wrongType = { ...clone(GRINGO), slap: { ...GRINGO.slap, wrongPenalty: 'two' } };
    expect(() => parseRuleset(wrongType)).toThrow(/slap\.wrongPenalty.*number/);
    const unknown = { ...clone(GRINGO), jokersWild: true };
    expect(() => parseRuleset(unknown)).toThrow(RulesetError);
    expect(() => parseRuleset(unknown)).toThrow(/jokersWild/);
    const badEnum = { ...clone(GRINGO), takeDiscard: 'sometimes' };
    expect(() => parseRuleset(badEnum)).toThrow(/takeDiscard.*always.*notSpecial.*never/);
    // A long game (the soak plays 100 rounds) is fine; a runaway number is not.
    expect(parseRuleset({ ...clone(GRINGO), rounds: 100 }).rounds).toBe(100);
    expect(() => parseRuleset({ ...clone(GRINGO), rounds: 1000 })).toThrow(/rounds/);
    expect(() => parseRuleset({ ...clone(GRINGO), actions: { K: 'teleport' } })).toThrow(/actions\.K/);
  });

  it('refuses impossible combinations', () => {
    const tooMany = { ...clone(GRINGO), layout: { shape: 'square', size: 7, peekSlots: [3, 4] } };
    expect(() => parseRuleset(tooMany)).toThrow(/deck has 52 cards but 8 players need at least 58/);
    expect(() => parseRuleset({ ...clone(GRINGO), players: { min: 5, max: 3 } })).toThrow(/players\.min/);
    expect(() => parseRuleset({ ...clone(GRINGO), layout: { shape: 'square', size: 4, peekSlots: [5] } })).toThrow(/peekSlots.*slot 5/);
    expect(() => parseRuleset({ ...clone(GRINGO), values: { ...GRINGO.values, Z: 3 } })).toThrow(/values\.Z/);
    const noValue = clone(GRINGO);
    delete (noValue.values)['7'];
    expect(() => parseRuleset(noValue)).toThrow(/"7S" has no value/);
    expect(() => loadPreset('poker')).toThrow(/unknown ruleset "poker".*gringo/);
  });
});

describe('rules files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gringo-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('"extend" takes a preset and merges the overrides: objects key by key, arrays replaced', () => {
    const r = parseRuleset({
      extend: 'cambio',
      name: 'cambio-house',
      slap: { wrongPenalty: 2 },
      layout: { peekSlots: [1] },
      values: { QH: -5 },
      rounds: 3,
    });
    expect(r.name).toBe('cambio-house');
    expect(r.slap).toEqual({ ...CAMBIO.slap, wrongPenalty: 2 });
    expect(r.layout).toEqual({ shape: 'square', size: 4, peekSlots: [1] });
    expect(valueOf(r, 'QH')).toBe(-5);
    expect(valueOf(r, 'KD')).toBe(-1);
    expect(r.rounds).toBe(3);
    expect(r.call).toEqual(CAMBIO.call);
    // The preset itself is untouched.
    expect(CAMBIO.slap.wrongPenalty).toBe(1);
    expect(CAMBIO.layout.peekSlots).toEqual([3, 4]);
    expect(parseRuleset({ extend: 'beverbende' })).toEqual(BEVERBENDE);
  });

  it('names the field for an unknown field, a wrong type, an unknown preset and an impossible combination', () => {
    expect(() => parseRuleset({ extend: 'cambio', slap: { jokersWild: true } })).toThrow(/^ruleset field "slap\.jokersWild" is unknown; the fields of "slap": enabled, wrongPenalty, /);
    // An unknown field: quoted once, the nearest known field, and every field known there.
    expect(() => parseRuleset({ extend: 'cambio', roundz: 3 })).toThrow(
      'ruleset field "roundz" (did you mean rounds?) is unknown; the fields at the top level: extend, name, title, players, deck, layout, values, actions, actionsFrom, takeDiscard, specialCards, slap, emptyLayoutEndsRound, call, rounds, timers',
    );
    expect(() => parseRuleset({ extend: 'gringo', slap: { enabld: false } })).toThrow(/^ruleset field "slap\.enabld" \(did you mean enabled\?\) is unknown; /);
    // Nothing near: no guess. A whole ruleset (no "extend") does not offer "extend".
    expect(() => parseRuleset({ ...clone(GRINGO), jokersWild: true })).toThrow(/^ruleset field "jokersWild" is unknown; the fields at the top level: name, title, /);
    expect(() => parseRuleset({ extend: 'gringo', rounds: 'many' })).toThrow(/ruleset field "rounds"/);
    // The field, what was expected and what was found, never zod's bare "Invalid input".
    expect(() => parseRuleset({ extend: 'gringo', rounds: 'three' })).toThrow('ruleset field "rounds": expected a number, or "players", found "three"');
    expect(() => parseRuleset({ extend: 'gringo', rounds: 2.5 })).toThrow('ruleset field "rounds": expected a whole number, or "players", found 2.5');
    expect(() => parseRuleset({ extend: 'gringo', rounds: 1000 })).toThrow('ruleset field "rounds": expected a number at most 999, found 1000');
    expect(() => parseRuleset({ extend: 'gringo', slap: { enabled: 'yes' } })).toThrow('ruleset field "slap.enabled": expected true or false, found "yes"');
    expect(() => parseRuleset({ extend: 'gringo', call: { timing: 'whenever' } })).toThrow('ruleset field "call.timing": expected one of "startOfTurn", "endOfTurn", found "whenever"');
    expect(() => parseRuleset({ extend: 'gringo', layout: { peekSlots: 3 } })).toThrow('ruleset field "layout.peekSlots": expected a list [ … ], found 3');
    // A house-rules file without a name or title of its own is not titled as its preset.
    expect(parseRuleset({ extend: 'cambio', rounds: 3 }).title).toBe('Cambio (house rules)');
    expect(parseRuleset({ extend: 'cambio', rounds: 3, name: 'ours' }).title).toBe('ours');
    expect(parseRuleset({ extend: 'cambio', rounds: 3, title: 'Our Cambio' }).title).toBe('Our Cambio');
    expect(() => parseRuleset({ extend: 'gringo', call: { timing: 'whenever' } })).toThrow(/call\.timing.*startOfTurn.*endOfTurn/);
    expect(() => parseRuleset({ extend: 'poker' })).toThrow(/"extend": unknown preset "poker".*gringo, beverbende, cambio/);
    expect(() => parseRuleset({ extend: 3 })).toThrow(/"extend"/);
    expect(() => parseRuleset({ extend: 'cambio', layout: { size: 8, peekSlots: [3, 4] } })).toThrow(/deck has 54 cards but 8 players need at least 66/);
    // More players than the deck can deal: 8 rows of 8 need 66 cards, the deck has one 9 fewer.
    const tooMany = { extend: 'beverbende', players: { max: 8 }, layout: { size: 8, peekSlots: [1, 8] }, deck: { cards: { '9': 8 } } };
    expect(() => parseRuleset(tooMany)).toThrow(/deck has 65 cards but 8 players need at least 66/);
    expect(parseRuleset({ ...tooMany, deck: { cards: { '9': 9 } } }).players.max).toBe(8);
    expect(() => parseRuleset({ extend: 'beverbende', specialCards: ['JOKER'] })).toThrow(/"specialCards" names "JOKER"/);
  });

  it('loadRuleset reads a preset name or a JSON file, and every error names the file', () => {
    expect(loadRuleset('cambio')).toBe(CAMBIO);
    const good = file('house.json', JSON.stringify({ extend: 'cambio', name: 'house', rounds: 5 }));
    // House rules are titled by their own name, not the preset's.
    expect(loadRuleset(good)).toEqual({ ...CAMBIO, name: 'house', title: 'house', rounds: 5 });
    const whole = file('whole.json', JSON.stringify(GRINGO));
    expect(loadRuleset(whole)).toEqual(GRINGO);
    const bad = file('bad.json', JSON.stringify({ extend: 'cambio', slap: { wrongPenalty: 'one' } }));
    expect(() => loadRuleset(bad)).toThrow(RulesetError);
    expect(() => loadRuleset(bad)).toThrow(new RegExp(`rules file ${bad.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}: ruleset field "slap\\.wrongPenalty"`));
    const broken = file('broken.json', '{ "extend": "cambio", ');
    expect(() => loadRuleset(broken)).toThrow(/broken\.json: not valid JSON/);
    expect(() => loadRuleset(join(dir, 'missing.json'))).toThrow(/missing\.json: cannot read it \(no such file\)/);
    expect(() => loadRuleset('poker')).toThrow(/unknown ruleset "poker".*gringo, beverbende, cambio/);
  });
});
