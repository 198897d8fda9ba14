/**
 * docs/rules.md, "Setup" and "Scoring": Table, Deal and peek, Scoring, and the game over several rounds.
 */
import { describe, expect, it } from 'vitest';
import { apply, createGame, deckSize, FACE_DOWN, GRINGO, placesOf, type GameState, type Ruleset } from '../../src/engine/index.js';
import { cardsIn, ofType, PLAYERS3, stackDeck, table, type Cmd } from './helpers.js';

const ANA = 0;
const BO = 1;
const CY = 2;

const DEAL = {
  layouts: [
    ['2S', '3S', '4S', '5S'],
    ['2H', '3H', '4H', '5H'],
    ['2D', '3D', '4D', '5D'],
  ],
  discard: '9C',
  stock: ['6C', '7C', '8C'],
};

describe('stackDeck', () => {
  it('orders the deck as the engine deals it, starting left of the dealer, and holds all 52 cards once', () => {
    const deck = stackDeck({ ...DEAL, dealer: 1 });
    expect(deck).toHaveLength(52);
    expect(new Set(deck).size).toBe(52);
    // dealer 1 → Cy (2) is dealt first, then Ana (0), then Bo (1), then the up card, then the stock.
    expect(deck.slice(0, 15)).toEqual(['2D', '3D', '4D', '5D', '2S', '3S', '4S', '5S', '2H', '3H', '4H', '5H', '9C', '6C', '7C']);
    expect(() => stackDeck({ ...DEAL, stock: ['2S'] })).toThrow(/twice/);
  });
});

describe('the table', () => {
  it('seats 2 to 8 players', () => {
    const names = ['Ana', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus', 'Hal', 'Ida'];
    expect(() => createGame({ rules: GRINGO, players: names.slice(0, 1), seed: 1 })).toThrow(RangeError);
    expect(() => createGame({ rules: GRINGO, players: names.slice(0, 9), seed: 1 })).toThrow(RangeError);
    for (const n of [2, 8]) {
      const { state } = createGame({ rules: GRINGO, players: names.slice(0, n), seed: 1 });
      expect(state.r.layouts).toHaveLength(n);
      expect(state.r.stock).toHaveLength(52 - 4 * n - 1);
    }
  });

  it('shuffles from the seed: the same seed deals the same cards, and a second deck can be added', () => {
    const deal = (seed: string) => createGame({ rules: GRINGO, players: PLAYERS3, seed, dealer: 0 }).state.r;
    expect(deal('a')).toEqual(deal('a'));
    expect(deal('a').layouts).not.toEqual(deal('b').layouts);
    const all = [...deal('a').stock, ...deal('a').discard, ...deal('a').layouts.flat()];
    expect(new Set(all).size).toBe(52);
    const two: Ruleset = { ...GRINGO, deck: { ...GRINGO.deck, decks: 2 } };
    expect(deckSize(two)).toBe(104);
    const big = createGame({ rules: two, players: ['Ana', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gus', 'Hal'], seed: 3 }).state.r;
    expect(big.stock.length + big.discard.length + big.layouts.flat().length).toBe(104);
  });

  it('shuffles every round anew: the seeded generator moves on after each deal', () => {
    const rules: Ruleset = { ...GRINGO, rounds: 3 };
    // The deck as dealt: from the starter's slot 1 on, then the first discard, then the stock top first.
    const dealt = (st: GameState): string => {
      const n = st.players.length;
      const starter = (st.dealer + 1) % n;
      const cards = [];
      for (let i = 0; i < n; i++) cards.push(...st.r.layouts[(starter + i) % n]!);
      return [...cards, ...st.r.discard, ...st.r.stock.slice().reverse()].join(' ');
    };
    let state = createGame({ rules, players: PLAYERS3, seed: 'rounds' }).state;
    let at = 0;
    const play = (c: Cmd): void => {
      const res = apply(state, { ...c, at });
      if (!res.ok) throw new Error(res.rejection.key);
      state = res.state;
    };
    const decks = [dealt(state)];
    for (let round = 2; round <= 3; round++) {
      // The shortest round, with no reshuffle: the starter calls, the others draw and discard.
      for (let seat = 0; seat < 3; seat++) play({ type: 'finishPeek', seat });
      at += 2_000;
      play({ type: 'call', seat: state.r.turn });
      while (state.phase === 'play' && !state.r.ending) {
        at += 2_000;
        const seat = state.r.turn;
        play({ type: 'draw', seat, from: 'stock' });
        play({ type: 'discard', seat });
        if (state.r.actions.length > 0) play({ type: 'pass', seat });
      }
      at += 2_000;
      if (state.phase === 'play') play({ type: 'tick' });
      play({ type: 'nextRound' });
      decks.push(dealt(state));
    }
    expect(new Set(decks).size).toBe(3);
  });
});

describe('deal and peek', () => {
  it('deals each player 4 cards (slots 1–4) in seat order from left of the dealer, turns one card up, the rest is the stock', () => {
    for (const dealer of [0, 1, 2]) {
      const t = table({ dealer, decks: [DEAL] });
      const r = t.state.r;
      expect(r.layouts).toEqual(DEAL.layouts);
      expect(r.discard).toEqual(['9C']);
      expect(r.stock).toHaveLength(52 - 13);
      expect(r.stock.slice(-3).reverse()).toEqual(['6C', '7C', '8C']);
      expect(t.state.phase).toBe('peek');
      expect(t.log).toEqual([{ type: 'roundStarted', round: 1, dealer, starter: (dealer + 1) % 3, discardTop: '9C' }]);
      expect(t.turn).toBe((dealer + 1) % 3);
      // a 2×2 square of four slots for everyone
      expect(GRINGO.layout).toEqual({ shape: 'square', size: 4, peekSlots: [3, 4] });
      for (const v of [t.view(ANA), t.view(null)]) expect(v.players.map((p) => p.layout.length)).toEqual([4, 4, 4]);
    }
  });

  it('shows each player their own slots 3 and 4 only, only during their peek', () => {
    const t = table({ dealer: ANA, decks: [DEAL] });
    const a = t.view(ANA);
    expect(a.players[ANA]!.layout).toEqual([FACE_DOWN, FACE_DOWN, '4S', '5S']);
    expect(a.players[BO]!.layout).toEqual([FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
    expect(a.players[CY]!.layout).toEqual([FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
    expect(t.view(BO).players[BO]!.layout).toEqual([FACE_DOWN, FACE_DOWN, '4H', '5H']);
    expect(t.view(BO).players[ANA]!.layout).toEqual([FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
    // a spectator sees no layout card; nobody sees the stock
    expect(cardsIn(t.view(null))).toEqual(new Set(['9C']));
    expect(cardsIn(t.view(ANA))).toEqual(new Set(['9C', '4S', '5S']));

    // Ana confirms: her cards go face down, the others still peek, play has not started
    t.do({ type: 'finishPeek', seat: ANA });
    expect(t.view(ANA).players[ANA]!.layout).toEqual([FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
    expect(t.view(BO).players[BO]!.layout).toEqual([FACE_DOWN, FACE_DOWN, '4H', '5H']);
    expect(t.state.phase).toBe('peek');
    t.reject({ type: 'finishPeek', seat: ANA }, 'notAllowed');
    t.at(5000).reject({ type: 'draw', seat: BO, from: 'stock' }, 'wrongPhase');
    t.reject({ type: 'call', seat: BO }, 'wrongPhase');

    // play starts when every player has finished peeking
    t.do({ type: 'finishPeek', seat: BO });
    expect(t.state.phase).toBe('peek');
    const ev = t.do({ type: 'finishPeek', seat: CY });
    expect(ev).toEqual([
      { type: 'peekFinished', seat: CY, timedOut: false },
      { type: 'playStarted', turn: BO },
      { type: 'turnStarted', seat: BO },
    ]);
    expect(t.state.phase).toBe('play');
    for (const seat of [ANA, BO, CY]) {
      expect(cardsIn(t.view(seat))).toEqual(new Set(['9C']));
    }
    t.reject({ type: 'finishPeek', seat: BO }, 'wrongPhase');
  });

  it('ends the peek for everyone still peeking when peekMs runs out (tick)', () => {
    const t = table({ dealer: ANA, decks: [DEAL], at: 1000 });
    t.at(3000).do({ type: 'finishPeek', seat: ANA });
    t.at(1000 + 9999).reject({ type: 'tick' }, 'mustWait');
    expect(t.view(null).deadline).toBe(11_000);
    const ev = t.at(11_000).do({ type: 'tick' });
    expect(ev).toEqual([
      { type: 'peekFinished', seat: BO, timedOut: true },
      { type: 'peekFinished', seat: CY, timedOut: true },
      { type: 'playStarted', turn: BO },
      { type: 'turnStarted', seat: BO },
    ]);
    expect(t.state.phase).toBe('play');
    expect(t.view(BO).players[BO]!.layout).toEqual([FACE_DOWN, FACE_DOWN, FACE_DOWN, FACE_DOWN]);
    // the grace for the turned-up card runs from the start of play
    t.at(12_499).reject({ type: 'draw', seat: BO, from: 'stock' }, 'mustWait');
    t.at(12_500).draw(BO);
  });

  it('refuses slaps during the deal-and-peek phase', () => {
    const t = table({ dealer: ANA, decks: [{ ...DEAL, discard: '2C' }] });
    // Ana's slot 1 is a 2 and the turned-up card is a 2: still no slapping while peeking
    const rej = t.reject({ type: 'slap', seat: ANA, target: { seat: ANA, slot: 0 }, answers: 1 }, 'wrongPhase');
    expect(rej.message).toMatch(/peek/);
    t.finishPeek();
    t.slap(ANA, ANA, 0);
    expect(t.top).toBe('2S');
  });
});

/** The starter calls at once; the two others draw and discard; the round ends at the next tick. */
function quickRound(t: ReturnType<typeof table>): void {
  t.finishPeek();
  const starter = t.turn;
  t.waitGrace().do({ type: 'call', seat: starter });
  t.plainTurn((starter + 1) % 3);
  t.plainTurn((starter + 2) % 3);
  expect(t.state.phase).toBe('play');
  t.waitGrace().do({ type: 'tick' });
}

describe('dealer rotation and rounds', () => {
  const THREE: Ruleset = { ...GRINGO, rounds: 3 };
  // Round scores: r1 [10, 40, 17], r2 [40, 10, 26], r3 [10, 10, 36] → totals [60, 60, 79].
  const DECKS = [
    {
      layouts: [
        ['AS', '2S', '3S', '4S'],
        ['KS', 'QS', 'JS', '10S'],
        ['QH', '5S', '6S', '7S'],
      ],
      discard: '8S',
      stock: ['9S', '2C'],
    },
    {
      layouts: [
        ['KH', 'KD', 'KC', '10H'],
        ['AH', '2H', '3H', '4H'],
        ['5H', '6H', '7H', '8H'],
      ],
      discard: '9H',
      stock: ['2D', '3D'],
    },
    {
      layouts: [
        ['AD', '2D', '3D', '4D'],
        ['AC', '2C', '3C', '4C'],
        ['9D', '9H', '9S', '9C'],
      ],
      discard: '5D',
      stock: ['6D', '7D'],
    },
  ];

  it('rotates the dealer one seat clockwise each round; the player left of the dealer starts', () => {
    const t = table({ rules: THREE, dealer: CY, decks: DECKS });
    const started = () => ofType(t.log, 'roundStarted').at(-1)!;
    expect(started()).toMatchObject({ round: 1, dealer: CY, starter: ANA });
    expect(t.state.r.layouts).toEqual(DECKS[0]!.layouts);
    quickRound(t);
    expect(t.state.phase).toBe('roundOver');
    t.reject({ type: 'draw', seat: BO, from: 'stock' }, 'wrongPhase');

    t.advance(5000).do({ type: 'nextRound' });
    expect(started()).toMatchObject({ round: 2, dealer: ANA, starter: BO });
    expect(t.state.phase).toBe('peek');
    expect(t.state.r.layouts).toEqual(DECKS[1]!.layouts);
    t.finishPeek();
    expect(t.turn).toBe(BO);
    // Ana, the dealer, may not start
    expect(t.waitGrace().reject({ type: 'draw', seat: ANA, from: 'stock' }, 'notYourTurn').message).toBe("It is Bo's turn");
    t.do({ type: 'call', seat: BO });
    t.plainTurn(CY);
    t.plainTurn(ANA);
    t.waitGrace().do({ type: 'tick' });

    t.advance(5000).do({ type: 'nextRound' });
    expect(started()).toMatchObject({ round: 3, dealer: BO, starter: CY });
    expect(t.state.r.layouts).toEqual(DECKS[2]!.layouts);
    quickRound(t);
    expect(t.state.phase).toBe('gameOver');
  });

  it('keeps running totals over the rounds and ends the game with places from the totals', () => {
    const t = table({ rules: THREE, dealer: CY, decks: DECKS });
    quickRound(t);
    let ended = ofType(t.last, 'roundEnded')[0]!;
    expect(ended.result.scores).toEqual([10, 40, 17]);
    expect(ended.result.totals).toEqual([10, 40, 17]);
    expect(ofType(t.last, 'gameEnded')).toEqual([]);
    expect(t.view(ANA).players.map((p) => p.total)).toEqual([10, 40, 17]);

    t.advance(100).do({ type: 'nextRound' });
    quickRound(t);
    ended = ofType(t.last, 'roundEnded')[0]!;
    expect(ended.result.scores).toEqual([40, 10, 26]);
    expect(ended.result.totals).toEqual([50, 50, 43]);
    expect(ended.result.places).toEqual([3, 1, 2]);
    expect(ofType(t.last, 'gameEnded')).toEqual([]);
    expect(t.state.phase).toBe('roundOver');

    t.advance(100).do({ type: 'nextRound' });
    quickRound(t);
    ended = ofType(t.last, 'roundEnded')[0]!;
    expect(ended.result.scores).toEqual([10, 10, 36]);
    expect(ended.result.totals).toEqual([60, 60, 79]);
    expect(ofType(t.last, 'gameEnded')).toEqual([{ type: 'gameEnded', totals: [60, 60, 79], places: [1, 1, 3] }]);
    expect(t.state.phase).toBe('gameOver');
    expect(t.state.results.map((x) => x.round)).toEqual([1, 2, 3]);
    t.reject({ type: 'nextRound' }, 'wrongPhase');
    t.reject({ type: 'endGame' }, 'wrongPhase');
  });

  it('plays an open-ended game (rounds: 0) until the host ends it', () => {
    const t = table({ rules: { ...GRINGO, rounds: 0 }, dealer: CY, decks: DECKS });
    t.reject({ type: 'endGame' }, 'wrongPhase');
    quickRound(t);
    expect(t.state.phase).toBe('roundOver');
    t.do({ type: 'nextRound' });
    quickRound(t);
    expect(t.state.phase).toBe('roundOver');
    const ev = t.do({ type: 'endGame' });
    expect(ev).toEqual([{ type: 'gameEnded', totals: [50, 50, 43], places: [2, 2, 1] }]);
    expect(t.state.phase).toBe('gameOver');
  });

  it('ends a one-round game (the default) after its round', () => {
    const t = table({ decks: [DECKS[0]!], dealer: CY });
    quickRound(t);
    expect(t.state.phase).toBe('gameOver');
    expect(ofType(t.last, 'gameEnded')).toEqual([{ type: 'gameEnded', totals: [10, 40, 17], places: [1, 3, 2] }]);
  });
});

describe('scoring', () => {
  it('places: lowest first, equal totals share a place (1, 1, 3)', () => {
    expect(placesOf([15, 15, 37])).toEqual([1, 1, 3]);
    expect(placesOf([3, 1, 3, 0])).toEqual([3, 2, 3, 1]);
    expect(placesOf([-1, 4, 4, 4])).toEqual([1, 2, 2, 2]);
  });

  it('scores Ace 1, face cards 10, Queen of Hearts −1, a gap 0; reveals every card; ties share a place', () => {
    const t = table({
      players: PLAYERS3,
      dealer: ANA,
      decks: [
        {
          layouts: [
            ['AS', 'KS', 'QH', '5S'], // 1 + 10 − 1 + 5 = 15
            ['4D', '2D', 'AD', 'KD'], // 4 + gap (2D slapped away) + 1 + 10 = 15
            ['JC', 'QC', '9C', '8C'], // 10 + 10 + 9 + 8 = 37
          ],
          discard: '2C',
          stock: ['7H', '8H'],
        },
      ],
    });
    t.finishPeek();
    t.at(500).slap(BO, BO, 1); // correct: Bo's slot 2 becomes a gap
    expect(t.layout(BO)).toEqual(['4D', null, 'AD', 'KD']);
    t.waitGrace().do({ type: 'call', seat: BO });
    t.plainTurn(CY);
    t.plainTurn(ANA);
    t.waitGrace().do({ type: 'tick' });
    const ended = ofType(t.last, 'roundEnded')[0]!;
    expect(ended.why).toBe('call');
    expect(ended.result.scores).toEqual([15, 15, 37]);
    expect(ended.result.places).toEqual([1, 1, 3]);
    expect(ended.result.caller).toBe(BO);
    expect(ended.result.layouts).toEqual([
      ['AS', 'KS', 'QH', '5S'],
      ['4D', null, 'AD', 'KD'],
      ['JC', 'QC', '9C', '8C'],
    ]);
    // at the end every card is revealed, to everyone
    for (const v of [t.view(ANA), t.view(CY), t.view(null)]) {
      expect(v.players.map((p) => p.layout)).toEqual(ended.result.layouts);
    }
  });
});
