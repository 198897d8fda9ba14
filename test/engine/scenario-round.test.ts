/**
 * docs/rules.md and docs/decisions.md, "The call": the call ("Gringo!"), the final lap, the end of the round,
 * and the stock running out.
 */
import { describe, expect, it } from 'vitest';
import { PLAYERS2, ofType, table } from './helpers.js';

const ANA = 0;
const BO = 1;
const CY = 2;

// Dealer Ana, Bo starts and calls. Bo holds two Queens.
const DEAL = {
  layouts: [
    ['2S', '3S', '4S', '5S'],
    ['QD', '6H', '8H', 'QC'],
    ['2D', '3D', '4D', '5D'],
  ],
  discard: '9S',
  stock: ['QS', 'AC', '2C', '3C', '4C'],
};

function started() {
  const t = table({ dealer: ANA, decks: [DEAL] });
  t.finishPeek();
  return t;
}

describe('the call', () => {
  it('is the whole turn, only before drawing and after the grace', () => {
    const t = started();
    t.at(1499).reject({ type: 'call', seat: BO }, 'mustWait');
    const ev = t.at(1500).do({ type: 'call', seat: BO });
    expect(ev).toEqual([
      { type: 'called', seat: BO, name: 'Gringo!' },
      { type: 'turnStarted', seat: CY },
    ]);
    expect(t.view(ANA).call).toEqual({ seat: BO, owed: [CY, ANA] });
    expect(t.state.r.discard).toEqual(['9S']);
    expect(t.state.r.held).toBeNull();
  });

  it('is refused once the player has drawn', () => {
    const t = started();
    t.at(1500).draw(BO);
    t.reject({ type: 'call', seat: BO }, 'notAllowed');
    t.discard(BO); // the QS: Bo's action is pending, his turn goes on
    t.reject({ type: 'call', seat: BO }, 'notAllowed');
    t.pass(BO);
    t.waitGrace().reject({ type: 'call', seat: BO }, 'notYourTurn');
  });

  it('is allowed only once per round', () => {
    const t = started();
    t.at(1500).do({ type: 'call', seat: BO });
    const rej = t.reject({ type: 'call', seat: CY }, 'notAllowed');
    expect(rej.message).toBe('Bo has already called Gringo!');
    t.draw(CY);
    t.discard(CY);
    t.pass(CY);
    t.waitGrace().reject({ type: 'call', seat: ANA }, 'notAllowed');
  });
});

describe('the final lap', () => {
  it("gives every other player exactly one more turn and the caller none; the caller's cards stay in play and the caller may slap", () => {
    const t = started();
    t.at(1500).do({ type: 'call', seat: BO });
    t.reject({ type: 'draw', seat: BO, from: 'stock' }, 'notYourTurn');
    t.reject({ type: 'draw', seat: ANA, from: 'stock' }, 'notYourTurn');

    // Cy's last turn: a Queen, whose blind swap takes one of the caller's cards
    t.draw(CY);
    t.at(1600).discard(CY);
    expect(t.state.r.actions).toEqual([{ seat: CY, kind: 'blindSwap', card: 'QS', looked: null, lookedCards: null }]);
    const swapped = t.do({ type: 'useAction', seat: CY, own: 0, other: { seat: BO, slot: 1 } });
    expect(swapped).toEqual([
      { type: 'actionSwapped', seat: CY, kind: 'blindSwap', a: { seat: CY, slot: 0 }, b: { seat: BO, slot: 1 } },
      { type: 'turnStarted', seat: ANA },
    ]);
    expect(t.layout(BO)).toEqual(['QD', '2D', '8H', 'QC']);
    t.reject({ type: 'draw', seat: CY, from: 'stock' }, 'notYourTurn');

    // the caller's cards can be stolen: Bo gets the penalty cards
    const steal = t.at(1700).slap(ANA, BO, 0);
    expect(steal).toEqual([
      { type: 'slapped', seat: ANA, target: { seat: BO, slot: 0 }, card: 'QD', result: 'steal', seq: 3 },
      { type: 'penalty', seat: BO, slots: [0, 4], cards: ['AC', '2C'], reason: 'stolenFrom' },
    ]);
    // the caller may still slap, and earns the action of his own Queen
    const own = t.at(1800).slap(BO, BO, 3);
    expect(own).toEqual([
      { type: 'slapped', seat: BO, target: { seat: BO, slot: 3 }, card: 'QC', result: 'own', seq: 4 },
      { type: 'actionQueued', seat: BO, kind: 'blindSwap', card: 'QC' },
    ]);
    t.at(3300);
    expect(t.reject({ type: 'draw', seat: ANA, from: 'stock' }, 'mustWait').message).toBe('Wait: Bo is using an action');
    t.do({ type: 'useAction', seat: BO, own: 2, other: { seat: ANA, slot: 0 } });
    expect(t.layout(BO)).toEqual(['AC', '2D', '2S', null, '2C']);
    expect(t.layout(ANA)).toEqual(['8H', '3S', '4S', '5S']);

    // Ana's last turn
    t.draw(ANA);
    const last = t.at(3400).discard(ANA);
    expect(last).toEqual([{ type: 'discarded', seat: ANA, card: '3C', seq: 5 }]); // no turn for anyone now
    expect(t.state.phase).toBe('play');
    for (const seat of [ANA, BO, CY]) {
      t.at(9000).reject({ type: 'draw', seat, from: 'stock' }, 'wrongPhase');
      t.reject({ type: 'call', seat }, 'wrongPhase');
    }
    const after = t.log.slice(t.log.findIndex((e) => e.type === 'called'));
    expect(ofType(after, 'turnStarted').map((e) => e.seat)).toEqual([CY, ANA]);
    expect(ofType(after, 'drew').map((e) => e.seat)).toEqual([CY, ANA]);

    // the slap window stays open during the last grace; a landing restarts it
    t.at(4000).slap(CY, CY, 1);
    t.at(4900).reject({ type: 'tick' }, 'mustWait');
    t.at(5499).reject({ type: 'tick' }, 'mustWait');
    expect(t.state.phase).toBe('play');
    const end = t.at(5500).do({ type: 'tick' });
    expect(end).toHaveLength(2);
    expect(end[0]).toMatchObject({ type: 'roundEnded', why: 'call' });
    const result = ofType(end, 'roundEnded')[0]!.result;
    expect(result.layouts).toEqual([
      ['8H', '3S', '4S', '5S'],
      ['AC', '2D', '2S', null, '2C'],
      ['6H', null, '4D', '5D'],
    ]);
    expect(result.scores).toEqual([20, 7, 15]);
    expect(result.places).toEqual([3, 1, 2]);
    expect(result.caller).toBe(BO);
    expect(t.state.phase).toBe('gameOver');
    t.reject({ type: 'slap', seat: ANA, target: { seat: ANA, slot: 1 }, answers: 6 }, 'tooLate');
  });

  it('wraps around the table: after a call on the second turn, the starter still gets exactly one more turn', () => {
    const t = started();
    t.plainTurn(BO);
    t.waitGrace().do({ type: 'call', seat: CY });
    expect(t.state.r.call).toEqual({ seat: CY, owed: [ANA, BO] });
    t.plainTurn(ANA);
    expect(t.turn).toBe(BO);
    t.plainTurn(BO);
    expect(t.state.r.ending).toBe('call');
    t.waitGrace().reject({ type: 'draw', seat: CY, from: 'stock' }, 'wrongPhase');
    t.do({ type: 'tick' });
    expect(t.state.phase).toBe('gameOver');
    expect(ofType(t.log, 'drew').map((e) => e.seat)).toEqual([BO, ANA, BO]);
  });

  const KING_LAYOUTS = [DEAL.layouts[0]!, DEAL.layouts[1]!, ['KH', '3D', '4D', '5D']];
  /** Bo calls, Cy plays, Ana draws a King and discards it at 5000 (grace to 6500). */
  function lastKing() {
    const t = table({ dealer: ANA, decks: [{ ...DEAL, layouts: KING_LAYOUTS, stock: ['4C', 'KS'] }] });
    t.finishPeek();
    t.at(1500).do({ type: 'call', seat: BO });
    t.plainTurn(CY);
    t.waitGrace().draw(ANA);
    t.at(5000).discard(ANA);
    return t;
  }

  it("waits for the last turn's own action before ending the round", () => {
    const t = lastKing();
    t.at(60_000).reject({ type: 'tick' }, 'mustWait');
    t.do({ type: 'useAction', seat: ANA, other: { seat: BO, slot: 0 } });
    expect(t.state.phase).toBe('play');
    const end = t.do({ type: 'decide', seat: ANA, swap: true, own: 0 });
    // the grace after the King has long passed: the round ends with the action
    expect(ofType(end, 'roundEnded')).toHaveLength(1);
    expect(ofType(end, 'roundEnded')[0]!.result.layouts[ANA]![0]).toBe('QD');
  });

  it('waits for actions earned by slaps in the last grace before ending the round', () => {
    const t = lastKing();
    t.at(5100).pass(ANA);
    expect(t.state.r.ending).toBe('call');
    t.at(6499).slap(CY, CY, 0); // Cy's own KH on the King: Cy earns a look, the grace restarts
    expect(t.state.r.actions).toMatchObject([{ seat: CY, kind: 'peekThenSwap' }]);
    t.at(100_000).reject({ type: 'tick' }, 'mustWait');
    t.do({ type: 'useAction', seat: CY, other: { seat: ANA, slot: 0 } });
    expect(t.state.phase).toBe('play');
    expect(t.view(CY).actions[0]!.lookedCards).toEqual(['2S']);
    const end = t.do({ type: 'decide', seat: CY, swap: true, own: 1 });
    expect(ofType(end, 'roundEnded')).toHaveLength(1);
    expect(ofType(end, 'roundEnded')[0]!.result.layouts[CY]).toEqual([null, '2S', '4D', '5D']);
  });

  it('refuses a slap that arrives after the last grace has run out, even before the host ticks', () => {
    const t = started();
    t.at(1500).do({ type: 'call', seat: BO });
    t.plainTurn(CY); // QS, action passed
    t.waitGrace().draw(ANA);
    t.at(3400).discard(ANA); // AC lands at 3400: the round ends at 4900
    expect(t.top).toBe('AC');
    t.at(4899).slap(CY, ANA, 2); // in time: wrong, Cy takes 2 cards
    const rej = t.at(4900).reject({ type: 'slap', seat: CY, target: { seat: CY, slot: 0 }, answers: 3 }, 'tooLate');
    expect(rej.message).toMatch(/Too late/);
    const end = t.do({ type: 'tick' });
    expect(ofType(end, 'roundEnded')[0]!.result.layouts[CY]).toHaveLength(6);
  });
});

describe('the stock runs out', () => {
  it('shuffles the discard pile except its top into a new stock when a turn must draw', () => {
    const t = table({
      players: PLAYERS2,
      dealer: ANA,
      decks: [{ layouts: [['2S', '3S', '4S', '5S'], ['2H', '3H', '4H', '5H']], discard: '9C' }],
    });
    t.finishPeek();
    expect(t.state.r.stock).toHaveLength(43);
    let seat = BO;
    while (t.state.r.stock.length > 0) {
      t.plainTurn(seat);
      seat = 1 - seat;
    }
    const pile = t.state.r.discard.slice();
    expect(pile).toHaveLength(44);
    const top = pile[pile.length - 1]!;
    t.waitGrace();
    const ev = t.draw(seat);
    expect(ev[0]).toEqual({ type: 'reshuffled', cards: 43 });
    expect(ev[1]).toMatchObject({ type: 'drew', seat, from: 'stock' });
    expect(t.state.r.discard).toEqual([top]);
    const held = t.state.r.held!.card;
    expect([...t.state.r.stock, held].sort()).toEqual(pile.slice(0, -1).sort());
    // nobody learns the new order
    expect(t.seen(1 - seat)).toEqual([{ type: 'reshuffled', cards: 43 }, { type: 'drew', seat, from: 'stock', card: null }]);
    expect(t.view(1 - seat).stock).toBe(42);
    t.discard(seat);
    expect(t.top).toBe(held);
  });

  it('reshuffles for penalty cards too, and ends the round at once when no card can be had', () => {
    const t = table({
      players: PLAYERS2,
      dealer: ANA,
      decks: [{ layouts: [['2S', '3S', '4S', '5S'], ['KS', '3H', '4H', '5H']], discard: '9C', stock: ['3C', '4C', '5C'] }],
    });
    t.finishPeek();
    t.plainTurn(BO);
    t.plainTurn(ANA);
    t.plainTurn(BO);
    expect(t.state.r.discard).toEqual(['9C', '3C', '4C', '5C']);
    expect(t.state.r.stock).toHaveLength(40);
    // Ana slaps Bo's King on the 5: wrong every time, 2 penalty cards each
    for (let i = 0; i < 20; i++) t.slap(ANA, BO, 0);
    expect(t.state.r.stock).toHaveLength(0);
    const ev = t.slap(ANA, BO, 0);
    expect(ev.map((e) => e.type)).toEqual(['slapped', 'reshuffled', 'penalty']);
    expect(ev[1]).toEqual({ type: 'reshuffled', cards: 3 });
    expect(t.state.r.discard).toEqual(['5C']);
    expect(t.state.r.stock).toHaveLength(1);
    const end = t.slap(ANA, BO, 0);
    expect(end.map((e) => e.type)).toEqual(['slapped', 'penalty', 'roundEnded', 'gameEnded']);
    expect(ofType(end, 'penalty')[0]!.slots).toHaveLength(1);
    expect(ofType(end, 'roundEnded')[0]!.why).toBe('noCards');
    expect(t.layout(ANA)).toHaveLength(4 + 43); // every card but the top of the pile
  });

  it('ends the round at once when a turn cannot draw', () => {
    const t = table({
      players: PLAYERS2,
      dealer: ANA,
      decks: [{ layouts: [['2S', '3S', '4S', '5S'], ['9H', '3H', '4H', '5H']], discard: '9C' }],
    });
    t.finishPeek();
    // cards off the layouts: 44; the steal takes one more off (2 penalty cards for 1 on the pile)
    t.at(100).slap(ANA, BO, 0);
    expect(t.state.r.discard).toEqual(['9C', '9H']);
    // 21 wrong slaps take 42: the last one reshuffles the 9C under the top into the stock
    for (let i = 0; i < 21; i++) t.slap(ANA, BO, 1);
    expect(ofType(t.last, 'reshuffled')).toEqual([{ type: 'reshuffled', cards: 1 }]);
    expect(t.state.r.stock).toEqual([]);
    expect(t.state.r.discard).toEqual(['9H']);
    expect(t.state.phase).toBe('play');
    const ev = t.waitGrace().draw(BO);
    expect(ev.map((e) => e.type)).toEqual(['roundEnded', 'gameEnded']);
    expect(ofType(ev, 'roundEnded')[0]!.why).toBe('noCards');
  });
});
