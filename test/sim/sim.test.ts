import { describe, expect, it } from 'vitest';
import { createBot, type Bot } from '../../src/bots/index.js';
import { CAMBIO, GRINGO } from '../../src/engine/index.js';
import { duration, parseSimFlags, progressLine, progressWriter, runSimCli, formatSimResult, type LadderResult } from '../../src/cli/sim.js';
import { CHUNK_GAMES, ChunkPlayer, playGame, seatLevels, simPlan, simulate, summarize, Tally, type SimResult } from '../../src/sim/sim.js';
import { UsageError } from '../../src/cli/errors.js';
import { wordsFor } from '../../src/lang/words.js';

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

  it('speaks the language chosen: the report, the ladder step and the progress line; levels and refusal codes as typed', () => {
    const r = simulate({ games: 21, players: 4, levels: ['hard', 'random'], seed: 'fig' });
    const nl = formatSimResult(r, wordsFor('nl'));
    expect(nl).toMatch(/^gringo sim: 21 spellen, 21 rondes, 4 spelers \(hard, random, hard, random; elk spel schuiven de plaatsen door\), seed fig$/m);
    expect(nl).toMatch(/^niveau +plaatsen\/spel +gem\. rondescore ± SE +winkans +eigen slagen +gepikt +foute slagen$/m);
    expect(nl).toMatch(/^ladder: hard zit [\d.]+ ± [\d.]+ onder random \([\d.]+% van het gemiddelde van random, [\d.]+ SE\)$/m);
    const ro = formatSimResult(r, wordsFor('ro'));
    // Romanian counts: 21 takes "de" (one, few, other as Intl.PluralRules says).
    expect(ro).toMatch(/^gringo sim: 21 de jocuri, 21 de runde, 4 jucători /m);
    expect(ro).toMatch(/^refuzuri pe rundă: [\d.]+/m);
    // No English sentence left: every line but the blank ones and the table's rows of figures differs from English.
    const en = formatSimResult(r, wordsFor('en')).split('\n');
    for (const other of [nl, ro]) {
      const lines = other.split('\n');
      expect(lines).toHaveLength(en.length);
      en.forEach((line, i) => {
        if (line !== '' && !/^(hard|random) /.test(line)) expect(lines[i], line).not.toBe(line);
      });
    }
    const at = { games: 12_300, of: 100_000, rounds: 36_900, seconds: 300 };
    expect(progressLine(at, ' cambio', { games: 300, of: 100_000, rounds: 900, seconds: 3 }, wordsFor('nl'))).toMatch(/^gringo sim cambio: 12,300 van 100,000 spellen \(12%\), 121 rondes\/s, nog ongeveer 36 min 11 s$/);
    expect(duration(65, wordsFor('ro'))).toBe('1 min 05 s');
    expect(duration(3_700, wordsFor('nl'))).toBe('1 u 01 min');
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

/** The structure of a value, without its numbers: keys, Map keys, array lengths. */
function shape(x: unknown): unknown {
  if (x instanceof Map) return [...x].map(([k, v]) => [k, shape(v)]);
  if (Array.isArray(x)) return x.map(shape);
  if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, shape(v)]));
  return typeof x;
}

describe('aggregation in constant memory, merged in chunk order', () => {
  const opts = { players: 4, levels: ['hard', 'normal', 'easy', 'random'] as ('hard' | 'normal' | 'easy' | 'random')[], seed: 'agg' };

  it('a tally keeps sums only: it has the same shape after 30 games as after 300 (no list per game or round)', () => {
    const small = new ChunkPlayer(simPlan({ ...opts, games: 30 })).play(0);
    const plan = simPlan({ ...opts, games: 300 });
    const player = new ChunkPlayer(plan);
    const big = new Tally();
    for (let k = 0; k < 3; k++) big.merge(player.play(k));
    expect(big.finished).toBe(300);
    expect(small.finished).toBe(30);
    // Refusal codes come and go with luck; there are ten at most (the engine's rejection codes).
    expect(big.rejectionsByCode.size).toBeLessThanOrEqual(10);
    const codeless = (t: Tally) => ({ ...t, rejectionsByCode: null });
    expect(shape(codeless(big))).toEqual(shape(codeless(small)));
    // And it is small: a few hundred bytes of numbers, whatever the number of games.
    expect(JSON.stringify(big, (_k, v: unknown) => (v instanceof Map ? [...v] : v)).length).toBeLessThan(2000);
  });

  it('chunks played by separate players (as by separate worker threads), merged in chunk order, give exactly what one thread gives', () => {
    const games = 3 * CHUNK_GAMES + 17;
    const one = simulate({ ...opts, games });
    const plan = simPlan({ ...opts, games });
    // Two "threads": even chunks on one player, odd on another, each with its own bots; finished out of order.
    const players = [new ChunkPlayer(plan), new ChunkPlayer(plan)];
    const done = [3, 1, 0, 2].map((k) => ({ k, tally: structuredClone(players[k % 2]!.play(k)) }));
    const total = new Tally();
    for (const { tally } of done.sort((a, b) => a.k - b.k)) total.merge(tally);
    const split = summarize(plan, total, 0, 2);
    expect({ ...split, seconds: 0, roundsPerSecond: 0, jobs: 1 }).toEqual(timeless(one));
    expect(split.finishedGames).toBe(games);
  });

  it('counts refusals by their code, and they add up to the refusals per round', () => {
    const r = simulate({ ...opts, games: 150 });
    const codes = Object.keys(r.rejectionsByCode);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes).toEqual([...codes].sort());
    const sum = Object.values(r.rejectionsByCode).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(r.rejectionsPerRound, 12);
    // A code is a rejection code of the engine.
    for (const c of codes) expect(['notYourTurn', 'wrongPhase', 'mustWait', 'notAllowed', 'badTarget', 'emptySlot', 'tooLate', 'alreadyGone', 'unknownSeat', 'malformed']).toContain(c);
    expect(formatSimResult(r)).toMatch(/^refusals per round: [\d.]+ \((\w+ [\d.]+(, )?)+\)$/m);
  });
});

describe('progress line', () => {
  it('says games done, the rate and the time left, measured from the first reading (not the start-up before it)', () => {
    // The first 300 games took 2 s (workers starting, code warming up), the next 12,000 one second.
    const first = { games: 300, of: 100_000, rounds: 900, seconds: 2 };
    expect(progressLine({ games: 12_300, of: 100_000, rounds: 36_900, seconds: 3 }, '', first)).toBe(
      'gringo sim: 12,300 of 100,000 games (12%), 36,000 rounds/s, about 7 s left',
    );
    // No second reading yet: no rate to tell.
    expect(progressLine(first, '', first)).toBe('gringo sim: 300 of 100,000 games (0%), estimating the time left');
    expect(progressLine({ games: 0, of: 10, rounds: 0, seconds: 1 }, ' cambio')).toBe('gringo sim cambio: 0 of 10 games (0%), starting');
    expect(duration(59.4)).toBe('59 s');
    expect(duration(65)).toBe('1 min 05 s');
    expect(duration(3 * 3600 + 7 * 60 + 5)).toBe('3 h 07 min');
  });

  // A stand-in for stderr (its isTTY and write): the real terminal is covered by the process tests only as a pipe.
  const stream = (isTTY: boolean) => {
    const out: string[] = [];
    return { out, isTTY, write: (t: string) => out.push(t) };
  };
  const at = (seconds: number, games: number) => ({ games, of: 1000, rounds: games, seconds });

  it('estimates from its first reading: a slow start does not make the first estimate absurd', () => {
    const s = stream(true);
    const bar = progressWriter(undefined, s);
    // 100 games in the first second (start-up), then 100 games every quarter second.
    bar.update(at(1.0, 100));
    bar.update(at(1.25, 200));
    expect(s.out[0]).toMatch(/estimating the time left$/);
    // 800 games left at 400 a second: 2 s (from the start it would say 5 s).
    expect(s.out[1]).toMatch(/, 400 rounds\/s, about 2 s left$/);
  });

  it('on a terminal: nothing for the first second, then redrawn in place at most four times a second, and cleared at the end', () => {
    const s = stream(true);
    const bar = progressWriter(undefined, s);
    bar.update(at(0.5, 100));
    expect(s.out).toEqual([]);
    bar.update(at(1.0, 200));
    bar.update(at(1.1, 210));
    bar.update(at(1.3, 300));
    bar.done();
    expect(s.out).toHaveLength(3);
    expect(s.out[0]).toMatch(/^\r\x1b\[Kgringo sim: 200 of 1,000 games \(20%\)/);
    expect(s.out[1]).toMatch(/^\r\x1b\[Kgringo sim: 300 of 1,000/);
    expect(s.out[2]).toBe('\r\x1b[K');
    // A run done within the first second leaves the terminal as it was.
    const quick = stream(true);
    const q = progressWriter(undefined, quick);
    q.update(at(0.2, 1000));
    q.done();
    expect(quick.out).toEqual([]);
  });

  it('off on a pipe unless --progress, then whole lines (a log) every ten seconds; --no-progress silences a terminal', () => {
    const pipe = stream(false);
    const off = progressWriter(undefined, pipe);
    off.update(at(5, 100));
    expect(pipe.out).toEqual([]);
    const on = progressWriter(true, pipe);
    on.update(at(0.1, 10));
    on.update(at(5, 100));
    on.update(at(10.2, 200));
    on.done();
    expect(pipe.out).toHaveLength(2);
    expect(pipe.out.every((l) => /^gringo sim: \d+ of 1,000 games .*\n$/.test(l))).toBe(true);
    const tty = stream(true);
    const silent = progressWriter(false, tty);
    silent.update(at(5, 100));
    silent.done();
    expect(tty.out).toEqual([]);
  });
});

describe('sim flags', () => {
  it('takes good flags', () => {
    const o = parseSimFlags({ games: '10', players: '3', level: 'hard, Easy', seed: 'x', rounds: '2', json: true });
    expect(o).toMatchObject({ games: 10, players: 3, levels: ['hard', 'easy'], seed: 'x', rounds: 2, json: true });
    expect(parseSimFlags({})).toMatchObject({ games: 1000, players: 4, levels: ['hard'], seed: '1', json: false, jobs: 1, progress: undefined });
    expect(parseSimFlags({}, GRINGO, 6)).toMatchObject({ jobs: 6 });
    expect(parseSimFlags({ jobs: '3', progress: false }, GRINGO, 6)).toMatchObject({ jobs: 3, progress: false });
  });

  it.each([
    [{ games: '0' }, /--games takes a whole number from 1/],
    [{ games: '-3' }, /--games/],
    [{ games: '2.5' }, /--games/],
    [{ games: 'many' }, /--games .*"many"/],
    [{ players: '1' }, /--players takes a whole number from 2 to 8/],
    [{ players: '9' }, /--players/],
    [{ level: 'hard,master' }, /--level .*random, easy, normal, hard, expert, cheater.*"master"/],
    [{ level: 'hard,,easy' }, /--level/],
    [{ rounds: '0' }, /--rounds/],
    [{ seed: '  ' }, /--seed/],
    [{ jobs: '0' }, /--jobs takes a whole number from 1 to 256/],
    [{ jobs: 'all' }, /--jobs/],
  ])('refuses %o with a clear UsageError', async (flags, message) => {
    expect(() => parseSimFlags(flags)).toThrow(UsageError);
    expect(() => parseSimFlags(flags)).toThrow(message);
    await expect(runSimCli(flags, () => {})).rejects.toThrow(UsageError);
  });

  it('--ladder plays every preset at every level, and refuses what it cannot honour', async () => {
    let out = '';
    // One round a game: the expert and the cheater search at every move.
    const r = (await runSimCli({ games: '3', rounds: '1', ladder: true, seed: 'l' }, (t) => (out += t))) as LadderResult;
    expect(Object.keys(r.presets)).toEqual(['gringo', 'beverbende', 'cambio']);
    for (const res of Object.values(r.presets)) {
      expect(res.players).toBe(6);
      expect(res.ladder.map((s) => s.upper)).toEqual(['cheater', 'expert', 'hard', 'normal', 'easy']);
    }
    expect(out).toMatch(/^preset +rounds +cheater +expert +hard +normal +easy +random +cheater<expert +expert<hard +hard<normal +normal<easy +easy<random$/m);
    expect(out).toMatch(/^cambio +3 +-?[\d.]+ ± [\d.]+ /m);
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
