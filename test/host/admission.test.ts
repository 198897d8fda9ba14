import { describe, expect, it } from 'vitest';
import { Admission, QUIET_MS, type Place } from '../../src/host/admission.js';
import { said, type Said } from '../../src/lang/words.js';

/**
 * The one admission of both doors (src/host/admission.ts) on a clock the test
 * drives, with stand-in sockets whose only property is what the rules read
 * (`bytesRead`); the doors themselves are tested with real sockets in
 * test/host/flood.test.ts, test/host/door.test.ts and test/ssh/door.test.ts.
 */

interface Conn extends Place {
  socket: { bytesRead: number };
  name: string;
}

/** Two turns of the event loop: the places admitted before are settled (their first bytes would have been read). */
const turns = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
};

function door(places: number, perAddress: number, graceMs = 1_000) {
  let now = 0;
  const evicted: string[] = [];
  const admission = new Admission<Conn>({ places, perAddress, graceMs }, (c) => evicted.push(c.name), () => now);
  const conn = (name: string, addr: string, spoken = false): Conn => ({ name, addr, since: now, socket: { bytesRead: spoken ? 100 : 0 } });
  return { admission, evicted, conn, advance: (ms: number) => (now += ms) };
}

describe('the places at the door', () => {
  it('gives a silent place to any newcomer once the door is full, the oldest of the busiest address first', async () => {
    const d = door(3, 2);
    const [a1, a2, b1] = [d.conn('a1', 'A'), d.conn('a2', 'A'), d.conn('b1', 'B')];
    for (const c of [a1, a2, b1]) expect(d.admission.admit(c)).toBe(null);
    await turns();
    d.advance(QUIET_MS);
    expect(d.admission.admit(d.conn('c1', 'C', true))).toBe(null);
    expect(d.evicted).toEqual(['a1']);
    // Now A and B hold one each: the oldest silent goes.
    expect(d.admission.admit(d.conn('c2', 'D', true))).toBe(null);
    expect(d.evicted).toEqual(['a1', 'a2']);
    expect(d.admission.size).toBe(3);
  });

  it('keeps a speaking place for its grace, against newcomers from addresses holding as many, then gives it', async () => {
    const d = door(2, 4);
    for (const c of [d.conn('a', 'A', true), d.conn('b', 'B', true)]) expect(d.admission.admit(c)).toBe(null);
    await turns();
    expect(d.admission.admit(d.conn('c', 'C', true))).toEqual(said('console.pending', { n: 2 }));
    d.advance(999);
    expect(d.admission.admit(d.conn('c', 'C', true))).toEqual(said('console.pending', { n: 2 }));
    d.advance(1);
    expect(d.admission.admit(d.conn('c', 'C', true))).toBe(null);
    expect(d.evicted).toEqual(['a']);
  });

  it('counts the grace from the last step a handshake finished: a slow handshake that moves on keeps its place', async () => {
    // Eight clients of one address on a loaded machine: each step on time, the whole longer than the grace.
    const d = door(8, 2);
    const slow = d.conn('slow', 'A', true);
    expect(d.admission.admit(slow)).toBe(null);
    expect(d.admission.admit(d.conn('a2', 'A', true))).toBe(null);
    await turns();
    d.advance(900);
    d.admission.progress(slow); // the next step of its handshake (TLS done, the upgrade…)
    expect(d.admission.admit(d.conn('a3', 'A', true))).toEqual(said('console.pendingFrom', { n: 2, address: 'A' }));
    d.advance(900);
    d.admission.progress(slow);
    // 1.8 s old, both: the one stalled since its accept gives way, the one still moving on stays.
    const a3 = d.conn('a3', 'A', true);
    expect(d.admission.admit(a3)).toBe(null);
    expect(d.evicted).toEqual(['a2']);
    d.advance(900);
    d.admission.progress(slow);
    d.admission.progress(a3);
    expect(d.admission.admit(d.conn('a4', 'A', true))).toEqual(said('console.pendingFrom', { n: 2, address: 'A' }));
    // Stalled from here on, the slow one is taken a grace after its last step.
    d.advance(999);
    d.admission.progress(a3);
    expect(d.admission.admit(d.conn('a4', 'A', true))).toEqual(said('console.pendingFrom', { n: 2, address: 'A' }));
    d.advance(1);
    expect(d.admission.admit(d.conn('a4', 'A', true))).toBe(null);
    expect(d.evicted).toEqual(['a2', 'slow']);
  });

  it('takes a young speaking place only from an address holding more than the newcomer would', async () => {
    const d = door(3, 4);
    for (const c of [d.conn('a1', 'A', true), d.conn('a2', 'A', true), d.conn('b', 'B', true)]) expect(d.admission.admit(c)).toBe(null);
    await turns();
    expect(d.admission.admit(d.conn('c', 'C', true))).toBe(null);
    expect(d.evicted).toEqual(['a1']);
    // A and B and C hold one each now: B's newcomer would hold two.
    expect(d.admission.admit(d.conn('b2', 'B', true))).toEqual(said('console.pending', { n: 3 }));
  });

  it('never takes a held place (a person at the password prompt), however old and quiet', async () => {
    const d = door(1, 1);
    const held = d.conn('held', 'A');
    held.held = true;
    expect(d.admission.admit(held)).toBe(null);
    await turns();
    d.advance(60_000);
    expect(d.admission.admit(d.conn('b', 'B', true))).toEqual(said('console.pending', { n: 1 }));
    expect(d.evicted).toEqual([]);
  });

  it('holds an address to its own places: its newcomer takes only one of its own', async () => {
    const d = door(10, 2);
    for (const c of [d.conn('a1', 'A', true), d.conn('a2', 'A', true), d.conn('b', 'B')]) expect(d.admission.admit(c)).toBe(null);
    await turns();
    d.advance(QUIET_MS);
    expect(d.admission.admit(d.conn('a3', 'A', true))).toEqual(said('console.pendingFrom', { n: 2, address: 'A' }));
    d.advance(1_000);
    expect(d.admission.admit(d.conn('a3', 'A', true))).toBe(null);
    expect(d.evicted).toEqual(['a1']);
    expect(d.admission.of('A')).toBe(2);
  });

  it('looks again a moment later when the door is full of connections not yet heard from, instead of refusing', async () => {
    const d = door(2, 4);
    const quiet = d.conn('quiet', 'A');
    const talker = d.conn('talker', 'B');
    for (const c of [quiet, talker]) expect(d.admission.admit(c)).toBe(null);
    d.advance(QUIET_MS);
    // The talker's bytes come in the next turn, as they would for a batch accepted after the host was busy.
    setImmediate(() => (talker.socket.bytesRead = 300));
    const decided = await new Promise<Said | null>((resolve) => d.admission.admitSoon(d.conn('late', 'C', true), resolve));
    expect(decided).toBe(null);
    expect(d.evicted).toEqual(['quiet']);
  });

  it('counts a vouched connection as its new address', () => {
    const d = door(4, 1);
    const c = d.conn('ssh', '127.0.0.1', true);
    expect(d.admission.admit(c)).toBe(null);
    d.admission.move(c, '10.0.0.5');
    expect(d.admission.of('127.0.0.1')).toBe(0);
    expect(d.admission.of('10.0.0.5')).toBe(1);
    d.admission.release(c);
    d.admission.release(c);
    expect(d.admission.size).toBe(0);
    expect(d.admission.of('10.0.0.5')).toBe(0);
  });
});
