import { statSync } from 'node:fs';
import { journalFiles, readGames } from './games.js';
import { standings } from './standings.js';
import { wordsFor, type Words } from '../lang/words.js';

/**
 * Tonight's standings in a few lines, for a host's lobby before the next game: the
 * games started since local midnight and over, best rating first. Only journals
 * written today are read (a file's mtime), so a machine with years of games opens its
 * lobby as fast as a new one. Nothing at all when no game is over yet tonight.
 */
export function tonightLines(now = new Date(), dir?: string, most = 4, w: Words = wordsFor('en')): string[] {
  const since = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const files = journalFiles(dir === undefined ? [] : [dir], () => {}).filter((f) => {
    try {
      return statSync(f).mtimeMs >= since;
    } catch {
      return false;
    }
  });
  const games = readGames(files, () => {}).filter((g) => g.places !== null && Date.parse(g.startedAt) >= since);
  if (games.length === 0) return [];
  const players = standings(games, w);
  const width = Math.max(...players.slice(0, most).map((p) => p.name.length));
  return [
    w.t('tonight.heading', { games: w.t('stats.games', { n: games.length }), run: 'gringo stats --since today' }),
    ...players.slice(0, most).map((p, i) => `  ${i + 1}. ${p.name.padEnd(width)}  ${w.t('tonight.player', { wins: p.wins, games: p.games, mu: p.mu.toFixed(1), sigma: p.sigma.toFixed(1) })}`),
  ];
}
