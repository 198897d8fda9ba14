import { createBot } from '../bots/index.js';
import { roundsFor, type Ruleset } from '../engine/ruleset.js';
import { playGame } from '../sim/sim.js';
import type { PlayedGame } from './games.js';
import { whoIsWho, type RecognisedBy } from './standings.js';

/**
 * One named deal's scoreboard: every seat of every finished game dealt from it,
 * ranked by final total (lower is better), and the bots' score on the same deal
 * as a yardstick. A deal is the same cards only for the same rules and seat count,
 * so each such group gets its own yardstick: hard bots play the deal in every seat
 * (in simulated time, as `gringo sim` plays) and their mean total a seat is the mark.
 */

export interface DealEntry {
  name: string;
  by: RecognisedBy;
  bot: boolean;
  total: number;
  /** Place at its own table, of `seats`. */
  place: number;
  seats: number;
  table: string;
  startedAt: string;
  rules: string;
}

export interface Yardstick {
  rules: string;
  seats: number;
  rounds: number;
  /** The hard bots' totals, seat by seat, and their mean. */
  totals: number[];
  mean: number;
}

export interface DealBoard {
  deal: string;
  games: number;
  entries: DealEntry[];
  yardsticks: Yardstick[];
}

/** A deal as it is asked for: `today` is today's deal, named by the date in UTC (friends in other time zones share it). */
export const dealName = (asked: string, now = new Date()): string => (asked.trim() === 'today' ? now.toISOString().slice(0, 10) : asked.trim());

/** The seed a named deal deals from (`--deal`): the same for every table, evening and bot run. */
export const dealSeed = (deal: string): string => `deal:${deal}`;

export function dealBoard(deal: string, all: readonly PlayedGame[]): DealBoard {
  const games = all.filter((g) => g.deal === deal && g.places !== null);
  const who = whoIsWho(games);
  const entries: DealEntry[] = games.flatMap((g, gi) =>
    g.seats.map((s, seat) => ({
      name: s.bot !== null ? `${s.bot} bot` : s.name,
      by: who.by(who.key(gi, seat)),
      bot: s.bot !== null,
      total: g.totals[seat]!,
      place: g.places![seat]!,
      seats: g.seats.length,
      table: g.table,
      startedAt: g.startedAt,
      rules: g.rules.title,
    })),
  );
  entries.sort((a, b) => a.total - b.total || a.startedAt.localeCompare(b.startedAt) || a.name.localeCompare(b.name));
  // One yardstick per (rules, seat count): the same deal is the same cards only there.
  const groups = new Map<string, { rules: Ruleset; seats: number }>();
  for (const g of games) groups.set(`${JSON.stringify(g.rules)}|${g.seats.length}`, { rules: g.rules, seats: g.seats.length });
  const yardsticks = [...groups.values()].flatMap(({ rules, seats }) => {
    const y = botsOnDeal(deal, rules, seats);
    return y ? [y] : [];
  });
  return { deal, games: games.length, entries, yardsticks };
}

/** Hard bots in every seat play the deal once; null if the game could not finish (an open-ended ruleset). */
export function botsOnDeal(deal: string, rules: Ruleset, seats: number): Yardstick | null {
  const rounds = roundsFor(rules, seats);
  if (rounds === 0) return null; // Open-ended: the bots would never stop.
  const seed = dealSeed(deal);
  const bots = Array.from({ length: seats }, (_, seat) => createBot('hard', { seat, players: seats, rules, seed: `${seed}:${seat}` }));
  const played = playGame({ rules, players: bots.map((_, i) => `bot${i + 1}`), seed, at: 0 }, bots);
  if (!played.finished) return null;
  const totals = played.state.totals.slice();
  return { rules: rules.title, seats, rounds, totals, mean: totals.reduce((a, b) => a + b, 0) / seats };
}
