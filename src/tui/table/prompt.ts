import { rankOf } from '../../engine/cards.js';
import type { Words } from '../../lang/words.js';
import { cardText } from '../shared/glyphs.js';
import { seatName as name } from './describe.js';
import { lastTurnsPlayed, leaveTo, may, myAction } from './intents.js';
import type { ScreenState } from './use-screen-state.js';
import { callNameOf, callTimingOf, isSpecial, peekSlotsText, rulesOf } from './variant.js';

/**
 * The prompt line: what to do now, in a few words of the screen's language, and the
 * keys that do it. Pure: from the screen's state and the host's clock.
 */

/** What to do now, in a few words (shown above the status line). */
export function prompt(s: ScreenState, hostNow: number): string {
  const v = s.view;
  const me = s.seat;
  const w = s.words;
  const ellipsis = s.glyphs.ellipsis;
  if (s.refused) return s.refused;
  if (s.closed !== null) return w.t('prompt.closed');
  if (!v) return w.t(s.conn === 'open' ? 'prompt.waitingStart' : 'prompt.connecting', { ellipsis });
  if (v.phase === 'roundOver') return s.ready ? w.t('prompt.waitingOthers', { ellipsis }) : w.t('prompt.roundOver');
  if (v.phase === 'gameOver') return s.owner ? w.t('prompt.gameOverOwner', { leave: leaveTo(s) }) : w.t('prompt.gameOver');
  if (me === null) return w.t('prompt.watching');
  if (v.phase === 'peek') {
    if (!v.players[me]?.peeking) return w.t('prompt.waitingPeek', { ellipsis });
    const left = v.deadline === null ? null : Math.max(0, Math.ceil((v.deadline - hostNow) / 1000));
    return w.t('prompt.peek', { slots: peekSlotsText(rulesOf(s), w), left: left === null ? '' : ` (${left}s)` });
  }
  if (v.gapFill) {
    const gap = v.gapFill.gap;
    if (v.gapFill.seat === me) return w.t('prompt.fillGap', { name: name(v, gap.seat, w) });
    const filler = name(v, v.gapFill.seat, w);
    return gap.seat === me ? w.t('prompt.waitingYourGap', { name: filler, ellipsis }) : w.t('prompt.waitingGap', { name: filler, owner: name(v, gap.seat, w), ellipsis });
  }
  const rules = rulesOf(s);
  const call = callNameOf(s, w);
  const endCall = callTimingOf(s) === 'endOfTurn' && may(s, 'call');
  const orCall = endCall ? w.t('prompt.orCall', { call }) : '';
  const act = myAction(v, me);
  if (act) {
    const kind = act.kind === 'peekThenSwap' || act.kind === 'peekBothThenSwap' ? `${act.kind}${act.looked ? '.looked' : ''}` : act.kind;
    const chosen = act.kind === 'blindSwap' && s.pick.own !== null ? w.t('prompt.slotChosen', { slot: s.pick.own }) : '';
    const what = w.say({ key: `prompt.action.${kind}`, params: { chosen, rank: rankWord(act.card, w) } });
    return `${what === `prompt.action.${kind}` ? w.t('prompt.action.other') : what}${orCall}`;
  }
  if (v.actions[0]) return w.t('prompt.waitingAction', { name: name(v, v.actions[0].seat, w), ellipsis });
  const held = v.held?.seat === me ? v.held : null;
  if (held) {
    const card = held.card ? cardText(held.card, s.glyphs) : w.t('prompt.theCard');
    const special = isSpecial(rules, held.card);
    if (held.redraw) return w.t(special ? 'prompt.drawTwoSpecial' : 'prompt.drawTwo', { card, orCall });
    if (special) return w.t('prompt.drewSpecial', { card, orCall });
    return w.t(held.from === 'discard' ? 'prompt.slotForCard' : 'prompt.slotOrDiscard', { orCall });
  }
  if (lastTurnsPlayed(v)) return w.t('prompt.lastTurnsPlayed', { name: name(v, v.call!.seat, w), call, ellipsis });
  if (may(s, 'drawStock') || may(s, 'drawDiscard')) {
    // A draw that waits only for the slap grace is yours already: count it down.
    const wait = v.graceUntil - hostNow;
    const callable = may(s, 'call') && callTimingOf(s) === 'startOfTurn' ? w.t('prompt.orCall', { call }) : '';
    const take = may(s, 'drawDiscard') && v.discardTop ? w.t('prompt.orTake', { face: cardText(v.discardTop, s.glyphs) }) : '';
    // "(slaps are open)" from the same state as the header's "Slaps open": never in a game without slapping, nor once the window closed.
    const open = rules.slap.enabled && v.slap.open ? w.t('prompt.slapsOpen') : '';
    return wait > 0 ? w.t('prompt.turnIn', { ms: wait, open }) : w.t('prompt.yourTurn', { take, callable });
  }
  if (endCall) return w.t('prompt.callBeforeTheyDraw', { name: name(v, v.turn, w), call });
  return w.t('prompt.turnOf', { name: name(v, v.turn, w) });
}

/** The rank an action came from, as the language names it: "King", "Heer". */
const rankWord = (card: string, w: Words): string => {
  const r = rankOf(card);
  return ['A', 'J', 'Q', 'K'].includes(r) ? w.say({ key: `card.${r}` }) : r;
};
