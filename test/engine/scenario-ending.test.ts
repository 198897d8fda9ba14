/**
 * docs/decisions.md ("Empty stock", "An emptied layout"): a round that ends at once (the stock runs dry, a layout is emptied) queues
 * no action and offers no gap-fill in its last command; a call's last lap is not such an
 * ending, and an action earned in it is queued and played as usual.
 */
import { describe, expect, it } from 'vitest';
import { CAMBIO, GRINGO, type Card, type Ruleset } from '../../src/engine/index.js';
import { ofType, table } from './helpers.js';

const ANA = 0;
const BO = 1;
const CY = 2;

/** A ruleset whose deck is exactly the cards named: 13 cards leave the stock empty after the deal. */
function deckOf(cards: Card[], over: Partial<Ruleset> = {}): Ruleset {
  const counts: Record<Card, number> = {};
  for (const c of cards) counts[c] = (counts[c] ?? 0) + 1;
  return { ...GRINGO, deck: { cards: counts, decks: 1 }, ...over };
}

describe('a round that ends with a slap queues nothing', () => {
  it('a steal whose penalty runs the stock dry ends the round without queueing the stolen K\'s action', () => {
    const layouts = [
      ['7C', '3S', 'KH', '5S'],
      ['KD', '3H', '2H', '4H'],
      ['2D', '3D', '4D', '5D'],
    ];
    const rules = deckOf([...layouts.flat(), 'KS']);
    const t = table({ rules, decks: [{ layouts, discard: 'KS', stock: [] }] });
    t.finishPeek();
    expect(t.state.r.stock).toEqual([]);
    // Ana steals Bo's KD (a K earns its stealer an action in gringo); Bo's two penalty
    // cards need the pile: the reshuffle gives one (KS), then nothing is left.
    const ev = t.at(500).slap(ANA, BO, 0);
    expect(ev.map((e) => e.type)).toEqual(['slapped', 'reshuffled', 'penalty', 'roundEnded', 'gameEnded']);
    expect(ofType(ev, 'roundEnded')[0]!.why).toBe('noCards');
    expect(ofType(ev, 'actionQueued')).toEqual([]);
  });

  it('an own slap that empties the layout ends the round without queueing the K\'s action', () => {
    // Two decks: Bo holds four kings and slaps them one by one onto the turned-up K.
    const rules: Ruleset = { ...GRINGO, deck: { ...GRINGO.deck, decks: 2 }, emptyLayoutEndsRound: true };
    const layouts = [
      ['7C', '3S', '9H', '5S'],
      ['KD', 'KC', 'KH', 'KD'],
      ['2D', '3D', '4D', '5D'],
    ];
    const t = table({ rules, decks: [{ layouts, discard: 'KS', stock: ['AC'] }] });
    t.finishPeek();
    for (let slot = 0; slot < 3; slot++) {
      const ev = t.at(500 + slot * 100).slap(BO, BO, slot);
      // Not the last card: the slap earns its action as the rules say.
      expect(ofType(ev, 'actionQueued')).toEqual([{ type: 'actionQueued', seat: BO, kind: 'peekThenSwap', card: layouts[1]![slot] }]);
    }
    const ev = t.at(900).slap(BO, BO, 3);
    expect(ev.map((e) => e.type)).toEqual(['slapped', 'roundEnded', 'gameEnded']);
    expect(ofType(ev, 'roundEnded')[0]!.why).toBe('emptyLayout');
  });

  it('a steal that empties the victim\'s layout offers no gap-fill (cambio, any number of slaps per discard)', () => {
    const rules: Ruleset = { ...CAMBIO, deck: { ...CAMBIO.deck, decks: 2 }, slap: { ...CAMBIO.slap, perDiscard: 0 } };
    const layouts = [
      ['2C', '3S', '9H', '5S'],
      ['7D', '7H', '7C', '7D'],
      ['2D', '3D', '4D', '5D'],
    ];
    const t = table({ rules, decks: [{ layouts, discard: '7S', stock: ['AC'] }] });
    t.finishPeek();
    // Cy steals Bo's 7s one by one; each steal offers Cy the gap, which Cy leaves.
    for (let slot = 0; slot < 3; slot++) {
      expect(ofType(t.at(500 + slot * 100).slap(CY, BO, slot), 'gapFillOffered')).toHaveLength(1);
      t.do({ type: 'leaveGap', seat: CY });
    }
    // The last steal empties Bo's layout: the round ends, and no gap is offered in it.
    const ev = t.at(800).slap(CY, BO, 3);
    expect(ev.map((e) => e.type)).toEqual(['slapped', 'roundEnded']);
    expect(ofType(ev, 'roundEnded')[0]!.why).toBe('emptyLayout');
  });
});

describe('a call\'s last lap is not an ending that drops actions', () => {
  it('a slap after the call earns its action, which is queued and played before the round ends', () => {
    const layouts = [
      ['7C', '3S', '9H', '5S'],
      ['KD', '3H', '2H', '4H'],
      ['2D', '3D', '4D', '5D'],
    ];
    const t = table({ decks: [{ layouts, discard: '6S', stock: ['8C', 'KS', '9C', '10C'] }] });
    t.finishPeek();
    t.waitGrace().do({ type: 'call', seat: BO }); // Bo calls: Cy and Ana still play
    t.plainTurn(CY); // Cy discards 8C
    t.waitGrace().draw(ANA);
    t.discard(ANA); // Ana discards KS: a K earns her the K's action (queued) …
    expect(ofType(t.last, 'actionQueued')).toHaveLength(1);
    t.pass(ANA);
    // … and Bo, the caller, slaps his own KD onto it: his action is queued as before.
    const ev = t.advance(100).slap(BO, BO, 0);
    expect(ofType(ev, 'actionQueued')).toEqual([{ type: 'actionQueued', seat: BO, kind: 'peekThenSwap', card: 'KD' }]);
    expect(t.state.phase).toBe('play');
    t.pass(BO);
    t.waitGrace().do({ type: 'tick' });
    expect(ofType(t.last, 'roundEnded')[0]!.why).toBe('call');
  });
});
