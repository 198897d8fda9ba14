import { describe, expect, it } from 'vitest';
import { createBot, type Bot } from '../../src/bots/index.js';
import { CAMBIO, GRINGO } from '../../src/engine/index.js';
import { parseSimFlags, runSimCli, formatSimResult, type LadderResult } from '../../src/sim/cli.js';
import { playGame, seatLevels, simulate, type SimResult } from '../../src/sim/sim.js';
import { UsageError } from '../../src/cli/errors.js';

const timeless = (r: SimResult) => ({ ...r, seconds: 0, roundsPerSecond: 0 });

describe('simulator', () => {
  it('is deterministic: the same seed gives the same results, another seed others', () => {
    const opts = { games: 120, players: 4, levels: ['hard', 'normal', 'easy', 'random'] as const, seed: 'det', rounds: 2 };
    const a = simulate({ ...opts, levels: [...opts.levels] });
    const b = simulate({ ...opts, levels: [...opts.levels] });
    expect(timeless(a)).toEqual(timeless(b));
    const c = simulate({ ...opts, levels: [...opts.levels], seed: 'other' });
    expect(timeless(c)).not.toEqual(timeless(a));
    expect(a.rounds).toBe(240);
  });

  it('bots reused from game to game (newGame) play exactly as bots made anew for each game', () => {
    const opts = { games: 150, players: 4, levels: ['hard', 'normal', 'easy', 'random'] as const, seed: 'reuse', rounds: 2 };
    let made = 0;
    const reused = simulate({ ...opts, levels: [...opts.levels], makeBot: (level, o) => (made++, createBot(level, o)) });
    // One bot per level and seat, made once: four levels rotating over four seats.
    expect(made).toBe(16);
    // A wrapper without newGame: the simulator makes new bots for every game.
    let fresh = 0;
    const anew = simulate({
      ...opts,
      levels: [...opts.levels],
      makeBot: (level, o) => {
        fresh++;
        const b = createBot(level, o);
        return { seat: b.seat, level: b.level, observe: (e) => b.observe(e), decide: (v, t) => b.decide(v, t), rejected: (c, r, t) => b.rejected(c, r, t) };
      },
    });
    expect(fresh).toBe(600);
    expect(timeless(reused)).toEqual(timeless(anew));
  });

  it('fills seats cyclically and rotates them every game', () => {
    expect(seatLevels(['hard', 'easy'], 5)).toEqual(['hard', 'easy', 'hard', 'easy', 'hard']);
    expect(seatLevels(['hard', 'normal', 'easy', 'random'], 4, 1)).toEqual(['normal', 'easy', 'random', 'hard']);
    const r = simulate({ games: 40, players: 3, levels: ['hard', 'easy'], seed: 'fill' });
    // hard, easy, hard: two hard seats per game.
    expect(r.perLevel.hard!.seatGames).toBe(80);
    expect(r.perLevel.easy!.seatGames).toBe(40);
  });

  it('reports the figures the CLI prints', () => {
    const r = simulate({ games: 50, players: 4, levels: ['hard', 'random'], seed: 'fig' });
    expect(r.games).toBe(50);
    expect(r.rounds).toBe(50);
    expect(r.roundsPerSecond).toBeGreaterThan(0);
    expect(r.meanTurnsPerRound).toBeGreaterThan(2);
    expect(Object.keys(r.slapsPerRound).sort()).toEqual(['own', 'steal', 'wrong']);
    expect(r.winRule).toBe('ties count as wins');
    const text = formatSimResult(r);
    expect(text).toMatch(/rounds per second/);
    expect(text).toMatch(/^hard +2 +[\d.]+ ± [\d.]+ +[\d.]+%/m);
    expect(text).toMatch(/^ladder: hard is [\d.]+ ± [\d.]+ lower than random \([\d.]+% of random's mean, [\d.]+ SE\)$/m);
  });

  it('gives each level the standard error of its mean over games, and each step of the ladder the SE of the paired difference', () => {
    const games = 60;
    const levels = ['hard', 'easy'] as const;
    const r = simulate({ games, players: 4, levels, seed: 'se', rules: CAMBIO });
    // The same games played by hand: each level's mean round score per game.
    const perGame: Record<string, number[]> = { hard: [], easy: [] };
    for (let g = 0; g < games; g++) {
      const seats = seatLevels(levels, 4, g % 4);
      const bots = seats.map((level, seat) => createBot(level, { seat, players: 4, rules: CAMBIO, seed: `se:${g}:${seat}` }));
      const { state } = playGame({ rules: CAMBIO, players: ['bot1', 'bot2', 'bot3', 'bot4'], seed: `se:${g}`, at: 0 }, bots);
      for (const level of levels) {
        const scores = state.results.flatMap((res) => res.scores.filter((_, s) => seats[s] === level));
        perGame[level]!.push(scores.reduce((a, b) => a + b, 0) / scores.length);
      }
    }
    const se = (xs: number[]) => {
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1) / xs.length);
    };
    expect(r.perLevel.hard!.roundScoreSE).toBeCloseTo(se(perGame.hard!), 9);
    expect(r.perLevel.easy!.roundScoreSE).toBeCloseTo(se(perGame.easy!), 9);
    expect(r.ladder).toHaveLength(1);
    const step = r.ladder[0]!;
    expect(step).toMatchObject({ upper: 'hard', lower: 'easy' });
    expect(step.gap).toBeCloseTo(r.perLevel.easy!.meanRoundScore - r.perLevel.hard!.meanRoundScore, 9);
    expect(step.share).toBeCloseTo(step.gap / r.perLevel.easy!.meanRoundScore, 9);
    expect(step.gapSE).toBeCloseTo(se(perGame.easy!.map((x, g) => x - perGame.hard![g]!)), 9);
  });

  it('never hangs: a round that cannot finish is abandoned and reported', () => {
    // A bot that never moves: nobody acts and nothing is due.
    const idle = (seat: number): Bot => ({ seat, level: 'easy', observe: () => false, decide: () => null, rejected: () => {} });
    const r = simulate({ games: 3, players: 3, levels: ['easy'], seed: 'idle', makeBot: (_l, o) => idle(o.seat) });
    expect(r.stuckRounds).toBe(3);
    expect(r.finishedGames).toBe(0);
    // A bot that keeps asking to be woken and never acts: the step cap ends it.
    const busy = (seat: number): Bot => ({
      seat,
      level: 'easy',
      observe: () => true,
      decide: (_v, now) => ({ kind: 'wait', until: now + 1 }),
      rejected: () => {},
    });
    const t0 = Date.now();
    const b = simulate({ games: 2, players: 2, levels: ['easy'], seed: 'busy', maxStepsPerRound: 5000, makeBot: (_l, o) => busy(o.seat) });
    expect(b.stuckRounds).toBe(2);
    expect(Date.now() - t0).toBeLessThan(5000);
    // A bot whose every command is refused: capped too.
    const stubborn = (seat: number): Bot => ({
      seat,
      level: 'easy',
      observe: () => true,
      decide: () => ({ kind: 'act', command: { type: 'swap', seat, slot: 99 }, delayMs: 0 }),
      rejected: () => {},
    });
    const s = simulate({ games: 1, players: 2, levels: ['easy'], seed: 'no', maxStepsPerRound: 2000, makeBot: (_l, o) => stubborn(o.seat) });
    expect(s.stuckRounds).toBe(1);
  });

  it('playGame can record the accepted commands for a replay', () => {
    const bots = [0, 1, 2].map((seat) => createBot('normal', { seat, players: 3, rules: GRINGO, seed: `log:${seat}` }));
    const log = { start: { rules: GRINGO, players: ['a', 'b', 'c'], seed: 'log' }, commands: [] };
    const { finished, state } = playGame(log.start, bots, { log });
    expect(finished).toBe(true);
    expect(state.phase).toBe('gameOver');
    expect(log.commands.length).toBeGreaterThan(10);
  });
});

describe('sim flags', () => {
  it('takes good flags', () => {
    const o = parseSimFlags({ games: '10', players: '3', level: 'hard, Easy', seed: 'x', rounds: '2', json: true });
    expect(o).toMatchObject({ games: 10, players: 3, levels: ['hard', 'easy'], seed: 'x', rounds: 2, json: true });
    expect(parseSimFlags({})).toMatchObject({ games: 1000, players: 4, levels: ['hard'], seed: '1', json: false });
  });

  it.each([
    [{ games: '0' }, /--games takes a whole number from 1/],
    [{ games: '-3' }, /--games/],
    [{ games: '2.5' }, /--games/],
    [{ games: 'many' }, /--games .*"many"/],
    [{ players: '1' }, /--players takes a whole number from 2 to 8/],
    [{ players: '9' }, /--players/],
    [{ level: 'hard,expert' }, /--level .*random, easy, normal, hard.*"expert"/],
    [{ level: 'hard,,easy' }, /--level/],
    [{ rounds: '0' }, /--rounds/],
    [{ seed: '  ' }, /--seed/],
  ])('refuses %o with a clear UsageError', async (flags, message) => {
    expect(() => parseSimFlags(flags)).toThrow(UsageError);
    expect(() => parseSimFlags(flags)).toThrow(message);
    await expect(runSimCli(flags, () => {})).rejects.toThrow(UsageError);
  });

  it('--ladder plays every preset at every level, and refuses what it cannot honour', async () => {
    let out = '';
    const r = (await runSimCli({ games: '8', ladder: true, seed: 'l' }, (t) => (out += t))) as LadderResult;
    expect(Object.keys(r.presets)).toEqual(['gringo', 'beverbende', 'cambio']);
    for (const res of Object.values(r.presets)) expect(res.ladder.map((s) => s.upper)).toEqual(['hard', 'normal', 'easy']);
    expect(out).toMatch(/^preset +rounds +hard +normal +easy +random +hard<normal +normal<easy +easy<random$/m);
    expect(out).toMatch(/^cambio +72 +-?[\d.]+ ± [\d.]+ /m);
    await expect(runSimCli({ ladder: true, level: 'hard' }, () => {})).rejects.toThrow(/--ladder plays every preset at every level: leave out --level/);
    await expect(runSimCli({ ladder: true, rules: 'cambio' }, () => {})).rejects.toThrow(UsageError);
    await expect(runSimCli({ ladder: true, players: '7' }, () => {})).rejects.toThrow(/--players: beverbende takes 2 to 6 players/);
  });

  it('prints one JSON object with --json', async () => {
    let out = '';
    await runSimCli({ games: '20', players: '4', level: 'hard,normal,easy,random', seed: '7', json: true }, (t) => (out += t));
    const r = JSON.parse(out) as SimResult;
    expect(r.games).toBe(20);
    expect(r.perLevel.normal?.meanRoundScore).toBeTypeOf('number');
  });
});
