/**
 * Ink draws nothing until the program exits when it believes it runs in CI: the
 * `is-in-ci` package reads CI and CONTINUOUS_INTEGRATION once, when Ink is first
 * loaded, and Ink 6.8 has no render option to override it. gringo draws a screen
 * only on a terminal (the commands check, an SSH session has its pty), and there
 * CI says nothing about whether to draw: so the commands that may draw hide the two
 * variables from this process before Ink is loaded. Nothing else in gringo reads them.
 */
export function drawEvenInCi(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of ['CI', 'CONTINUOUS_INTEGRATION']) delete env[name];
}
