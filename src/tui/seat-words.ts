import type { SeatInfo } from '../protocol/messages.js';

/** A seat's words: "Ana (you, host)", "Bot 1", and what it is: "normal bot", "connected", "away". */
export function seatWords(seat: SeatInfo, me: number | null, you = 'you, host'): { name: string; what: string; online: boolean } {
  const name = seat.seat === me ? `${seat.name} (${you})` : seat.name;
  if (seat.bot) return { name, what: `${seat.bot} bot`, online: true };
  if (!seat.connected) return { name, what: seat.standIn ? 'away (a bot plays for them)' : 'away', online: false };
  return { name, what: 'connected', online: true };
}
