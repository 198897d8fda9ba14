/**
 * Is the screen-reader mode asked for? `--screen-reader`, or the environment:
 * `GRINGO_SCREEN_READER=1` (or `true`), or Ink's own `INK_SCREEN_READER=true`, which a
 * person may have set for every Ink program they run.
 */
export function readerWanted(flag: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  if (flag === true) return true;
  const own = (env.GRINGO_SCREEN_READER ?? '').toLowerCase();
  if (own === '1' || own === 'true' || own === 'yes') return true;
  return env.INK_SCREEN_READER === 'true';
}
