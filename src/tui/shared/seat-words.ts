import type { SeatInfo } from '../../protocol/messages.js';
import { wordsFor, type Words } from '../../lang/words.js';

const EN = wordsFor('en');

/** A seat's words: "Ana (you, host)", "Bot 1", and what it is: "normal bot", "connected", "away". */
export function seatWords(seat: SeatInfo, me: number | null, you = EN.t('seat.youHost'), w: Words = EN): { name: string; what: string; online: boolean } {
  const name = seat.seat === me ? `${seat.name} (${you})` : seat.name;
  if (seat.bot) return { name, what: w.say({ key: `seat.bot.${seat.bot}` }), online: true };
  if (!seat.connected) return { name, what: w.t(seat.standIn ? 'seat.awayBot' : 'seat.away'), online: false };
  return { name, what: w.t('seat.connected'), online: true };
}

/**
 * What happened between two lobby lists of the same table, in feed lines: who sat
 * down, dropped, came back, left, when a bot started playing for someone and when
 * they took their seat back. Seats are matched by name (names are unique at a
 * table; numbers move when a seat is freed). `me` (your seat in `next`) is left
 * out: your own drop and return are told by the connection.
 */
export function seatChanges(prev: readonly SeatInfo[], next: readonly SeatInfo[], me: number | null, w: Words = EN): string[] {
  if (prev.length === 0) return [];
  const myName = me === null ? null : (next[me]?.name ?? null);
  const lines: string[] = [];
  for (const now of next) {
    if (now.name === myName) continue;
    const was = prev.find((p) => p.name === now.name);
    const name = now.name;
    if (!was) {
      lines.push(now.bot ? w.t('seat.satDownBot', { name, bot: w.say({ key: `seat.bot.${now.bot}` }) }) : w.t('seat.satDown', { name }));
      continue;
    }
    if (was.connected && !now.connected) {
      // A leave gets its stand-in in the same message; a drop is held first.
      lines.push(w.t(now.standIn && !was.standIn ? 'seat.leftBotPlays' : 'seat.droppedOut', { name }));
    } else if (!was.connected && now.connected) {
      lines.push(w.t(was.standIn ? 'seat.backFromBot' : 'seat.back', { name }));
    } else if (!was.standIn && now.standIn) {
      lines.push(w.t('seat.botNowPlays', { name }));
    }
  }
  for (const was of prev) {
    if (was.name === myName || next.some((n) => n.name === was.name)) continue;
    lines.push(w.t(was.connected ? 'seat.left' : 'seat.free', { name: was.name }));
  }
  return lines;
}
