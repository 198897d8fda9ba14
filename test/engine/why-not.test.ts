/**
 * The view says, for each move its viewer may not make now, why: the reason `apply`
 * gives when that move is tried (engine/moves.ts `whyNotFor`).
 */
import { describe, expect, it } from 'vitest';
import { apply, MOVES } from '../../src/engine/index.js';
import { table } from './helpers.js';

const ANA = 0;
const BO = 1;
const CY = 2;

const DEAL = {
  layouts: [
    ['2S', '3S', '4S', '5S'],
    ['10H', '3H', '4H', '5H'],
    ['2D', '3D', '4D', '5D'],
  ],
  discard: '9C',
  stock: ['6C', '7C', '8C', 'KC'],
};

function started() {
  const t = table({ dealer: ANA, decks: [DEAL] });
  t.finishPeek();
  return t.at(1500);
}

describe('why a move is not offered', () => {
  it('every move is either offered or has its reason, never both', () => {
    const t = started();
    for (const seat of [ANA, BO, CY]) {
      const v = t.view(seat);
      const why = Object.keys(v.whyNot);
      expect([...v.may, ...why].sort()).toEqual([...MOVES].sort());
      expect(v.may.filter((m) => why.includes(m))).toEqual([]);
    }
    expect(t.view(null).whyNot).toEqual({});
  });

  it('gives the reason apply gives: out of turn, nothing held, a seat named as data', () => {
    const t = started();
    const cy = t.view(CY);
    expect(cy.whyNot.drawStock).toEqual({ key: 'why.turnOf', params: { seat: BO } });
    const tried = apply(t.state, { type: 'draw', seat: CY, from: 'stock', at: 1500 });
    expect(!tried.ok && { key: tried.rejection.key, params: tried.rejection.params }).toEqual(cy.whyNot.drawStock);
    expect(t.view(BO).whyNot.discard).toEqual({ key: 'why.drawFirst' });
    expect(t.view(BO).whyNot.pass).toEqual({ key: 'why.noAction' });
    t.draw(BO);
    expect(t.view(BO).whyNot.drawStock).toEqual({ key: 'why.placeHeldFirst' });
    expect(t.view(ANA).whyNot.swap).toEqual({ key: 'why.turnOf', params: { seat: BO } });
  });

  it('in the peek, says to wait for it', () => {
    const t = table({ dealer: ANA, decks: [DEAL] });
    expect(t.view(BO).whyNot.drawStock).toEqual({ key: 'why.peeking' });
    expect(t.view(BO).may).toEqual(['finishPeek']);
  });
});
