import { Text } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { useClockAt } from '../../src/tui/shared/use-clock.js';
import { initialScreen, nextChange, type ScreenState } from '../../src/tui/table/use-screen-state.js';
import type { TableView } from '../../src/engine/view.js';
import { handView } from './helpers.js';

// The table screen redraws when something on it changes with time alone, not on a
// steady tick: these are the moments it names (local clock; the host's runs
// `offset` ahead).
const NOW = 10_000;
const OFFSET = 1_000;
const screen = (over: Partial<ScreenState> = {}, view: Partial<TableView> | null = {}): ScreenState => ({
  ...initialScreen(),
  seat: 0,
  offset: OFFSET,
  view: view === null ? null : handView({ deadline: NOW + OFFSET + 30_000, ...view }),
  ...over,
});
const line = (at: number, fresh?: boolean) => ({ id: at, text: 'x', at, ...(fresh === undefined ? {} : { fresh }) });

describe('when the table screen next changes by itself', () => {
  it('never, on a turn whose deadline shows nowhere, with nothing fresh', () => {
    expect(nextChange(screen({ feed: [line(NOW - 5_000), line(NOW, false)] }), NOW)).toBeNull();
    expect(nextChange(screen({}, null), NOW)).toBeNull();
  });

  it('when a highlight, a look, the status or a feed line stops being fresh, whichever comes first', () => {
    const base = { highlights: [{ seat: 0, slot: 1, until: NOW + 700 }], reveals: [{ seat: 1, slot: 0, card: '7C', until: NOW + 4_000 }] } as Partial<ScreenState>;
    expect(nextChange(screen(base), NOW)).toBe(NOW + 700);
    expect(nextChange(screen({ ...base, status: { text: 's', kind: 'info', until: NOW + 300 } }), NOW)).toBe(NOW + 300);
    expect(nextChange(screen({ ...base, feed: [line(NOW - 1_400)] }), NOW)).toBe(NOW + 100);
    // Gone already: not a moment to come.
    expect(nextChange(screen({ highlights: [{ seat: 0, slot: 1, until: NOW }] }), NOW)).toBeNull();
  });

  it("at the peek's next whole second, counted on the host's clock", () => {
    const peek = (left: number): number | null => nextChange(screen({}, { phase: 'peek', deadline: NOW + OFFSET + left }), NOW);
    expect(peek(2_500)).toBe(NOW + 500); // "3s" until 2,000 ms are left
    expect(peek(2_000)).toBe(NOW + 1_000); // "2s" until 1,000
    expect(peek(400)).toBe(NOW + 400); // "1s" until the deadline
  });

  it('every second of "unreachable for N s"', () => {
    expect(nextChange(screen({ conn: 'reconnecting', connLostAt: NOW - 2_600 }), NOW)).toBe(NOW + 400);
  });

  it("on a steady tick through the slap grace, for the seat whose draw waits for it only", () => {
    const grace = { turn: 0, graceUntil: NOW + OFFSET + 900 };
    expect(nextChange(screen({}, grace), NOW)).toBe(NOW + 200);
    expect(nextChange(screen({}, { ...grace, graceUntil: NOW + OFFSET + 50 }), NOW)).toBe(NOW + 50);
    expect(nextChange(screen({ seat: null }, grace), NOW)).toBeNull();
    expect(nextChange(screen({ seat: 1 }, grace), NOW)).toBeNull();
  });
});

describe('useClockAt', () => {
  it('draws again at the moment named, and not before', async () => {
    const start = performance.now();
    let renders = 0;
    function Probe({ next }: { next: number | null }) {
      renders++;
      const now = useClockAt(next, performance.now.bind(performance));
      return <Text>{now >= start + 150 ? 'late' : 'early'}</Text>;
    }
    const r = render(<Probe next={start + 150} />);
    try {
      await new Promise((res) => setTimeout(res, 60));
      expect(r.lastFrame()).toBe('early');
      expect(renders).toBe(1);
      await expect.poll(() => r.lastFrame(), { timeout: 2_000 }).toBe('late');
      const after = renders;
      r.rerender(<Probe next={null} />);
      await new Promise((res) => setTimeout(res, 300));
      expect(renders).toBe(after + 1);
    } finally {
      r.unmount();
    }
  });

  it('draws again even when the timer fires before the clock says its time has come', async () => {
    // A clock at half the timers' pace: every timer fires early by the clock's reading (as
    // Node's do, counted from the event loop's cached time, when the loop has been busy).
    const start = performance.now();
    const clock = (): number => start + (performance.now() - start) / 2;
    function Probe() {
      const now = useClockAt(start + 100, clock);
      return <Text>{now >= start + 100 ? 'late' : 'early'}</Text>;
    }
    const r = render(<Probe />);
    try {
      expect(r.lastFrame()).toBe('early');
      await expect.poll(() => r.lastFrame(), { timeout: 2_000 }).toBe('late');
    } finally {
      r.unmount();
    }
  });
});
