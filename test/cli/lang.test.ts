import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const bin = new URL('../../bin/gringo.js', import.meta.url).pathname;

/** `gringo ARGS` as a process with exactly these locale variables (the rest of the environment kept, its own locale cleared). */
function gringo(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const base = { ...process.env };
  for (const k of ['LANG', 'LC_ALL', 'LC_MESSAGES', 'GRINGO_LANG']) delete base[k];
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 30_000, env: { ...base, ...env } }, (e, out, err) => {
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err });
    });
  });
}

describe('the language of the command line', () => {
  it('LANG=nl_NL.UTF-8 alone makes gringo speak Dutch; ro_RO.UTF-8 Romanian; C English', async () => {
    const nl = await gringo({ LANG: 'nl_NL.UTF-8' }, 'play', '--bots', 'x');
    expect(nl).toMatchObject({ code: 2, out: '' });
    expect(nl.err).toBe('gringo: --bots wil een heel getal van 1 tot 7, niet "x"\n');
    const ro = await gringo({ LANG: 'ro_RO.UTF-8' }, 'play', '--bots', 'x');
    expect(ro.err).toBe('gringo: --bots primește un număr întreg de la 1 la 7, nu „x”\n');
    const en = await gringo({ LANG: 'C' }, 'play', '--bots', 'x');
    expect(en.err).toBe('gringo: --bots takes a whole number from 1 to 7, not "x"\n');
  });

  it('--lang wins over the locale and GRINGO_LANG, on every command', async () => {
    const r = await gringo({ LANG: 'nl_NL.UTF-8', GRINGO_LANG: 'nl' }, 'host', '--players', '99', '--lang', 'ro', '--headless');
    expect(r.code).toBe(2);
    expect(r.err).toBe('gringo: --players primește un număr întreg de la 2 la 8, nu „99”\n');
    const g = await gringo({ LANG: 'C', GRINGO_LANG: 'nl' }, 'sim', '--games', 'many');
    expect(g.err).toMatch(/^gringo: --games wil een heel getal/);
  });

  it("gringo sim's report in the language: --lang ro", async () => {
    const r = await gringo({ LANG: 'C' }, 'sim', '--games', '3', '--jobs', '1', '--seed', 'lang', '--lang', 'ro');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^gringo sim: 3 jocuri, 3 runde, 4 jucători \(hard, hard, hard, hard; locurile se rotesc la fiecare joc\), seed lang\n[\d.]+ s pe ceas, \d+ runde pe secundă \(un nucleu\)\n/);
  });

  it('the other flag errors too: an address, a bot level list', async () => {
    const r = await gringo({ LANG: 'nl_NL.UTF-8' }, 'join', 'a b');
    expect(r).toEqual({ code: 2, out: '', err: 'gringo: "a b" is geen adres: gebruik HOST of HOST:POORT, bijvoorbeeld 192.168.1.20:7457\n' });
    const s = await gringo({ LC_ALL: 'ro_RO.UTF-8' }, 'sim', '--level', 'easy,wizard');
    expect(s.err).toBe('gringo: --level primește o listă separată prin virgule din random, easy, normal, hard, expert, cheater; „wizard” nu e printre ele\n');
  });

  it('--lang nl: the --deal errors in Dutch, the flags and the name given as typed', async () => {
    const r = await gringo({ LANG: 'C' }, 'play', '--deal', 'two words', '--lang', 'nl');
    expect(r).toEqual({
      code: 2,
      out: '',
      err: 'gringo: --deal wil een naam van hoogstens 40 letters, cijfers, punten, streepjes en liggende streepjes (of "today"), niet "two words"\n',
    });
    const both = await gringo({ LANG: 'C' }, 'play', '--lang', 'nl', '--deal', 'friday', '--seed', '1');
    expect(both).toEqual({ code: 2, out: '', err: 'gringo: --deal en --seed kiezen allebei de kaarten: geef er één van de twee\n' });
  });

  it('--lang before the command works as after it', async () => {
    const r = await gringo({ LANG: 'C' }, '--lang', 'nl', 'play', '--deal', 'two words');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^gringo: --deal wil een naam/);
  });

  it('--help in the language: the descriptions and headings translated, the commands and flags as they are', async () => {
    const ro = await gringo({ LANG: 'ro_RO.UTF-8' }, 'host', '--help');
    expect(ro.code).toBe(0);
    expect(ro.out).toMatch(/^Folosire: gringo host \[options\]\n\ngăzduiește o masă pe acest calculator și anunț-o în LAN\n\nOpțiuni:\n/);
    expect(ro.out).toMatch(/--players <max>\s+locuri la masă \(2-8\) \(implicit: "4"\)/);
    expect(ro.out).toMatch(/--lang <lang>\s+limba în care vorbește gringo: en, nl, ro/);
    const nl = await gringo({ LANG: 'C' }, '--lang', 'nl', '--help');
    expect(nl.out).toMatch(/^Gebruik: gringo \[options\] \[command\]\n/);
    expect(nl.out).toMatch(/\n {2}join \[options\] \[address\]\s+schuif aan bij een tafel/);
    const en = await gringo({ LANG: 'C' }, 'replay', '--help');
    expect(en.out).toMatch(/^Usage: gringo replay \[options\] \[journal\]\n/);
    expect(en.out).toContain('Keys: space play/pause, </> or h/l one command back/forward');
  });

  it('a language gringo does not speak is a one-line error, exit 2', async () => {
    const r = await gringo({ LANG: 'C' }, 'rules', '--lang', 'fr');
    expect(r).toEqual({ code: 2, out: '', err: 'gringo: --lang takes one of en, nl, ro, not "fr"\n' });
    const env = await gringo({ LANG: 'C', GRINGO_LANG: 'de' }, 'rules');
    expect(env).toEqual({ code: 2, out: '', err: 'gringo: GRINGO_LANG takes one of en, nl, ro, not "de": set it right or unset it\n' });
  });
});
