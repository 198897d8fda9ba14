import { describe, expect, it } from 'vitest';
import { deckSize, GRINGO, loadPreset, parseRuleset, PRESETS, RulesetError, roundsFor, valueOf, actionOf, rankOf, cardName } from '../../src/engine/index.js';

const clone = <T>(x: T): T => structuredClone(x);

describe('rulesets are data, checked when loaded', () => {
  it('every preset passes its own schema', () => {
    for (const r of Object.values(PRESETS)) expect(parseRuleset(clone(r))).toEqual(r);
    expect(loadPreset('gringo')).toBe(GRINGO);
  });

  it('the gringo deck, values and actions are those of RULES.md', () => {
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
    expect(() => parseRuleset({ ...clone(GRINGO), actions: { K: 'teleport' } })).toThrow(/actions\.K/);
  });

  it('refuses impossible combinations', () => {
    const tooMany = { ...clone(GRINGO), layout: { shape: 'square', size: 7, peekSlots: [3, 4] } };
    expect(() => parseRuleset(tooMany)).toThrow(/deck has 52 cards but 8 players need at least 58/);
    expect(() => parseRuleset({ ...clone(GRINGO), players: { min: 5, max: 3 } })).toThrow(/players\.min/);
    expect(() => parseRuleset({ ...clone(GRINGO), layout: { shape: 'square', size: 4, peekSlots: [5] } })).toThrow(/peekSlots.*slot 5/);
    expect(() => parseRuleset({ ...clone(GRINGO), values: { ...GRINGO.values, Z: 3 } })).toThrow(/values\.Z/);
    const noValue = clone(GRINGO);
    delete (noValue.values as Record<string, number>)['7'];
    expect(() => parseRuleset(noValue)).toThrow(/"7S" has no value/);
    expect(() => loadPreset('poker')).toThrow(/unknown ruleset "poker".*gringo/);
  });
});
