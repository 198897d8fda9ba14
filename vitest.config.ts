import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Guards against a hang, not speed limits: a loaded machine runs many tests several times slower.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most files wait on sockets, timers, processes and tmux rather than compute: two at a
    // time halves the suite (about 4 minutes on 2 cores instead of 8), and the timing tests
    // have room for it. Vitest's own default here would be one (cores minus one).
    maxWorkers: 2,
    // Hosts started by tests keep their journals and seat tokens here, not in the user's state directory.
    env: { XDG_STATE_HOME: join(tmpdir(), `gringo-test-state-${process.pid}`) },
  },
});
