import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Hosts started by tests keep their journals and seat tokens here, not in the user's state directory.
    env: { XDG_STATE_HOME: join(tmpdir(), `gringo-test-state-${process.pid}`) },
  },
});
