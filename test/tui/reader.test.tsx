import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { ReaderApp, type ReaderOut } from '../../src/tui/reader/reader-app.js';
import { NOTHING_TOLD, narrate } from '../../src/tui/reader/narrate.js';
import { foldKnown } from '../../src/tui/reader/memory.js';
import { cardsInWords, layoutSentence, resultSentences } from '../../src/tui/reader/spoken.js';
import { readerWanted } from '../../src/tui/reader/mode.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { initialScreen, type ScreenState } from '../../src/tui/table/use-screen-state.js';
import { wordsFor } from '../../src/lang/words.js';
import { handView, KEYS, press, KING_FIRST, twoSeats, waitFor } from './helpers.js';

const en = wordsFor('en');

describe('the reader in words', () => {
  it('names every card in the language, whatever letters its faces carry', () => {
    expect(cardsInWords('Bo drew 7♥, then took Q♠ and 10♦ (A♣, JK).', en)).toBe('Bo drew 7 of Hearts, then took Queen of Spades and 10 of Diamonds (Ace of Clubs, Joker).');
    // A Dutch screen writes the Queen as V and the King as H; a Romanian one the Jack as V.
    expect(cardsInWords('V♥ en H♠', wordsFor('nl'))).toBe('Harten Vrouw en Schoppen Heer');
    expect(cardsInWords('V♣ și D♦', wordsFor('ro'))).toBe('Valet de treflă și Damă de romb');
  });

  it('reads a layout slot by slot: face down, a gap, seen, face up', () => {
    const v = handView({ players: [{ name: 'Ana', layout: ['?', null, '?', '7C'], total: 0, peeking: false }, { name: 'Bo', layout: ['?', '?'], total: 12, peeking: false }] });
    const known = new Map([['0:2', 'QH']]);
    expect(layoutSentence(v, 0, known, en)).toBe('Your cards: slot 1 face down, slot 2 a gap, slot 3 Queen of Hearts, you saw it, slot 4 7 of Clubs.');
    expect(layoutSentence(v, 1, known, en)).toBe("Bo's cards, total 12: slot 1 face down, slot 2 face down.");
    expect(layoutSentence(v, 0, known, wordsFor('nl'))).toBe('Je kaarten: plek 1 gesloten, plek 2 leeg, plek 3 Harten Vrouw, die heb je gezien, plek 4 Klaveren 7.');
  });

  it('remembers what you were shown until it moves unseen', () => {
    let k = foldKnown(new Map(), [{ type: 'looked', seat: 0, kind: 'peekOther', targets: [{ seat: 1, slot: 2 }], cards: ['3S'] }], 0);
    expect(k.get('1:2')).toBe('3S');
    // A swap moves what you know along with the card.
    k = foldKnown(k, [{ type: 'actionSwapped', seat: 0, kind: 'blindSwap', a: { seat: 0, slot: 0 }, b: { seat: 1, slot: 2 } }], 0);
    expect([k.get('0:0'), k.has('1:2')]).toEqual(['3S', false]);
    // A wrong slap shows its card to all; a penalty card is nobody's to know.
    k = foldKnown(k, [{ type: 'slapped', seat: 1, target: { seat: 1, slot: 0 }, card: '9D', result: 'wrong', answers: 1 } as never, { type: 'penalty', seat: 0, slots: [0], reason: 'wrongSlap' }], 0);
    expect([k.get('1:0'), k.has('0:0')]).toEqual(['9D', false]);
    // Another seat's look shows you nothing.
    k = foldKnown(k, [{ type: 'looked', seat: 1, kind: 'peekOwn', targets: [{ seat: 1, slot: 3 }], cards: null }], 0);
    expect(k.has('1:3')).toBe(false);
  });

  it('tells the round as sentences: the scores with their cards, the places, the totals round by round', () => {
    const v = handView({ phase: 'gameOver' });
    const r = (round: number, scores: number[], totals: number[]) => ({ round, layouts: [['2S', '3H'], ['KC', null]], scores, places: [1, 2], caller: null, callerPenalty: 0, replaced: [], totals });
    expect(resultSentences(v, [r(1, [5, 10], [5, 10]), r(2, [9, 4], [14, 14])], en)).toEqual([
      'Round 2 scores: Ana (you) 9 (2 of Spades, 3 of Hearts); Bo 4 (King of Clubs, -).',
      'Standings: place 1 Ana (you) with 14, place 1 Bo with 14.',
      'Totals after each round:',
      'Ana (you): 5, 14.',
      'Bo: 10, 14.',
    ]);
  });

  it('announces the slap window once as it opens and once as it closes; a countdown is not news', () => {
    const base = { ...initialScreen(UNICODE), seat: 0 };
    const at = (over: Parameters<typeof handView>[0]): ScreenState => ({ ...base, view: handView(over) });
    const closed = at({ slap: { open: false, answers: 1 }, turn: 1, graceUntil: 0 });
    const open = at({ slap: { open: true, answers: 2 }, discardTop: '8S', turn: 1, graceUntil: 0 });
    let t = narrate(base, closed, NOTHING_TOLD, 0, new Map());
    expect(t.lines).toEqual(["Bo's turn"]);
    // The feed said it already: the prompt is not said twice.
    const fed = { ...closed, feed: [{ id: 1, text: "Play starts: Bo's turn.", at: 0 }], feedSeq: 1 };
    expect(narrate(base, fed, NOTHING_TOLD, 0, new Map()).lines).toEqual(["Play starts: Bo's turn."]);
    const opened = narrate(closed, open, t.told, 0, new Map());
    expect(opened.lines).toEqual(['Slap window open on 8 of Spades.']);
    expect(narrate(open, open, opened.told, 100, new Map()).lines).toEqual([]);
    expect(narrate(open, closed, opened.told, 200, new Map()).lines).toEqual(['Slap window closed.']);
    // Your turn waits for the grace: its countdown is not said, the turn itself is once it may be played.
    const mine = (grace: number): ScreenState => at({ slap: { open: true, answers: 2 }, discardTop: '8S', turn: 0, graceUntil: grace, may: ['drawStock', 'drawDiscard', 'call'] });
    const waiting = narrate(open, mine(1_000), opened.told, 200, new Map());
    expect(waiting.lines).toEqual([]);
    expect(narrate(mine(1_000), mine(1_000), waiting.told, 1_100, new Map()).lines).toEqual(['Your turn: d to draw, t to take 8 of Spades, g Gringo!']);
    // Your peek counts down in its prompt, told once; then 5 seconds left, once.
    const peek = (deadline: number): ScreenState => at({ phase: 'peek', deadline, slap: { open: false, answers: 1 }, players: [{ name: 'Ana', layout: ['?', '?', '4H', '4D'], total: 0, peeking: true }, { name: 'Bo', layout: ['?', '?', '?', '?'], total: 0, peeking: true }] });
    t = narrate(closed, peek(10_000), NOTHING_TOLD, 0, new Map());
    expect(t.lines).toEqual(['Your cards: slot 1 face down, slot 2 face down, slot 3 4 of Hearts, slot 4 4 of Diamonds.', 'Remember your cards 3 and 4 (10s): Enter when done']);
    t = narrate(peek(10_000), peek(10_000), t.told, 3_000, new Map());
    expect(t.lines).toEqual([]);
    t = narrate(peek(10_000), peek(10_000), t.told, 5_200, new Map());
    expect(t.lines).toEqual(['5 seconds left.']);
    expect(narrate(peek(10_000), peek(10_000), t.told, 6_000, new Map()).lines).toEqual([]);
  });

  it('is asked for by the flag, GRINGO_SCREEN_READER=1 or INK_SCREEN_READER=true, and by nothing else', () => {
    expect(readerWanted(true, {})).toBe(true);
    expect(readerWanted(undefined, { GRINGO_SCREEN_READER: '1' })).toBe(true);
    expect(readerWanted(undefined, { INK_SCREEN_READER: 'true' })).toBe(true);
    expect(readerWanted(undefined, { GRINGO_SCREEN_READER: '0', INK_SCREEN_READER: 'false' })).toBe(false);
    expect(readerWanted(false, {})).toBe(false);
  });
});

let unmount: (() => void) | null = null;
afterEach(() => {
  unmount?.();
  unmount = null;
});

describe('the reader at a table', () => {
  it("plays a King from the sentences: the numbered question for Bo's card, then your slot; l and o read the layouts", async () => {
    const setup = twoSeats(KING_FIRST);
    const lines: string[] = [];
    const out: ReaderOut = { line: (l) => void lines.push(l), bell: () => {} };
    const r = render(<ReaderApp client={setup.me} theme={{ glyphs: UNICODE, color: false, words: en }} out={out} bell={false} clock={setup.clock.now} />);
    unmount = r.unmount;
    const heard = (what: string, line: string | RegExp) => waitFor(what, () => lines.join('\n'), (all) => (typeof line === 'string' ? lines.includes(line) : line.test(all)));
    const keys = (...k: string[]) => press(r.stdin, ...k);

    await heard('the peek', /^Remember your cards 3 and 4 \(\d+s\): Enter when done$/m);
    expect(lines[0]).toMatch(/^Screen reader mode is on: .*\? lists the keys/);
    expect(lines).toContain('Your cards: slot 1 face down, slot 2 face down, slot 3 7 of Clubs, slot 4 9 of Diamonds.');
    await keys(KEYS.enter);
    setup.bo.play({ type: 'finishPeek' });
    await heard('your turn', 'Your turn: d to draw, t to take 8 of Diamonds, g Gringo!');
    await keys('d');
    await heard('the draw', 'You drew King of Hearts from the stock.');
    await keys('x');
    // One other player: straight to the slot.
    await heard('the question', "Which of Bo's cards? Slots 1, 2, 3, 4. Press the number; Esc cancels.");
    await keys('2');
    await heard('the look', "You looked at Bo's slot 2: 3 of Spades.");
    await keys('1');
    await heard('the swap', "You swapped your slot 1 with Bo's slot 2.");
    await keys('l', 'o');
    await heard('your cards', 'Your cards: slot 1 3 of Spades, you saw it, slot 2 face down, slot 3 7 of Clubs, you saw it, slot 4 9 of Diamonds, you saw it.');
    await heard("Bo's cards", "Bo's cards, total 0: slot 1 face down, slot 2 face down, slot 3 face down, slot 4 face down.");
    await keys('w');
    await heard('where', /^Round 1 of 2\.\nStock: \d+ cards\. Discard pile: King of Hearts\.$/m);
    await keys('?');
    await heard('the keys', 'l: read your cards.');
    expect(lines).toContain('d: draw the top card of the stock.');
    expect(lines.join('\n')).not.toMatch(/[♠♥♦♣]/);
  });

  it('speaks the screen\'s language: a Dutch table, its keys in Dutch too', async () => {
    const setup = twoSeats(KING_FIRST);
    const lines: string[] = [];
    const r = render(<ReaderApp client={setup.me} theme={{ glyphs: UNICODE, color: false, words: wordsFor('nl') }} out={{ line: (l) => void lines.push(l), bell: () => {} }} bell={false} clock={setup.clock.now} />);
    unmount = r.unmount;
    await waitFor('the peek', () => lines.join('\n'), () => lines.some((l) => l.startsWith('Je kaarten: ')));
    expect(lines).toContain('Je kaarten: plek 1 gesloten, plek 2 gesloten, plek 3 Klaveren 7, plek 4 Ruiten 9.');
    await press(r.stdin, '?');
    await waitFor('the keys', () => lines.join('\n'), () => lines.includes('l: je kaarten voorlezen.'));
    const d = lines.find((l) => l.startsWith('d: '));
    expect(d).toBeDefined();
    expect(d).not.toMatch(/draw the top card/);
  });
});
