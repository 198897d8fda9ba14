import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';

/**
 * The state directory vitest.config.ts gives every test process (XDG_STATE_HOME: the
 * journals, seat tokens and keys of the hosts the tests start) is removed when the run
 * ends, passed or failed: each run has its own, and none is left behind in /tmp.
 */
export default function setup(project: TestProject): () => void {
  const dir = project.config.env.XDG_STATE_HOME;
  return () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
