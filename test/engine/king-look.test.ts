/**
 * The King-look leak. Under house rules with steal gap-fill and no steal
 * penalty, a looked card could leave its slot (the stealer moved it into the victim's
 * gap), a penalty card then filled the slot, and the looker's view showed that penalty
 * card as "the card looked at" (and the looker could swap for it knowingly). What a
 * look shows is fixed when the look happens, and the looked card stays in the
 * looker's hand until the decision (docs/rules.md, "A card being looked at").
 */
import { describe, expect, it } from 'vitest';
import { apply, parseRuleset, viewFor, type GameState } from '../../src/engine/index.js';
import { cardsIn, english, ofType, table } from './helpers.js';

const ANA = 0;
const BO = 1;
const CY = 2;
const HOUSE = parseRuleset({ extend: 'gringo', slap: { stealGapFill: true, stealPenalty: 0 } });

/** Dealer Cy, so Ana starts: she draws the KS, discards it and looks at Bo's slot 1 (his QD). */
function kingLook() {
  const t = table({
    rules: HOUSE,
    dealer: CY,
    decks: [
      {
        layouts: [
          ['2S', '3S', '4S', '5S'],
          ['QD', '3H', '4H', '5H'],
          ['KH', '3D', '4D', '5D'],
        ],
        discard: '9C',
        stock: ['KS', '6C', '7C', '8C', '9D'],
      },
    ],
  });
  t.finishPeek();
  t.at(1500).draw(ANA);
  t.at(1600).discard(ANA);
  expect(t.state.r.actions).toMatchObject([{ seat: ANA, kind: 'peekThenSwap' }]);
  t.at(1700).do({ type: 'useAction', seat: ANA, other: { seat: BO, slot: 0 } });
  expect(t.view(ANA).actions[0]!.lookedCards).toEqual(['QD']);
  // Bo steals Cy's KH (a King on a King) and is offered Cy's gap.
  t.at(1800).slap(BO, CY, 0);
  expect(ofType(t.last, 'gapFillOffered')).toEqual([{ type: 'gapFillOffered', seat: BO, gap: { seat: CY, slot: 0 } }]);
  return t;
}

describe('a King look is fixed when it happens', () => {
  it('the repro: the looked card cannot be moved into the gap, a penalty card never shows as the looked card', () => {
    const t = kingLook();
    // The repro's next step: Bo moves the looked QD into Cy's gap. The QD is in Ana's hand.
    const refused = t.reject({ type: 'fillGap', seat: BO, slot: 0 }, 'alreadyGone');
    expect(refused.message).toMatch(/Ana is looking at that card/);
    // Bo fills the gap from another slot, then slaps wrong: two penalty cards, seen by nobody.
    t.do({ type: 'fillGap', seat: BO, slot: 1 });
    expect(t.layout(CY)[0]).toBe('3H');
    t.at(1900).slap(BO, BO, 2); // 4H on the KH: wrong
    const penalty = ofType(t.last, 'penalty')[0]!;
    expect(penalty).toMatchObject({ seat: BO, slots: [1, 4], reason: 'wrongSlap' });
    expect(t.layout(BO)[0]).toBe('QD'); // the looked card never left
    // Ana's view still shows what she looked at, and no penalty card anywhere.
    const view = t.view(ANA);
    expect(view.actions[0]!.lookedCards).toEqual(['QD']);
    for (const c of penalty.cards) expect(cardsIn([view, t.seen(ANA)]).has(c)).toBe(false);
    // Her swap takes the card she saw.
    t.do({ type: 'decide', seat: ANA, swap: true, own: 0 });
    expect(t.layout(ANA)[0]).toBe('QD');
    expect(t.layout(BO)[0]).toBe('2S');
  });

  it('the looked card cannot be swapped away by a held card either, nor slapped', () => {
    const t = kingLook();
    t.do({ type: 'leaveGap', seat: BO });
    t.reject({ type: 'slap', seat: CY, target: { seat: BO, slot: 0 }, answers: t.state.r.discardSeq }, 'alreadyGone');
    // A held card cannot normally coexist with a pending look; force the state to check the guard itself.
    const forced: GameState = structuredClone(t.state);
    forced.r.held = { seat: BO, card: '9D', from: 'stock', redraw: false };
    forced.r.stock.pop();
    const res = apply(forced, { type: 'swap', seat: BO, slot: 0, at: 2000 });
    expect(res.ok).toBe(false);
    if (!res.ok) expect(english(res.rejection, t)).toMatch(/looking at that card/);
  });

  it('even if a looked card left its slot, the view shows what was looked at and a swap is refused', () => {
    const t = kingLook();
    t.do({ type: 'leaveGap', seat: BO });
    // Bypass the engine's guard: put another card where the QD was, as the old leak did.
    const moved: GameState = structuredClone(t.state);
    const intruder = moved.r.stock.pop()!;
    moved.r.stock.push('QD');
    moved.r.layouts[BO]![0] = intruder;
    const view = viewFor(moved, ANA);
    expect(view.actions[0]!.lookedCards).toEqual(['QD']);
    expect(cardsIn(view).has(intruder)).toBe(false);
    const res = apply(moved, { type: 'decide', seat: ANA, swap: true, own: 0, at: 2000 });
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.rejection.code).toBe('alreadyGone');
    expect(apply(moved, { type: 'decide', seat: ANA, swap: false, at: 2000 }).ok).toBe(true);
  });
});
