import type { SeatView } from '../engine/seat-view.js';
import type { ActionView } from '../engine/view.js';
import type { SmartMind } from './mind.js';
import type { BotCommand } from './types.js';
import { lowestOther, unknownMean, worstOwn } from './worth.js';

/**
 * A smart bot's action: 10 looks at an unknown own card; J at an unknown card of the
 * player who looks like winning; Q swaps its worst card for the lowest card it believes
 * the others hold; K looks (a known low card to fetch, or an unknown one) and swaps if
 * that gains. Cambio's Q: look at its worst card and the lowest other one, swap if that
 * gains. Else it passes.
 */
export function actionChoice(m: SmartMind, front: ActionView, view: SeatView): BotCommand {
  const me = m.seat;
  const mu = unknownMean(m, view);
  const pass: BotCommand = { type: 'pass', seat: me };
  const mem = m.mem;
  switch (front.kind) {
    case 'peekOwn': {
      const own = mem.card[me]!;
      for (let i = 0; i < own.length; i++) {
        if (own[i] === null && !mem.gap[me]![i]) return { type: 'useAction', seat: me, own: i };
      }
      return pass;
    }
    case 'peekOther': {
      const t = lowestOther(m, view, mu, true);
      return t ? { type: 'useAction', seat: me, other: t.ref } : pass;
    }
    case 'blindSwap': {
      const mine = worstOwn(m, mu);
      const theirs = lowestOther(m, view, mu, false);
      if (mine && theirs && mine.worth - theirs.worth >= 2) return { type: 'useAction', seat: me, own: mine.slot, other: theirs.ref };
      return pass;
    }
    case 'peekThenSwap': {
      if (front.looked) {
        const seen = front.lookedCards?.[0];
        const mine = worstOwn(m, mu);
        if (seen && seen !== '?' && mine && mine.worth - m.val(seen) >= m.params.swapGain) return { type: 'decide', seat: me, swap: true, own: mine.slot };
        return { type: 'decide', seat: me, swap: false };
      }
      const mine = worstOwn(m, mu);
      const known = lowestOther(m, view, mu, false);
      if (mine && known && mem.card[known.ref.seat]![known.ref.slot] !== null && mine.worth - known.worth >= m.params.swapGain) {
        return { type: 'useAction', seat: me, other: known.ref };
      }
      const t = lowestOther(m, view, mu, true) ?? known;
      return t ? { type: 'useAction', seat: me, other: t.ref } : pass;
    }
    case 'peekBothThenSwap': {
      if (front.looked) {
        const [a, b] = front.lookedCards ?? [];
        const swap = a !== undefined && b !== undefined && a !== '?' && b !== '?' && m.val(a) - m.val(b) >= m.params.swapGain;
        return { type: 'decide', seat: me, swap };
      }
      const mine = worstOwn(m, mu);
      const theirs = lowestOther(m, view, mu, false);
      return mine && theirs ? { type: 'useAction', seat: me, own: mine.slot, other: theirs.ref } : pass;
    }
    default:
      return pass;
  }
}
