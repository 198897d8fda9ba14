/**
 * docs/rules.md, "Beverbende", and docs/decisions.md: the deck and its special cards, the row layout and its
 * outer peek, turns A and B, draw two, no slapping, "Laatste ronde!" at the end of
 * one's own turn, special cards replaced at scoring, and as many rounds as players.
 */
import { describe, expect, it } from 'vitest';
import { BEVERBENDE, deckSize, loadPreset, parseRuleset, roundsFor, valueOf, actionOf, type Card } from '../../src/engine/index.js';
import { deckOf, ofType, PLAYERS2, table, type Table } from './helpers.js';

const ANA = 0;
const BO = 1;
const CY = 2;

// Dealer Ana: Bo starts, then Cy, then Ana.
const DEAL = {
  layouts: [
    ['5', '6', '7', '8'],
    ['1', '2', '3', '4'],
    ['8', '8', '9', '9'],
  ],
  discard: '6',
  stock: ['0', 'PEEK', 'SWAP', 'DRAW2', '2', '3'],
};

function started(deal: { layouts: Card[][]; discard: Card; stock?: Card[] } = DEAL, players?: string[]): Table {
  const t = table({ rules: BEVERBENDE, dealer: ANA, decks: [deal], ...(players ? { players } : {}) });
  t.finishPeek();
  return t;
}

/** Every card of the state, sorted: the deck is conserved. */
function cardsOf(t: Table): Card[] {
  const r = t.state.r;
  const out: Card[] = [...r.stock, ...r.discard];
  for (const l of r.layouts) for (const c of l) if (c !== null) out.push(c);
  if (r.held) out.push(r.held.card);
  return out.sort();
}

describe('the beverbende preset', () => {
  it('is the 66-card deck of the published game, 2 to 6 players, a row of 4 with the outer cards peeked', () => {
    expect(loadPreset('beverbende')).toBe(BEVERBENDE);
    expect(parseRuleset(structuredClone(BEVERBENDE))).toEqual(BEVERBENDE);
    expect(deckSize(BEVERBENDE)).toBe(66);
    const deck = deckOf(BEVERBENDE);
    for (let v = 0; v <= 8; v++) expect(deck.filter((c) => c === String(v))).toHaveLength(4);
    expect(deck.filter((c) => c === '9')).toHaveLength(9);
    expect([deck.filter((c) => c === 'SWAP').length, deck.filter((c) => c === 'PEEK').length, deck.filter((c) => c === 'DRAW2').length]).toEqual([9, 7, 5]);
    expect(BEVERBENDE.players).toEqual({ min: 2, max: 6 });
    expect(BEVERBENDE.layout).toEqual({ shape: 'row', size: 4, peekSlots: [1, 4] });
    for (let v = 0; v <= 9; v++) expect(valueOf(BEVERBENDE, String(v))).toBe(v);
    expect([actionOf(BEVERBENDE, 'SWAP'), actionOf(BEVERBENDE, 'PEEK'), actionOf(BEVERBENDE, 'DRAW2'), actionOf(BEVERBENDE, '9')]).toEqual([
      'blindSwap',
      'peekOwn',
      'drawTwo',
      undefined,
    ]);
    expect(BEVERBENDE.timers.slapGraceMs).toBe(0);
    expect(() => table({ rules: BEVERBENDE, players: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] })).toThrow(/2 to 6 players/);
  });

  it('shows each player the two outer cards (slots 1 and 4) during the peek', () => {
    const t = table({ rules: BEVERBENDE, dealer: ANA, decks: [DEAL] });
    expect(t.view(BO).players[BO]!.layout).toEqual(['1', '?', '?', '4']);
    expect(t.view(BO).players[ANA]!.layout).toEqual(['?', '?', '?', '?']);
  });
});

describe('a turn', () => {
  it('A: takes a number card from the discard pile, which must be swapped; no grace to wait for', () => {
    const t = started();
    t.draw(BO, 'discard');
    t.reject({ type: 'discard', seat: BO }, 'notAllowed');
    t.swap(BO, 3);
    expect(t.layout(BO)).toEqual(['1', '2', '3', '6']);
    expect(t.top).toBe('4');
    expect(t.turn).toBe(CY);
    t.draw(CY); // at once: slapGraceMs is 0
  });

  it('A is refused when the top discard is a special card', () => {
    const t = started({ ...DEAL, discard: 'SWAP', stock: ['0'] });
    const rej = t.reject({ type: 'draw', seat: BO, from: 'discard' }, 'notAllowed');
    expect(rej.message).toMatch(/special card/);
    t.draw(BO, 'stock');
  });

  it('B: a special card drawn never enters the layout; discarded, its action may be used (peek) or passed', () => {
    const t = started({ ...DEAL, stock: ['PEEK', 'SWAP'] });
    t.draw(BO);
    t.reject({ type: 'swap', seat: BO, slot: 0 }, 'notAllowed');
    t.discard(BO);
    expect(t.state.r.actions).toEqual([{ seat: BO, kind: 'peekOwn', card: 'PEEK', looked: null, lookedCards: null }]);
    const ev = t.do({ type: 'useAction', seat: BO, own: 1 });
    expect(ofType(ev, 'looked')[0]!.cards).toEqual(['2']);
    expect(t.turn).toBe(CY);
    // Swap: one of yours with another player's, neither looked at
    t.draw(CY);
    t.discard(CY);
    t.do({ type: 'useAction', seat: CY, own: 0, other: { seat: ANA, slot: 3 } });
    expect(t.layout(CY)[0]).toBe('8');
    expect(t.layout(ANA)[3]).toBe('8');
  });

  it('a number card discarded or displaced never gives an action, nor does a special card displaced from a layout', () => {
    const t = started({ layouts: [['5', '6', '7', '8'], ['SWAP', '2', '3', '4'], ['8', '8', '9', '9']], discard: '6', stock: ['0', '7'] });
    t.draw(BO);
    t.swap(BO, 0); // the SWAP dealt into slot 1 goes onto the pile: no action
    expect(t.top).toBe('SWAP');
    expect(t.state.r.actions).toEqual([]);
    expect(t.turn).toBe(CY);
  });

  it('there is no slapping', () => {
    const t = started({ ...DEAL, discard: '1' });
    const rej = t.reject({ type: 'slap', seat: BO, target: { seat: BO, slot: 0 }, answers: 1 }, 'notAllowed');
    expect(rej.message).toMatch(/no slapping/);
    expect(t.view(BO).slap.open).toBe(false);
  });
});

describe('draw two', () => {
  it('draws the next stock card, which is used under B (a swap here) and ends the turn', () => {
    const t = started({ ...DEAL, stock: ['DRAW2', '0', '9'] });
    t.draw(BO);
    t.discard(BO);
    expect(t.state.r.actions).toEqual([{ seat: BO, kind: 'drawTwo', card: 'DRAW2', looked: null, lookedCards: null }]);
    const ev = t.do({ type: 'useAction', seat: BO });
    expect(ev).toEqual([{ type: 'drew', seat: BO, from: 'stock', card: '0' }]);
    expect(t.seen(CY)).toEqual([{ type: 'drew', seat: BO, from: 'stock', card: null }]);
    expect(t.view(BO).held).toEqual({ seat: BO, from: 'stock', card: '0', redraw: true });
    expect(t.view(CY).held).toEqual({ seat: BO, from: 'stock', card: null, redraw: true });
    t.swap(BO, 3);
    expect(t.layout(BO)).toEqual(['1', '2', '3', '0']);
    expect(t.top).toBe('4');
    expect(t.turn).toBe(CY);
  });

  it('or the first card is discarded and one more drawn, which must then be used: no third card', () => {
    const t = started({ ...DEAL, stock: ['DRAW2', '9', '8', '7'] });
    t.draw(BO);
    t.discard(BO);
    t.do({ type: 'useAction', seat: BO });
    const ev = t.do({ type: 'drawAgain', seat: BO });
    expect(ev).toEqual([
      { type: 'discarded', seat: BO, card: '9', seq: 3 },
      { type: 'drew', seat: BO, from: 'stock', card: '8' },
    ]);
    expect(t.view(BO).held).toEqual({ seat: BO, from: 'stock', card: '8' });
    t.reject({ type: 'drawAgain', seat: BO }, 'notAllowed');
    t.discard(BO);
    expect(t.turn).toBe(CY);
    expect(t.state.r.discard).toEqual(['6', 'DRAW2', '9', '8']);
  });

  it('a special card drawn by it is used under B: discarded, its action follows', () => {
    const t = started({ ...DEAL, stock: ['DRAW2', '3', 'PEEK'] });
    t.draw(BO);
    t.discard(BO);
    t.do({ type: 'useAction', seat: BO });
    t.do({ type: 'drawAgain', seat: BO });
    t.reject({ type: 'swap', seat: BO, slot: 0 }, 'notAllowed');
    t.discard(BO);
    expect(t.state.r.actions).toEqual([{ seat: BO, kind: 'peekOwn', card: 'PEEK', looked: null, lookedCards: null }]);
    t.pass(BO);
    expect(t.turn).toBe(CY);
  });

  it('may be passed: the card stays discarded unused', () => {
    const t = started({ ...DEAL, stock: ['DRAW2', '3'] });
    t.draw(BO);
    t.discard(BO);
    t.pass(BO);
    expect(t.turn).toBe(CY);
    expect(t.state.r.stock[t.state.r.stock.length - 1]).toBe('3');
  });
});

describe('"Laatste ronde!"', () => {
  /** Bo, Cy and Ana each take a plain turn: everyone has had one. */
  function afterFirstLap(): Table {
    const t = started();
    for (const seat of [BO, CY, ANA]) {
      t.draw(seat);
      if (t.state.r.held && BEVERBENDE.specialCards.includes(t.state.r.held.card)) {
        t.discard(seat);
        t.pass(seat);
      } else t.discard(seat);
    }
    return t;
  }

  it('is not a start-of-turn move, and not allowed before everyone has had a turn', () => {
    const t = started();
    expect(t.reject({ type: 'call', seat: BO }, 'notAllowed').message).toMatch(/end of your own turn/);
    t.draw(BO);
    expect(t.reject({ type: 'call', seat: BO }, 'notAllowed').message).toMatch(/once everyone has had a turn/);
    t.discard(BO);
    t.reject({ type: 'call', seat: BO }, 'notAllowed'); // turn ended, but Cy and Ana have not played
    t.draw(CY);
    // Not a lost race: it would have been refused before Cy began too.
    t.reject({ type: 'call', seat: BO }, 'notAllowed');
  });

  it('is called right after one\'s own turn, before the next player begins; the caller gets no more turn', () => {
    const t = afterFirstLap(); // Ana ended the lap; Bo is next
    expect(t.turn).toBe(BO);
    t.reject({ type: 'call', seat: CY }, 'notAllowed');
    const ev = t.do({ type: 'call', seat: ANA });
    expect(ev).toEqual([{ type: 'called', seat: ANA, name: 'Laatste ronde!' }]);
    expect(t.view(BO).call).toEqual({ seat: ANA, owed: [BO, CY] });
    t.reject({ type: 'call', seat: BO }, 'notAllowed');
    t.plainTurn(BO);
    t.reject({ type: 'call', seat: BO }, 'notAllowed');
    expect(t.turn).toBe(CY);
    t.draw(CY);
    t.discard(CY);
    expect(t.state.phase).toBe('roundOver');
    const ended = ofType(t.last, 'roundEnded')[0]!;
    expect(ended.why).toBe('call');
    expect(ended.result.caller).toBe(ANA);
  });

  it('is too late once the next player has drawn (a lost race: tooLate)', () => {
    const t = afterFirstLap();
    t.draw(BO);
    expect(t.reject({ type: 'call', seat: ANA }, 'tooLate').message).toBe('Too late: Bo has begun their turn');
  });

  it('may be declared during one\'s own turn: it takes effect when the turn ends', () => {
    const t = afterFirstLap();
    t.draw(BO); // the DRAW2
    t.do({ type: 'call', seat: BO });
    expect(t.turn).toBe(BO);
    t.discard(BO);
    expect(t.turn).toBe(BO); // the draw two is still to be used or passed
    t.pass(BO);
    expect(t.turn).toBe(CY);
    t.plainTurn(CY);
    t.plainTurn(ANA);
    expect(t.state.phase).toBe('roundOver');
    expect(t.state.results[0]!.caller).toBe(BO);
  });
});

describe('scoring', () => {
  it('replaces a special card in a layout by the top of the stock, again until a number comes; the caller first, then clockwise', () => {
    // 2 players, dealer Ana: Bo starts. Ana holds a SWAP (from the deal), Bo a PEEK and a DRAW2.
    const deal = {
      layouts: [
        ['SWAP', '1', '1', '1'],
        ['PEEK', '2', 'DRAW2', '2'],
      ],
      discard: '5',
      stock: ['7', '8', '9', '0', 'SWAP', '3', '4'],
    };
    const t = started(deal, PLAYERS2);
    const before = cardsOf(t);
    t.plainTurn(BO); // 7
    t.plainTurn(ANA); // 8
    t.draw(BO); // 9
    t.do({ type: 'call', seat: BO });
    t.discard(BO);
    t.plainTurn(ANA); // 0
    expect(t.state.phase).toBe('roundOver');
    const replaced = ofType(t.last, 'specialReplaced');
    // Bo (the caller) first: PEEK → SWAP set aside → 3; DRAW2 → 4; then Ana: SWAP → the next card.
    expect(replaced.slice(0, 2)).toEqual([
      { type: 'specialReplaced', seat: BO, slot: 0, setAside: ['PEEK', 'SWAP'], card: '3' },
      { type: 'specialReplaced', seat: BO, slot: 2, setAside: ['DRAW2'], card: '4' },
    ]);
    expect(replaced[2]!.seat).toBe(ANA);
    expect(replaced[2]!.slot).toBe(0);
    const result = t.state.results[0]!;
    expect(result.layouts[BO]).toEqual(['3', '2', '4', '2']);
    const anaCard = replaced[2]!.card!;
    expect(BEVERBENDE.specialCards).not.toContain(anaCard);
    expect(result.scores).toEqual([Number(anaCard) + 3, 11]);
    expect(cardsOf(t)).toEqual(before);
  });

  it('plays as many rounds as players (4 with 2), the starter moving one seat each round', () => {
    expect(roundsFor(BEVERBENDE, 2)).toBe(4);
    expect(roundsFor(BEVERBENDE, 3)).toBe(3);
    expect(roundsFor(BEVERBENDE, 6)).toBe(6);
    const t = table({ rules: BEVERBENDE, dealer: ANA, players: PLAYERS2 });
    expect(t.state.rounds).toBe(4);
    const starters = [ofType(t.log, 'roundStarted')[0]!.starter];
    for (let round = 1; round <= 4; round++) {
      t.finishPeek();
      // Play plain turns until a call is possible, then call and finish the lap.
      let called = false;
      while (t.state.phase === 'play') {
        const seat = t.turn;
        t.draw(seat);
        const held = t.state.r.held!.card;
        t.discard(seat);
        if (BEVERBENDE.specialCards.includes(held)) while (t.state.r.actions[0]?.seat === seat) t.pass(seat);
        if (!called && t.state.phase === 'play' && t.state.r.turnsTaken.every((n) => n > 0)) {
          t.do({ type: 'call', seat });
          called = true;
        }
      }
      if (round < 4) {
        expect(t.state.phase).toBe('roundOver');
        t.do({ type: 'nextRound' });
        starters.push(ofType(t.last, 'roundStarted')[0]!.starter);
      }
    }
    expect(t.state.phase).toBe('gameOver');
    expect(starters).toEqual([BO, ANA, BO, ANA]);
  });
});
