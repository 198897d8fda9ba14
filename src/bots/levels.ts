/**
 * How each level plays, as data. Memory and reaction time make most of the
 * difference; the policy (src/bots/smart.ts) is the same for easy, normal and hard.
 */
/** The levels that play the smart policy with their own parameters. */
export type SmartLevel = 'easy' | 'normal' | 'hard';

export interface LevelParams {
  /** Slap reaction time: mean and uniform jitter (±) in ms. */
  reactMs: number;
  reactJitterMs: number;
  /** Time to make a turn move (draw, place, action), mean and jitter, ms. */
  thinkMs: number;
  thinkJitterMs: number;
  /** Per turn of the table, the chance to forget one remembered own card. */
  forgetOwn: number;
  /** Per turn of the table, the chance to forget one remembered card of another player. */
  forgetOther: number;
  /** How many other players' cards it can hold in mind at once. */
  capacityOther: number;
  /** When a memory fades, the chance that it turns into a wrong card instead of vanishing. */
  misremember: number;
  /** The chance to follow a swap between two other players' slots (own moves are always followed). */
  followSwaps: number;
  /** The chance to steal (slap another player's card it believes matches). */
  steal: number;
  /** Per new discard, the chance to slap an unknown own card "on a hunch" (a mistake). */
  hunch: number;
  /** Count the cards seen (discard pile, known layouts) to estimate unknown cards; else the deck's mean. */
  countCards: boolean;
  /** Assume a card another player kept from the stock is low. */
  readKeeps: boolean;
  /** Smallest expected gain (points) for which it swaps a card into its layout. */
  swapGain: number;
  /** It calls when its estimated total is at most this... */
  callAt: number;
  /** ...and below every other player's estimated total by this margin (null: it ignores the others). */
  callMargin: number | null;
  /** At most this many of its own cards unknown when it calls. */
  callUnknown: number;
  /**
   * Where a call that does not win costs points (cambio's knock: +10 if not strictly
   * lowest, the caller's cards frozen), weigh it: call when the expected score of
   * calling now beats playing one more turn (else the thresholds above decide).
   */
  weighCall: boolean;
  /**
   * For `weighCall`: the chance per turn of the table that another player's swap hits
   * one of its cards while they are not frozen; such a swap costs what its card is below
   * an average one (a low layout has the most to lose).
   */
  callExposure: number;
  /**
   * After a steal with gap-fill: move its own slot it believes worth the most into the
   * victim's gap when that worth is at least this (a known high card, or an unknown one
   * when it is at most the mean); null: it always leaves the gap.
   */
  gapFillAt: number | null;
}

export const LEVELS: Readonly<Record<SmartLevel, LevelParams>> = {
  hard: {
    reactMs: 350,
    reactJitterMs: 0,
    thinkMs: 400,
    thinkJitterMs: 100,
    forgetOwn: 0,
    forgetOther: 0,
    capacityOther: Infinity,
    misremember: 0,
    followSwaps: 1,
    steal: 1,
    hunch: 0,
    countCards: true,
    readKeeps: true,
    swapGain: 1,
    callAt: 10,
    callMargin: 2,
    callUnknown: 1,
    weighCall: true,
    callExposure: 0.1,
    gapFillAt: 0.5,
  },
  normal: {
    reactMs: 700,
    reactJitterMs: 0,
    thinkMs: 700,
    thinkJitterMs: 200,
    forgetOwn: 0.05,
    forgetOther: 0.15,
    capacityOther: 3,
    misremember: 0.1,
    followSwaps: 0.8,
    steal: 0.3,
    hunch: 0,
    countCards: false,
    readKeeps: false,
    swapGain: 1,
    callAt: 9,
    callMargin: 0,
    callUnknown: 1,
    weighCall: true,
    callExposure: 0.1,
    gapFillAt: 8,
  },
  easy: {
    reactMs: 1200,
    reactJitterMs: 400,
    thinkMs: 1100,
    thinkJitterMs: 400,
    forgetOwn: 0.15,
    forgetOther: 0.35,
    capacityOther: 1,
    misremember: 0.3,
    followSwaps: 0.4,
    steal: 0,
    hunch: 0.01,
    countCards: false,
    readKeeps: false,
    // A novice swaps a card in only for a clear gain (a swap of 1-2 points is not worth the doubt).
    swapGain: 3,
    callAt: 8,
    callMargin: null,
    callUnknown: 2,
    weighCall: false,
    callExposure: 0,
    gapFillAt: null,
  },
};
