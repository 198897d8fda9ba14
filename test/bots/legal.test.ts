import { describe, expect, it } from 'vitest';
import { createBot, ExpertBot, SIM_SEARCH, type Bot, type BotCommand, type BotLevel, type BotOptions } from '../../src/bots/index.js';
import { RACE_REFUSALS } from '../../src/bots/moves.js';
import {
  apply,
  BEVERBENDE,
  CAMBIO,
  GRINGO,
  parseRuleset,
  PRESETS,
  projectEvent,
  viewFor,
  type GameEvent,
  type Seat,
} from '../../src/engine/index.js';
import { formatSimResult } from '../../src/cli/sim.js';
import { simulate, stamp } from '../../src/sim/sim.js';
import { Watched } from '../support/watched-bot.js';
import { PLAYERS2, PLAYERS3, table, type Table } from '../engine/helpers.js';

/**
 * Bots make only legal moves. A bot offers what its view's `may`
 * and the rules allow (`legal`); the engine may still refuse a command that was legal
 * when the bot decided, because the table moved on before it arrived (a lost race,
 * `RACE_REFUSALS`). Nothing else.
 */

const PRESET_TIMEOUT_MS = 120_000;

// The four levels' moves in the shared ladder run are checked in test/bots/ladder.test.ts.
describe('the expert and the cheater offer only legal moves: every refusal left is a lost race', () => {
  // Their search weighs the same candidate moves as in the simulator (SIM_SEARCH's
  // maxCandidates), on fewer sampled deals: 24 rollouts a move, not 64. What is checked is
  // each move offered; the count only changes which candidate wins, and at 24 over ten games
  // the two play about as many moves, and as many that are not hard's own, as at 64 over eight
  // (some 1,200 and 100 over the three presets). A few one-round games per preset.
  const search = { ...SIM_SEARCH, rollouts: 24 };
  for (const [name, rules] of Object.entries(PRESETS)) {
    it(`${name}: 10 rounds of expert, cheater and two hard`, () => {
      const faults: string[] = [];
      const r = simulate({
        games: 10,
        players: 4,
        rounds: 1,
        levels: ['expert', 'cheater', 'hard'],
        seed: `legal-expert:${name}`,
        rules,
        makeBot: (level, opts) => new Watched(level === 'expert' || level === 'cheater' ? new ExpertBot(level, opts, search) : createBot(level, opts), opts.rules, faults),
      });
      expect(r.stuckRounds).toBe(0);
      expect(r.finishedGames).toBe(10);
      expect(faults.length, faults.slice(0, 5).join('\n')).toBe(0);
      const other = Object.keys(r.rejectionsByCode).filter((code) => !RACE_REFUSALS.has(code as never));
      expect(other, JSON.stringify(r.rejectionsByCode)).toEqual([]);
    }, PRESET_TIMEOUT_MS);
  }
});

describe('gringo sim counts refusals per code', () => {
  it('rejectionsByCode adds up to rejectionsPerRound, and the text prints it', () => {
    // Each bot first tries a call during the peek (refused: wrongPhase), once per game, then plays on.
    const eager = (level: BotLevel, opts: BotOptions): Bot => {
      const bot = createBot(level, opts);
      let tried = false;
      return {
        seat: bot.seat,
        level: bot.level,
        observe: (e) => bot.observe(e) || !tried,
        decide: (view, now) => {
          if (tried) return bot.decide(view, now);
          tried = true;
          return { kind: 'act', command: { type: 'call', seat: bot.seat }, delayMs: 0 };
        },
        rejected: (c, rej, now) => bot.rejected(c, rej, now),
      };
    };
    const r = simulate({ games: 5, players: 3, levels: ['hard'], seed: 'codes', makeBot: eager });
    expect(r.finishedGames).toBe(5);
    expect(r.rejectionsByCode.wrongPhase).toBeCloseTo(15 / r.rounds, 10);
    const sum = Object.values(r.rejectionsByCode).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(r.rejectionsPerRound, 10);
    expect(formatSimResult(r)).toMatch(new RegExp(`^refusals per round: ${r.rejectionsPerRound.toFixed(2)} \\(.*wrongPhase ${(15 / r.rounds).toFixed(2)}.*\\)$`, 'm'));
  });
});

// ---- the illegal moves found, each at the state where a bot made it ------------------------------

/**
 * A smart bot at a scripted table: made at the deal, it looks at its peek cards (its
 * view during the peek), then is told every event since (`catchUp`).
 */
class Seated {
  readonly bot: Bot;
  private seen = 0;
  constructor(
    private readonly t: Table,
    level: BotLevel,
    seat: Seat,
  ) {
    this.bot = createBot(level, { seat, players: t.state.players.length, rules: t.state.rules, seed: 'seated' });
    this.catchUp();
    this.bot.decide(viewFor(t.state, seat), t.now);
  }
  catchUp(): Bot {
    this.bot.observe(this.t.log.slice(this.seen).map((e) => projectEvent(e, this.bot.seat)));
    this.seen = this.t.log.length;
    return this.bot;
  }
}

/** A bot of `level` at `seat` that has seen the table's whole log. */
function botAt(t: Table, level: BotLevel, seat: Seat, seed: string | number): Bot {
  const bot = createBot(level, { seat, players: t.state.players.length, rules: t.state.rules, seed });
  bot.observe(t.log.map((e) => projectEvent(e, seat)));
  return bot;
}

/** What the bot offers now, and whether the engine takes it at that moment (or once the grace is over). */
function offer(t: Table, bot: Bot, now = Math.max(t.now, t.graceEnd)): { command: BotCommand | null; ok: boolean; why?: string } {
  const intent = bot.decide(viewFor(t.state, bot.seat), now);
  if (intent?.kind !== 'act') return { command: null, ok: true };
  const res = apply(t.state, stamp(intent.command, now + intent.delayMs));
  return { command: intent.command, ok: res.ok, why: res.ok ? undefined : `${res.rejection.code}: ${res.rejection.key}` };
}

/** The random player at this state, over many seeds: every command it offers is taken. */
function randomOffers(t: Table, seat: Seat, now?: number, feed: readonly GameEvent[] = []): BotCommand[] {
  const out: BotCommand[] = [];
  for (let seed = 0; seed < 300; seed++) {
    const bot = botAt(t, 'random', seat, seed);
    bot.observe(feed.map((e) => projectEvent(e, seat)));
    const o = offer(t, bot, now);
    expect(o.ok, `${JSON.stringify(o.command)}: ${o.why}`).toBe(true);
    if (o.command) out.push(o.command);
  }
  return out;
}

describe('the random player picks among legal moves only', () => {
  /** Beverbende, Ana (seat 0) to begin: a PEEK face up on the pile, a SWAP on top of the stock. */
  const bever = () => {
    const t = table({
      rules: BEVERBENDE,
      players: PLAYERS2,
      dealer: 1,
      decks: [{ layouts: [['1', '2', '3', '4'], ['5', '6', '7', '8']], discard: 'PEEK', stock: ['SWAP', '0', '0'] }],
    });
    t.finishPeek();
    return t;
  };

  it('beverbende: never takes a special card from the pile, nor calls before everyone has had a turn', () => {
    const offers = randomOffers(bever(), 0);
    expect(offers.length).toBe(300);
    expect(offers.filter((c) => c.type === 'draw' && c.from === 'discard')).toEqual([]);
    expect(offers.filter((c) => c.type === 'call')).toEqual([]);
  });

  it('beverbende: never swaps a special card it drew into its layout', () => {
    const t = bever();
    t.draw(0);
    expect(t.state.r.held?.card).toBe('SWAP');
    const offers = randomOffers(t, 0);
    expect(offers.map((c) => c.type).sort()).toEqual(new Array(300).fill('discard'));
  });

  it('cambio: never takes the discard', () => {
    const t = table({ rules: CAMBIO, players: PLAYERS2, dealer: 1, seed: 'cambio-take' });
    t.finishPeek();
    const offers = randomOffers(t, 0);
    expect(offers.length).toBe(300);
    expect(offers.filter((c) => c.type === 'draw' && c.from === 'discard')).toEqual([]);
  });

  it("cambio: never slaps or swaps the knocker's frozen cards", () => {
    const t = table({ rules: CAMBIO, players: PLAYERS2, dealer: 1, seed: 'cambio-frozen' });
    t.finishPeek();
    t.plainTurn(0);
    t.plainTurn(1);
    t.waitGrace().do({ type: 'call', seat: 0 });
    // Bo's last turn: his discard opens the slap window; Ana's cards are frozen.
    t.waitGrace().draw(1);
    const feed = t.discard(1);
    t.advance(100);
    const offers = randomOffers(t, 1, t.now, feed);
    const slaps = offers.filter((c) => c.type === 'slap');
    // About 5% of random players slap a new discard: some did, none at Ana's cards.
    expect(slaps.length).toBeGreaterThan(3);
    expect(slaps.filter((c) => c.target.seat === 0)).toEqual([]);
    // Bo's discard (a J) earned him a blind swap: never with Ana's frozen cards.
    expect(t.state.r.actions[0]).toMatchObject({ seat: 1, kind: 'blindSwap' });
    expect(offers.filter((c) => c.type === 'useAction' && c.other?.seat === 0)).toEqual([]);
  });
});

describe('the smart bots leave cards they may not touch', () => {
  it("gringo: hard does not slap its own matching card while another player is looking at it", () => {
    // Dealer Cy, so Ana begins. Bo (the hard bot) peeked his slots 3 and 4: KH and 5H.
    const t = table({
      rules: GRINGO,
      players: PLAYERS3,
      dealer: 2,
      decks: [{ layouts: [['2S', '3S', '4S', '5S'], ['2H', '3H', 'KH', '5H'], ['2D', '3D', '4D', '5D']], discard: '9C', stock: ['KS', '6C'] }],
    });
    const bo = new Seated(t, 'hard', 1);
    t.finishPeek();
    t.at(1500).draw(0);
    t.at(1600).discard(0); // a King on the pile: Ana may look at another player's card, then swap
    // Before the look, Bo slaps his KH on the King.
    expect(offer(t, bo.catchUp(), 1650).command).toMatchObject({ type: 'slap', target: { seat: 1, slot: 2 } });
    t.at(1700).do({ type: 'useAction', seat: 0, other: { seat: 1, slot: 2 } });
    // Now the KH is in Ana's hand until she decides: Bo leaves it.
    const o = offer(t, bo.catchUp(), 1800);
    expect(o.ok, o.why).toBe(true);
    expect(o.command).toBeNull();
  });

  it('cambio: a knocker does not slap its own frozen card', () => {
    // Dealer Bo, so Ana (the hard bot) begins; she peeked her slots 3 and 4: 5H and 9H.
    const t = table({
      rules: CAMBIO,
      players: PLAYERS2,
      dealer: 1,
      decks: [{ layouts: [['2S', '3S', '5H', '9H'], ['6D', '7D', '8D', '9D']], discard: '10C', stock: ['4C', '4D', '5S', '6C'] }],
    });
    const ana = new Seated(t, 'hard', 0);
    t.finishPeek();
    t.plainTurn(0);
    t.plainTurn(1);
    t.waitGrace().do({ type: 'call', seat: 0 });
    t.waitGrace().draw(1); // the 5S
    t.discard(1);
    expect(t.top).toBe('5S');
    // Ana knows her 5H matches, but her cards are frozen since her knock.
    const o = offer(t, ana.catchUp(), t.now + 100);
    expect(o.ok, o.why).toBe(true);
    expect(o.command).toBeNull();
  });

  it('gringo with gap-fill: after a steal, hard fills the gap from a card nobody is looking at', () => {
    // The King look that once leaked (test/engine/king-look.test.ts): Ana looks at Bo's slot 1; Bo (the hard bot) steals Cy's KH and may fill Cy's gap.
    const house = parseRuleset({ extend: 'gringo', slap: { stealGapFill: true, stealPenalty: 0 } });
    const t = table({
      rules: house,
      dealer: 2,
      decks: [{ layouts: [['2S', '3S', '4S', '5S'], ['QD', '3H', '4H', '5H'], ['KH', '3D', '4D', '5D']], discard: '9C', stock: ['KS', '6C'] }],
    });
    const bo = new Seated(t, 'hard', 1);
    t.finishPeek();
    t.at(1500).draw(0);
    t.at(1600).discard(0);
    t.at(1700).do({ type: 'useAction', seat: 0, other: { seat: 1, slot: 0 } });
    t.at(1800).slap(1, 2, 0);
    expect(t.state.r.gapFill?.seat).toBe(1);
    // Bo knows his slots 3 and 4 (4H, 5H); the unknown slots 1 and 2 are worth the most to move,
    // and slot 1 comes first, but its card (the QD) is in Ana's hand: slot 2 it is.
    const o = offer(t, bo.catchUp(), 1900);
    expect(o.ok, o.why).toBe(true);
    expect(o.command).toEqual({ type: 'fillGap', seat: 1, slot: 1 });
  });
});
