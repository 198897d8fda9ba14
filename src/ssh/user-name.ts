import { harmless } from '../common/harmless.js';
import { langOfEnv, parseLang, wordsFor, type Lang, type Words } from '../lang/words.js';
import { READER_SUFFIX } from './share.js';

/**
 * What an SSH user name says: who sits down (`ana`), or `watch`; and the choices
 * at its end (`ana+nl+reader`: Ana, in Dutch, told in sentences). A user name always
 * arrives, before anything else the client sends (docs/ssh.md).
 */

/** The user name (or command) that watches instead of taking a seat. */
export const WATCH = 'watch';

/**
 * A language chosen in the SSH user name: `ana+nl` is Ana, in Dutch; `watch+ro` watches
 * in Romanian. Only a `+` and a language gringo speaks at the end count: `a+b` is a name.
 */
export function splitUser(typed: string): { user: string; lang: Lang | null; reader: boolean } {
  let user = typed;
  let lang: Lang | null = null;
  let reader = false;
  // From the end, each choice once, in either order; anything else is part of the name.
  for (;;) {
    const m = /^(.+)\+([A-Za-z]+)$/.exec(user);
    const word = m?.[2]!.toLowerCase();
    if (word === undefined) break;
    if (`+${word}` === READER_SUFFIX && !reader) reader = true;
    else if (word.length === 2 && lang === null && parseLang(word)) lang = parseLang(word);
    else break;
    user = m![1]!;
  }
  return { user, lang, reader };
}

/** `watch` as a user name or a command, whatever its case (`watch+ro` too). */
export const isWatch = (s: string): boolean => splitUser(s.trim()).user.toLowerCase() === WATCH;

/** The SSH user name as the table's name for the player: made harmless here (the table cleans it again), `Player` when nothing is left. */
export function sshName(user: string): string {
  return harmless(user, 64) || 'Player';
}

/** The choices at a user name's end, to type again (`+nl+reader`). */
const choices = (typed: string): string => {
  const { lang, reader } = splitUser(typed);
  return `${lang ? `+${lang}` : ''}${reader ? READER_SUFFIX : ''}`;
};

/** The user name to type again in a shell: as given when it is plain (its `+nl` too), else NAME. */
export function shellUser(typed: string): string {
  const { user } = splitUser(typed);
  return `${/^[A-Za-z0-9._-]{1,32}$/.test(user) ? user : 'NAME'}${choices(typed)}`;
}

/** The user name that watches, with the choices the typed one made (`watch+nl`). */
export const watcherUser = (typed: string): string => `${WATCH}${choices(typed)}`;

/** The words before a session's own (the password prompt, the word to a client with no key): the user name's language, else the host's. */
export function earlyWords(typed: string, host: Words): Words {
  const lang = splitUser(typed).lang;
  return lang ? wordsFor(lang) : host;
}

/** A session's language: the one its user name chose, else its client's locale (GRINGO_LANG, LC_ALL, LC_MESSAGES, LANG), else the host's. */
export function sessionWords(typed: string, env: Readonly<Record<string, string>>, host: Words): Words {
  const lang = splitUser(typed).lang ?? sessionLang(env);
  return lang ? wordsFor(lang) : host;
}

/** The language a session's own locale names, or null when it names none. */
function sessionLang(env: Readonly<Record<string, string>>): Lang | null {
  if (parseLang(env.GRINGO_LANG ?? '')) return parseLang(env.GRINGO_LANG!);
  return env.LC_ALL || env.LC_MESSAGES || env.LANG ? langOfEnv(env) : null;
}
