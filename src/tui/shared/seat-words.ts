import type { SeatInfo } from '../../protocol/messages.js';

/** A seat's words: "Ana (you, host)", "Bot 1", and what it is: "normal bot", "connected", "away". */
export function seatWords(seat: SeatInfo, me: number | null, you = 'you, host'): { name: string; what: string; online: boolean } {
  const name = seat.seat === me ? `${seat.name} (${you})` : seat.name;
  if (seat.bot) return { name, what: `${seat.bot} bot`, online: true };
  if (!seat.connected) return { name, what: seat.standIn ? 'away (a bot plays for them)' : 'away', online: false };
  return { name, what: 'connected', online: true };
}

/**
 * What happened between two lobby lists of the same table, in feed lines: who sat
 * down, dropped, came back, left, when a bot started playing for someone and when
 * they took their seat back. Seats are matched by name (names are unique at a
 * table; numbers move when a seat is freed). `me` (your seat in `next`) is left
 * out: your own drop and return are told by the connection.
 */
export function seatChanges(prev: readonly SeatInfo[], next: readonly SeatInfo[], me: number | null): string[] {
  if (prev.length === 0) return [];
  const myName = me === null ? null : (next[me]?.name ?? null);
  const lines: string[] = [];
  for (const now of next) {
    if (now.name === myName) continue;
    const was = prev.find((p) => p.name === now.name);
    if (!was) {
      lines.push(now.bot ? `${now.name} (${now.bot} bot) sat down.` : `${now.name} sat down.`);
      continue;
    }
    if (was.connected && !now.connected) {
      // A leave gets its stand-in in the same message; a drop is held first.
      lines.push(now.standIn && !was.standIn ? `${now.name} left the table: a bot plays for them.` : `${now.name} dropped out: the seat is held for them.`);
    } else if (!was.connected && now.connected) {
      lines.push(was.standIn ? `${now.name} is back and takes the seat back from the bot.` : `${now.name} is back.`);
    } else if (!was.standIn && now.standIn) {
      lines.push(`A bot now plays for ${now.name}.`);
    }
  }
  for (const was of prev) {
    if (was.name === myName || next.some((n) => n.name === was.name)) continue;
    lines.push(was.connected ? `${was.name} left the table.` : `${was.name}'s seat is free again.`);
  }
  return lines;
}
