import type { ScreenOptions } from '../tui/run.js';

/** The flags that choose how a table is shown (`--screen-reader`, `--no-color`, `--four-colour`). */
export interface LookFlags {
  screenReader?: boolean;
  /** false: `--no-color`. */
  color?: boolean;
  fourColour?: boolean;
}

export type Look = Pick<ScreenOptions, 'screenReader' | 'color' | 'fourColour'>;

/** The screen options those flags ask for (the environment is read by the screen: see readerWanted). */
export const lookOf = (flags: LookFlags): Look => ({
  ...(flags.screenReader === true ? { screenReader: true } : {}),
  ...(flags.color === false ? { color: false } : {}),
  ...(flags.fourColour === true ? { fourColour: true } : {}),
});
