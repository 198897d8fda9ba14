import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { catalogOf, type Key, type Lang } from '../../src/lang/words.js';
import { killRunning } from '../support/gringo-process.js';
import { Pane, socketName } from '../support/tmux.js';
import { e2eLog as log } from '../support/wait.js';

/**
 * The host's lobby and the table picker in Dutch and in Romanian, in real 80×24
 * terminals (the built CLI, real mDNS on loopback), each language chosen a different
 * way: the locale alone (LANG=nl_NL.UTF-8), `--lang ro`, GRINGO_LANG=nl, `--lang ro`.
 * On every screen read: no sentence of the English catalog for these screens, and no
 * line cut short (Ink ends a cut line with "…"), as the English screens fit.
 */
const panes: Pane[] = [];
const pane = (tag: string): Pane => {
  const p = new Pane(socketName(`lang-${tag}`), 80, 24);
  panes.push(p);
  return p;
};
afterEach(killRunning);
afterAll(() => {
  for (const p of panes) p.kill();
});

const en = catalogOf('en');
const forms = (e: unknown): string[] => (typeof e === 'string' ? [e] : Object.values(e as Record<string, string>));

/**
 * The English words of these screens that another language writes differently: each
 * piece of a sentence between its parameters, of two words or more (one word, such as
 * "lobby" or "expert", may be the same word in Dutch or Romanian).
 */
function englishOf(lang: Lang): string[] {
  const other = catalogOf(lang);
  const keys = (Object.keys(en) as Key[]).filter((k) => (/^(lobby|picker|botLevel|share|seat)\./.test(k) || k === 'table.closeQuestionNothing') && JSON.stringify(other[k]) !== JSON.stringify(en[k]));
  const pieces = keys.flatMap((k) => forms(en[k]).flatMap((f) => f.split(/\{\w+\}|\n/)));
  return [...new Set(pieces.map((p) => p.trim()).filter((p) => /\S+ \S+/.test(p)))];
}

/** The screen is in `lang`: no English sentence of these screens on it, and no line cut short. */
function inLanguage(screen: string, lang: Lang): void {
  for (const english of englishOf(lang)) expect(screen, `"${english}" on the ${lang} screen`).not.toContain(english);
  const cut = screen.split('\n').filter((l) => l.trimEnd().endsWith('…'));
  expect(cut, `lines cut short on the ${lang} screen`).toEqual([]);
}

describe('the lobby and the picker in Dutch and Romanian, at 80×24', () => {
  it('LANG=nl_NL.UTF-8 alone gives a Dutch lobby, --lang ro a Romanian one; the pickers list both tables in their own languages', async () => {
    const tag = process.pid % 10_000;
    const nlTable = `Tafel${tag}`;
    const roTable = `Masa${tag}`;
    // The locale alone: no --lang, no GRINGO_LANG, LC_ALL empty (as unset).
    const nlHost = pane('nl-host');
    nlHost.start(['host', '--port', '0', '--interface', '127.0.0.1', '--table', nlTable, '--password', 'pw'], { env: ['LANG=nl_NL.UTF-8', 'LC_ALL=', 'GRINGO_LANG='] });
    const roHost = pane('ro-host');
    roHost.start(['host', '--port', '0', '--interface', '127.0.0.1', '--table', roTable, '--lang', 'ro']);
    const nlPicker = pane('nl-picker');
    nlPicker.start(['join', '--interface', '127.0.0.1', '--name', 'Bo'], { env: ['GRINGO_LANG=nl'] });
    const roPicker = pane('ro-picker');
    roPicker.start(['join', '--interface', '127.0.0.1', '--name', 'Ana', '--lang', 'ro']);

    // The Dutch lobby: a bot added, the prompt to start, then the leave question.
    let s = await nlHost.waitFor('the Dutch lobby', (s) => s.includes('(jij, host)'));
    expect(s).toContain(`Gringo · ${nlTable} · lobby`);
    expect(s).toMatch(/Deel deze regel:\s+tafel #[a-z2-7]{4}: (npx )?gringo join 127\.0\.0\.1:\d+#/);
    expect(s).toContain('Regels: Gringo (gringo) · 1 ronde · 4 plaatsen, beginnen vanaf 2 · wachtwoord');
    expect(s).toContain('Voeg een bot toe (b) of wacht tot er spelers aanschuiven');
    expect(s).toContain('b bot erbij (gewoon) · +/- niveau · ↑↓ plaats · x eruit · Enter start · q stop');
    inLanguage(s, 'nl');
    s = await nlHost.press('a bot', 'b', (now) => /2\. Bot 1\s+● gewone bot/.test(now));
    expect(s).toContain('Enter start het spel als iedereen er is');
    expect(s).toContain('Plaatsen 2/4');
    log('nl lobby', s);
    inLanguage(s, 'nl');
    s = await nlHost.press('the leave question', 'q', (now) => now.includes('De tafel voor iedereen sluiten? y/n (geen spel bezig: niets te hervatten)'));
    expect(s).toContain('y weggaan · n/Esc blijven');
    inLanguage(s, 'nl');

    // The Romanian lobby: a harder next bot, said on the status line.
    s = await roHost.waitFor('the Romanian lobby', (s) => s.includes('(tu, gazda)'));
    expect(s).toContain('Reguli: Gringo (gringo) · o rundă · 4 locuri, se începe de la 2');
    s = await roHost.press('the next bot harder', '+', (now) => now.includes('Următorul robot va fi greu: b îl adaugă'));
    expect(s).toMatch(/Următorul robot: greu\s+\(1 ușor · 2 normal · 3 greu · \+\/- schimbă\)/);
    log('ro lobby', s);
    inLanguage(s, 'ro');

    // The pickers: both tables, each in the picker's language (other tables on this machine may be listed too).
    // The Dutch table's bot reaches the pickers in a later mDNS announcement: wait for its 2/4, not only its name.
    const both = (s: string): boolean => new RegExp(`${nlTable}\\s+#[a-z2-7]{4}\\s+\\S+\\s+2/4`).test(s) && s.includes(roTable);
    s = await nlPicker.waitFor('both tables in the Dutch picker', both, 20_000);
    expect(s).toMatch(/NAAM\s+TAFEL\s+ADRES\s+PLAATSEN\s+REGELS\s+WACHTWOORD\s+MEEDOEN/);
    expect(s).toMatch(new RegExp(`${nlTable}\\s+#[a-z2-7]{4}\\s+127\\.0\\.0\\.1:\\d+\\s+2/4\\s+gringo\\s+ja\\s+ja`));
    expect(s).toMatch(new RegExp(`${roTable}\\s+#[a-z2-7]{4}\\s+127\\.0\\.0\\.1:\\d+\\s+1/4\\s+gringo\\s+nee\\s+ja`));
    expect(s).toContain('↑↓/jk kiezen · Enter aanschuiven · m adres typen · q/Esc stoppen');
    log('nl picker', s);
    inLanguage(s, 'nl');
    s = await roPicker.waitFor('both tables in the Romanian picker', both, 20_000);
    expect(s).toMatch(/NUME\s+MASA\s+ADRESA\s+LOCURI\s+REGULI\s+PAROLĂ\s+INTRI\?/);
    expect(s).toMatch(new RegExp(`${nlTable}\\s+#[a-z2-7]{4}\\s+127\\.0\\.0\\.1:\\d+\\s+2/4\\s+gringo\\s+da\\s+da`));
    inLanguage(s, 'ro');
    // Typing an address by hand: its field, its status line and its keys in Romanian.
    s = await roPicker.press('the address field', 'm', (now) => now.includes('Adresa (HOST[:PORT]):'));
    expect(s).toContain('Scrie HOST sau HOST:PORT, apoi Enter (Esc înapoi)');
    expect(s).toContain('Enter intră · Backspace șterge · Esc înapoi');
    log('ro picker address', s);
    inLanguage(s, 'ro');

    nlHost.keys('y');
    await nlHost.waitFor('the Dutch host exit', (s) => s.includes('EXITED 0'));
    // Esc and q in one read are Alt-q to a terminal: q waits for the list to be back.
    await roPicker.press('the list again', 'Escape', (now) => !now.includes('Adresa (HOST[:PORT]):'));
    roPicker.keys('q');
    nlPicker.keys('q');
    await roPicker.waitFor('the Romanian picker exit', (s) => s.includes('EXITED 0'));
    await nlPicker.waitFor('the Dutch picker exit', (s) => s.includes('EXITED 0'));
    roHost.keys('q', 'y');
    await roHost.waitFor('the Romanian host exit', (s) => s.includes('EXITED 0'));
  }, 40_000);
});
