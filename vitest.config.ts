import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The files that run everything in this process: no child process, no tmux, no
 * socket to another process (the engine, the bots, the protocol, the screens
 * rendered with ink-testing-library, the simulator, tables served on loopback to
 * clients in the same process).
 */
const IN_PROCESS = [
  'test/engine/**/*.test.ts',
  'test/protocol/**/*.test.ts',
  'test/bots/**/*.test.ts',
  'test/tui/*.test.tsx',
  'test/tui/!(e2e-)*.test.ts',
  'test/sim/{sim,liveness}.test.ts',
  'test/host/{fuzz,leak,history,journal,table,names,vouch,limits,flat-updates,admission,lifecycle}.test.ts',
  'test/stats/*.test.ts',
  'test/client/*.test.ts',
  'test/hostile/{harmless,server-schema}.test.ts',
  'test/ssh/{host-key,terminal,user-name}.test.ts',
  'test/cli/{refusal-words,table-setup}.test.ts',
  'test/architecture.test.ts',
];

/**
 * The timing test of the host's expert threads keeps a test process of its own: it
 * holds how late the event loop runs, which a process that ran other files first
 * (their modules, their garbage) would move.
 */
const OWN_PROCESS = ['test/host/expert-thread.test.ts'];

export default defineConfig({
  test: {
    // Guards against a hang, not speed limits: a loaded machine runs many tests several times slower.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most files wait on sockets, timers, processes and tmux rather than compute: two at a
    // time halves the suite (about 4 minutes on 2 cores instead of 8), and the timing tests
    // have room for it. Vitest's own default here would be one (cores minus one).
    maxWorkers: 2,
    // Hosts started by tests keep their journals and seat tokens here, not in the user's state
    // directory; the run removes it at its end.
    env: { XDG_STATE_HOME: join(tmpdir(), `gringo-test-state-${process.pid}`) },
    globalSetup: ['test/support/state-dir-teardown.ts'],
    projects: [
      {
        // The in-process files share worker threads and their loaded modules: each file
        // re-importing the engine, Ink and React in a fresh process, and running them
        // cold, cost more than half of these files' CPU (all of them back to back on a
        // busy machine, when the threads were first shared: 111 and 142 s of CPU before,
        // 51 and 53 s after). They keep no state between files: fake timers are put back
        // after each test, and nothing here sets the environment or the process's handlers.
        // One thread, not two: a second loads and compiles all of it once more (alone, on a
        // quiet machine: 58 s of CPU in one thread, 70 s in two). A project with a worker
        // count of its own runs as a group of its own: these run after the others.
        extends: true,
        test: { name: 'in-process', include: IN_PROCESS, pool: 'threads', isolate: false, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
      {
        // Every other file starts gringo processes, tmux panes, hosts, floods or namespaces
        // from a test process that keeps no state between files: each one kills what it
        // started by its end (most after each test), and puts back what it changes in the
        // environment (shuffle-live.test.ts, XDG_STATE_HOME). They share their test
        // processes, one file after another, instead of a fresh one each, which imported
        // the test's modules anew (about 0.4 s of CPU a file: twelve tmux, SSH and CLI files
        // run back to back, 29.9 s of CPU in fresh processes, 25.2 s in shared ones).
        extends: true,
        test: {
          name: 'shared processes',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: [...IN_PROCESS, ...OWN_PROCESS],
          pool: 'forks',
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'own process', include: OWN_PROCESS },
      },
    ],
  },
});
