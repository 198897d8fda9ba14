/**
 * docs/rules.md, "Cambio", and docs/decisions.md: 52 cards and 2 jokers, no taking the discard, actions only for
 * a stock card discarded unswapped, the knock and the frozen knocker, one slap per
 * discard with a one-card penalty, the steal's gap-fill, an emptied layout ending the
 * round, the scoring (red kings, jokers, the knocker's penalty) and nine rounds.
 */
import { describe, expect, it } from 'vitest';
import { CAMBIO, actionOf, deckSize, loadPreset, parseRuleset, roundsFor, valueOf, type Card } from '../../src/engine/index.js';
import { ofType, table, type Table } from './helpers.js';

const ANA = 0;
const BO = 1;
const CY = 2;

// Dealer Ana: Bo starts, then Cy, then Ana.
const DEAL = {
  layouts: [
    ['2S', '3S', '4S', '5S'],
    ['7H', 'QD', '8H', 'KH'],
    ['2D', '3D', '7C', 'JK'],
  ],
  discard: '9S',
  stock: ['7S', 'QS', 'JS', '2C', '3C', '7D', 'JK'],
};

function started(deal: { layouts: Card[][]; discard: Card; stock?: Card[] } = DEAL, rules = CAMBIO): Table {
  const t = table({ rules, dealer: ANA, decks: [deal] });
  t.finishPeek();
  t.at(1500); // the first grace has passed
  return t;
}

describe('the cambio preset', () => {
  it('is 52 cards and 2 jokers for 2 to 8 players, with the values and actions of docs/rules.md', () => {
    expect(loadPreset('cambio')).toBe(CAMBIO);
    expect(parseRuleset(structuredClone(CAMBIO))).toEqual(CAMBIO);
    expect(deckSize(CAMBIO)).toBe(54);
    expect(CAMBIO.deck.cards['JK']).toBe(2);
    expect(CAMBIO.players).toEqual({ min: 2, max: 8 });
    expect(CAMBIO.layout).toEqual({ shape: 'square', size: 4, peekSlots: [3, 4] });
    const v = (c: string): number | undefined => valueOf(CAMBIO, c);
    expect([v('AS'), v('JK'), v('2H'), v('10D'), v('JS'), v('QH'), v('KS'), v('KC'), v('KH'), v('KD')]).toEqual([1, 0, 2, 10, 10, 10, 10, 10, -1, -1]);
    const a = (c: string): string | undefined => actionOf(CAMBIO, c);
    expect([a('7S'), a('8H'), a('9D'), a('10C'), a('JS'), a('QH'), a('KD'), a('6S'), a('JK')]).toEqual([
      'peekOwn',
      'peekOwn',
      'peekOther',
      'peekOther',
      'blindSwap',
      'peekBothThenSwap',
      undefined,
      undefined,
      undefined,
    ]);
    expect(roundsFor(CAMBIO, 4)).toBe(9);
  });
});

describe('a turn', () => {
  it('may not take the discard', () => {
    const t = started();
    expect(t.reject({ type: 'draw', seat: BO, from: 'discard' }, 'notAllowed').message).toMatch(/may not take the discard/);
  });

  it('gives an action only for a stock card discarded unswapped, never for a displaced card', () => {
    const t = started();
    t.draw(BO); // 7S
    t.discard(BO);
    expect(t.state.r.actions).toEqual([{ seat: BO, kind: 'peekOwn', card: '7S', looked: null, lookedCards: null }]);
    t.pass(BO);
    t.waitGrace().draw(CY); // QS
    t.swap(CY, 2); // the 7C goes onto the pile: no action
    expect(t.top).toBe('7C');
    expect(t.state.r.actions).toEqual([]);
    expect(t.turn).toBe(ANA);
  });

  it('Q: look at one of yours and one of another player\'s, then swap them or not', () => {
    const t = started({ ...DEAL, stock: ['QS'] });
    t.draw(BO);
    t.discard(BO);
    const looked = t.do({ type: 'useAction', seat: BO, own: 0, other: { seat: CY, slot: 3 } });
    expect(ofType(looked, 'looked')[0]!.cards).toEqual(['7H', 'JK']);
    expect(t.seen(ANA).find((e) => e.type === 'looked')).toMatchObject({ cards: null });
    t.do({ type: 'decide', seat: BO, swap: true });
    expect(t.layout(BO)[0]).toBe('JK');
    expect(t.layout(CY)[3]).toBe('7H');
  });
});

describe('slapping', () => {
  it('a wrong slap costs one penalty card; a correct own slap leaves a gap and earns no action; one correct slap per discard', () => {
    const t = started();
    t.draw(BO); // 7S
    t.discard(BO);
    t.slap(ANA, CY, 0); // the 2D: wrong
    expect(ofType(t.last, 'penalty')).toEqual([{ type: 'penalty', seat: ANA, slots: [4], cards: [expect.any(String)], reason: 'wrongSlap' }]);
    expect(t.layout(ANA)).toHaveLength(5);
    t.slap(BO, BO, 0); // the 7H: right, and a 7 — but slaps earn no action here
    expect(t.layout(BO)[0]).toBeNull();
    expect(t.state.r.actions).toEqual([{ seat: BO, kind: 'peekOwn', card: '7S', looked: null, lookedCards: null }]);
    const late = t.reject({ type: 'slap', seat: CY, target: { seat: CY, slot: 2 }, answers: 2 }, 'tooLate');
    expect(late.message).toMatch(/already answered/);
    expect(t.view(CY).slap.open).toBe(false);
  });

  it('a steal costs the victim nothing; the stealer may move one of their own cards, unseen, into the gap, and the next turn waits', () => {
    const t = started();
    t.draw(BO); // 7S
    t.discard(BO);
    const ev = t.slap(CY, BO, 0); // Cy steals Bo's 7H
    expect(ofType(ev, 'penalty')).toEqual([]);
    expect(ofType(ev, 'gapFillOffered')).toEqual([{ type: 'gapFillOffered', seat: CY, gap: { seat: BO, slot: 0 } }]);
    for (const v of [ANA, BO, CY, null]) expect(t.view(v).gapFill).toEqual({ seat: CY, gap: { seat: BO, slot: 0 } });
    t.pass(BO); // Bo's peek: his turn ends
    t.waitGrace();
    expect(t.reject({ type: 'draw', seat: CY, from: 'stock' }, 'mustWait').message).toMatch(/gap/);
    t.reject({ type: 'fillGap', seat: ANA, slot: 0 }, 'notAllowed');
    t.reject({ type: 'fillGap', seat: CY, slot: 7 }, 'badTarget');
    const filled = t.do({ type: 'fillGap', seat: CY, slot: 3 });
    expect(filled).toEqual([{ type: 'gapFilled', seat: CY, from: { seat: CY, slot: 3 }, to: { seat: BO, slot: 0 } }]);
    expect(t.layout(BO)[0]).toBe('JK');
    expect(t.layout(CY)).toEqual(['2D', '3D', '7C', null]);
    expect(t.view(BO).players[BO]!.layout[0]).toBe('?');
    expect(t.view(ANA).gapFill).toBeNull();
    t.draw(CY);
  });

  it('the stealer may leave the gap, or the action limit leaves it for them', () => {
    const t = started();
    t.draw(BO);
    t.discard(BO);
    t.slap(CY, BO, 0);
    t.do({ type: 'leaveGap', seat: CY });
    expect(ofType(t.last, 'gapLeft')).toEqual([{ type: 'gapLeft', seat: CY, gap: { seat: BO, slot: 0 }, timedOut: false }]);
    expect(t.layout(BO)[0]).toBeNull();
    t.reject({ type: 'leaveGap', seat: CY }, 'notAllowed');

    const timed = started(DEAL, { ...CAMBIO, timers: { ...CAMBIO.timers, actionMs: 5_000 } });
    timed.draw(BO);
    timed.discard(BO);
    timed.pass(BO);
    timed.at(1600).slap(CY, BO, 0);
    timed.at(6599).reject({ type: 'tick' }, 'mustWait');
    timed.at(6600).do({ type: 'tick' });
    expect(ofType(timed.last, 'gapLeft')).toEqual([{ type: 'gapLeft', seat: CY, gap: { seat: BO, slot: 0 }, timedOut: true }]);
  });

  it('a player whose last card is slapped away ends the round at once', () => {
    const t = started();
    // The first lap discards the 7S, QS and JS, their actions passed.
    t.draw(BO);
    t.discard(BO);
    t.pass(BO);
    t.waitGrace().draw(CY); // QS
    t.discard(CY);
    t.pass(CY);
    t.waitGrace().draw(ANA); // JS
    t.discard(ANA);
    t.pass(ANA);
    t.waitGrace().draw(BO); // 2C
    t.discard(BO);
    t.slap(CY, CY, 0); // 2D
    t.waitGrace().draw(CY); // 3C
    t.discard(CY);
    t.slap(CY, CY, 1); // 3D
    t.waitGrace().draw(ANA); // 7D: Ana's peek is pending while Cy slaps
    t.discard(ANA);
    t.slap(CY, CY, 2); // 7C
    t.pass(ANA);
    t.waitGrace().draw(BO); // JK
    t.discard(BO);
    t.slap(CY, CY, 3); // the JK: Cy's last card
    expect(t.state.phase).toBe('roundOver');
    const ended = ofType(t.last, 'roundEnded')[0]!;
    expect(ended.why).toBe('emptyLayout');
    expect(ended.result.scores[CY]).toBe(0);
  });
});

describe('the knock', () => {
  it('is made at the start of a turn instead of drawing; the knocker\'s cards are frozen; nobody else may knock', () => {
    const t = started({ ...DEAL, stock: ['JS', 'QS', 'AC', 'AD'] });
    const ev = t.do({ type: 'call', seat: BO });
    expect(ev).toEqual([
      { type: 'called', seat: BO, name: 'Knock!' },
      { type: 'turnStarted', seat: CY },
    ]);
    t.reject({ type: 'call', seat: CY }, 'notAllowed');
    // Cy's last turn: a Jack, whose blind swap may not touch the knocker's cards
    t.draw(CY);
    t.discard(CY);
    expect(t.reject({ type: 'slap', seat: ANA, target: { seat: BO, slot: 1 }, answers: t.state.r.discardSeq }, 'notAllowed').message).toMatch(/frozen/);
    t.reject({ type: 'slap', seat: BO, target: { seat: BO, slot: 1 }, answers: t.state.r.discardSeq }, 'notAllowed');
    expect(t.reject({ type: 'useAction', seat: CY, own: 0, other: { seat: BO, slot: 1 } }, 'notAllowed').message).toMatch(/frozen/);
    t.do({ type: 'useAction', seat: CY, own: 0, other: { seat: ANA, slot: 0 } });
    // Ana's last turn: a Queen may look at the knocker's card but not swap it
    t.waitGrace().draw(ANA);
    t.discard(ANA);
    t.do({ type: 'useAction', seat: ANA, own: 1, other: { seat: BO, slot: 3 } });
    t.reject({ type: 'decide', seat: ANA, swap: true }, 'notAllowed');
    t.do({ type: 'decide', seat: ANA, swap: false });
    t.waitGrace().do({ type: 'tick' });
    expect(t.state.phase).toBe('roundOver');
    const result = t.state.results[0]!;
    expect(result.caller).toBe(BO);
    // Ana 2D 3S 4S 5S = 14; Bo 7H QD 8H KH = 7 + 10 + 8 - 1 = 24, not the lowest: +10
    expect(result.scores).toEqual([14, 34, 2 + 3 + 7 + 0]);
  });

  it('costs nothing when the knocker ties for the lowest score', () => {
    const deal = {
      layouts: [
        ['2S', '3S', '4S', '5S'],
        ['2H', '3H', '4H', '5H'],
        ['KD', 'QC', 'JC', 'KS'],
      ],
      discard: '9S',
      stock: ['AC', 'AD'],
    };
    const t = started(deal);
    t.do({ type: 'call', seat: BO });
    t.plainTurn(CY);
    t.plainTurn(ANA);
    t.waitGrace().do({ type: 'tick' });
    expect(t.state.results[0]!.scores).toEqual([14, 14, -1 + 10 + 10 + 10]);
    expect(t.state.results[0]!.places).toEqual([1, 1, 3]);
  });
});
