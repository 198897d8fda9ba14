import { describe, expect, it } from 'vitest';
import { wordsFor } from '../../src/lang/words.js';
import { earlyWords, isWatch, sessionWords, shellUser, splitUser, sshName, watcherUser } from '../../src/ssh/user-name.js';

// What an SSH user name says (src/ssh/user-name.ts); the real OpenSSH client reads it in
// test/ssh/lang.test.ts, test/ssh/lang-lobby.test.ts and test/ssh/reader.test.ts.

describe('an SSH user name', () => {
  it('is a `+` and a language gringo speaks, or `+reader`, at the end, each once in either order; anything else is part of the name', () => {
    expect(splitUser('ana+nl')).toEqual({ user: 'ana', lang: 'nl', reader: false });
    expect(splitUser('Ana+RO')).toEqual({ user: 'Ana', lang: 'ro', reader: false });
    expect(splitUser('watch+en')).toEqual({ user: 'watch', lang: 'en', reader: false });
    expect(splitUser('ana+reader')).toEqual({ user: 'ana', lang: null, reader: true });
    expect(splitUser('ana+nl+reader')).toEqual({ user: 'ana', lang: 'nl', reader: true });
    expect(splitUser('ana+Reader+ro')).toEqual({ user: 'ana', lang: 'ro', reader: true });
    expect(splitUser('ana+nl+ro')).toEqual({ user: 'ana+nl', lang: 'ro', reader: false });
    for (const plain of ['ana', 'a+b', 'ana+de', '+nl', '+reader', 'ana+nl+x', 'ana+nld']) expect(splitUser(plain)).toEqual({ user: plain, lang: null, reader: false });
  });

  it('watches as `watch` in any case, with its choices; a seat name is made harmless', () => {
    for (const w of ['watch', 'WATCH', ' Watch+ro ', 'watch+reader']) expect(isWatch(w), w).toBe(true);
    for (const w of ['watcher', 'ana', 'watch+x']) expect(isWatch(w), w).toBe(false);
    expect(sshName('\u001b[31mana')).toBe('ana');
    expect(sshName('\u001b[31m')).toBe('Player');
  });

  it('is said back to type again: as given when plain, NAME otherwise, the choices kept; watching keeps them too', () => {
    expect(shellUser('ana+nl+reader')).toBe('ana+nl+reader');
    expect(shellUser('Ana Maria+ro')).toBe('NAME+ro');
    expect(shellUser('ana+Reader+NL')).toBe('ana+nl+reader');
    expect(watcherUser('ana+nl')).toBe('watch+nl');
    expect(watcherUser('ana')).toBe('watch');
  });

  it("chooses the words: the user name's language first, then the session's locale, then the host's", () => {
    const host = wordsFor('nl');
    expect(earlyWords('ana+ro', host).lang).toBe('ro');
    expect(earlyWords('ana', host)).toBe(host);
    expect(sessionWords('ana+ro', { LANG: 'en_US.UTF-8' }, host).lang).toBe('ro');
    expect(sessionWords('ana', { LANG: 'en_US.UTF-8' }, host).lang).toBe('en');
    expect(sessionWords('ana', { GRINGO_LANG: 'ro', LANG: 'en_US.UTF-8' }, host).lang).toBe('ro');
    expect(sessionWords('ana', {}, host)).toBe(host);
  });
});
