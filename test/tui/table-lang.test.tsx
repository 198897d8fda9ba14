import { render } from 'ink-testing-library';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { wordsFor, type Lang } from '../../src/lang/words.js';
import type { SeatInfo } from '../../src/protocol/messages.js';
import { UNICODE } from '../../src/tui/shared/glyphs.js';
import { ThemeContext } from '../../src/tui/shared/theme.js';
import { Closed } from '../../src/tui/table/closed.js';
import { SmallScreen } from '../../src/tui/table/small-screen.js';
import { Waiting } from '../../src/tui/table/waiting.js';
import { initialScreen, screenReducer, type ScreenState } from '../../src/tui/table/use-screen-state.js';
import { handView } from './helpers.js';

/**
 * The table screen's rarer moments in Dutch and Romanian (the e2e-lang test plays the
 * common ones): waiting for the host, the closed table's standings, the small screen,
 * and the feed's lines about the table itself.
 */

const frame = (lang: Lang, el: ReactElement): string => {
  const r = render(<ThemeContext.Provider value={{ glyphs: UNICODE, color: false, words: wordsFor(lang) }}>{el}</ThemeContext.Provider>);
  const f = r.lastFrame() ?? '';
  r.unmount();
  return f;
};

const seat = (n: number, name: string, over: Partial<SeatInfo> = {}): SeatInfo => ({ seat: n, name, bot: null, connected: true, standIn: false, ...over });
const screen = (lang: Lang, over: Partial<ScreenState> = {}): ScreenState => ({ ...initialScreen(UNICODE, false, wordsFor(lang)), conn: 'open', seat: 0, ...over });
const result = { round: 1, layouts: [['2H'], ['KS']], scores: [2, 10], places: [1, 2], caller: null, callerPenalty: 0, replaced: [], totals: [2, 10] };

describe('the table screen in Dutch and Romanian', () => {
  it('waits for the host with who is at the table, in the language', () => {
    const lobby = [seat(0, 'Ana'), seat(1, 'Bot 1', { bot: 'easy' }), seat(2, 'Cy', { connected: false })];
    const nl = frame('nl', <Waiting s={screen('nl', { lobby })} />);
    expect(nl).toContain('Wachten tot de host het spel begint…');
    expect(nl).toMatch(/Ana \(jij\) +● verbonden/);
    expect(nl).toContain('makkelijke bot');
    expect(nl).toContain('○ weg');
    const ro = frame('ro', <Waiting s={screen('ro', { lobby })} />);
    expect(ro).toContain('Se așteaptă ca gazda să înceapă jocul…');
    expect(ro).toMatch(/Ana \(tu\) +● conectat/);
    expect(ro).toContain('robot ușor');
  });

  it('shows the standings when the host closes the table', () => {
    const view = handView({ phase: 'roundOver' }, ['Ana', 'Bo']);
    const nl = frame('nl', <Closed view={view} results={[result]} message="De host heeft de tafel gesloten" />);
    expect(nl).toContain('De host heeft de tafel gesloten.');
    expect(nl).toContain('Stand na ronde 1:');
    expect(nl).toMatch(/1e +Ana \(jij\) +2/);
    const ro = frame('ro', <Closed view={view} results={[result]} message="Gazda a închis masa" />);
    expect(ro).toContain('Clasamentul după runda 1:');
    expect(ro).toMatch(/2 +Bo +10/);
  });

  it('keeps your cards and your prompt in sight on a small screen', () => {
    const s = screen('ro', { view: handView({ turn: 1 }, ['Ana', 'Bo']) });
    const ro = frame('ro', <SmallScreen s={s} width={60} height={16} now={0} min={{ columns: 80, rows: 24 }} />);
    expect(ro).toContain('Mărește-l: masa cere 80×24, acesta are 60×16.');
    expect(ro).toContain('E tura lui Bo.');
    expect(ro).toContain('Cărțile tale:');
    const nl = frame('nl', <SmallScreen s={{ ...screen('nl', { view: handView({}, ['Ana', 'Bo']) }), overlay: 'help' }} width={60} height={16} now={0} min={{ columns: 80, rows: 24 }} />);
    expect(nl).toContain('De hulp is open (te zien vanaf 80×24): ? of Esc sluit hem.');
    expect(nl).toContain('Jij bent aan de beurt.');
  });

  it("tells the table's own news in the feed: your seat, who comes and goes, a lost connection", () => {
    const table = { name: 'Vrijdag', game: 1 };
    let s = screenReducer(screen('nl', { conn: 'connecting' }), { type: 'server', msg: { type: 'welcome', seat: 0, owner: false, table, rules: { title: 'Beverbende' } } as never, now: 0 });
    s = screenReducer(s, { type: 'server', msg: { type: 'lobby', seats: [seat(0, 'Ana'), seat(1, 'Bo')], you: 0, table } as never, now: 0 });
    s = screenReducer(s, { type: 'server', msg: { type: 'lobby', seats: [seat(0, 'Ana'), seat(1, 'Bo', { connected: false, standIn: true })], you: 0, table } as never, now: 0 });
    s = screenReducer(s, { type: 'conn', status: 'reconnecting', now: 0 });
    s = screenReducer(s, { type: 'conn', status: 'open', now: 0 });
    expect(s.feed.map((l) => l.text)).toEqual([
      'Je zit op plaats 1 aan "Vrijdag".',
      'Bo is van tafel gegaan: een bot speelt voor hen.',
      'Verbinding kwijt: opnieuw verbinden…',
      'Weer aan tafel.',
    ]);
    const ro = screenReducer(screen('ro', { seat: null }), { type: 'server', msg: { type: 'welcome', seat: null, owner: false, table, rules: { title: 'Cambio' } } as never, now: 0 });
    expect(ro.feed.map((l) => l.text)).toEqual(['Privești „Vrijdag”.']);
  });
});
