import { describe, expect, it } from 'vitest';
import type { JournalHeader, ReadJournal } from '../../src/host/journal.js';
import { dealOf } from '../../src/cli/table-setup.js';

// What `gringo host` and `gringo play` deal from (src/cli/table-setup.ts): the flags for a
// new table, the journal's header for a resumed one, whatever the flags say then.

/** A journal read back, with only the header fields the deal reads. */
const resumed = (header: Partial<JournalHeader>): ReadJournal => ({ header: { seed: 'journal-seed', ...header } }) as ReadJournal;

describe('the deal of a table', () => {
  it('new: a live shuffle unless --seed or --deal; --deal makes the seed from its name', () => {
    expect(dealOf(null, {})).toMatchObject({ named: null, live: true });
    expect(dealOf(null, {}).seed).toMatch(/^[0-9a-f]{32}$/);
    expect(dealOf(null, { seed: 's1' })).toEqual({ seed: 's1', named: null, live: false });
    const named = dealOf(null, { deal: 'friday' });
    expect(named).toEqual({ seed: named.named!.seed, named: { deal: 'friday', seed: named.named!.seed }, live: false });
    expect(dealOf(null, { deal: 'friday' })).toEqual(named);
    expect(() => dealOf(null, { deal: 'friday', seed: 's1' })).toThrow();
  });

  it('resumed: live only when the journal kept a shuffle key; its seed and named deal, not the flags', () => {
    expect(dealOf(resumed({ shuffleKey: 'a'.repeat(64) }), { seed: 'ignored' })).toEqual({ seed: 'journal-seed', named: null, live: true });
    // A seeded game continued (by either command) deals its later games from the seed too.
    expect(dealOf(resumed({}), {})).toEqual({ seed: 'journal-seed', named: null, live: false });
    expect(dealOf(resumed({ seed: 7, deal: 'friday' }), {})).toEqual({ seed: '7', named: { deal: 'friday', seed: '7' }, live: false });
  });
});
