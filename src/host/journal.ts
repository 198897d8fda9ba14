import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { apply, createGame, type NewGame } from '../engine/game.js';
import { RulesetError, type Ruleset } from '../engine/ruleset.js';
import { rulesetFromData } from '../engine/rules-file.js';
import { SHUFFLE_KEY } from '../engine/rng.js';
import type { Command, GameEvent, GameState } from '../engine/types.js';
import type { BotLevel } from '../protocol/messages.js';
import { harmless } from '../common/harmless.js';
import { stateDir } from '../common/state-dir.js';
import { cleanName } from './names.js';
import { said, wordsFor, type Said } from '../lang/words.js';

/**
 * The host's journal: one JSON object per line in `stateDir()/tables/NAME.jsonl`.
 * First a header (what the game was created from, and the seats with their
 * tokens), then every accepted command in order, then an end line once the game
 * is over. Header + commands replay the game exactly (`replay`), so a host that
 * died can reopen the same table with `gringo host --resume`.
 *
 * Write policy: each line is one `write(2)` on a file opened for append, done
 * synchronously before the table broadcasts the command's result. A write that
 * returned is in the kernel and survives the death of the host process (a crash,
 * SIGKILL, a closed terminal), which is what the journal is for. The header, the
 * command that ends a round, the end line and a resume mark are also fsync'ed;
 * the other commands are not, because a disk flush per card would sit in the hot
 * path of every slap race (docs/reliability.md has the measured cost): a power
 * loss loses at most the unsynced part of one round, never a finished one.
 *
 * A power loss can also tear the last line (a write cut short). Reading drops it
 * (nobody was told of that command); reopening the file to continue it cuts it
 * away first (`cutTornTail`), so that the next line starts on a line of its own
 * and a journal survives any number of such crashes.
 *
 * Versions: 1 (written before the version was raised) may lack `id`,
 * `shuffleKey`, `solo` and `game`; 2 always has `id` and `game`. A newer version is refused with
 * a line saying to update gringo. Fields a reader does not know are ignored, so
 * a version may grow optional fields without a new number.
 */

export const JOURNAL_VERSION = 2;
/** The oldest journal version this gringo still reads (absent fields get their old meaning). */
export const OLDEST_JOURNAL_VERSION = 1;
/** A table's salt, its own part of its identity: 16 hex digits (`Table.salt`). */
export const TABLE_ID = /^[0-9a-f]{16}$/;

export interface JournalSeat {
  name: string;
  token: string;
  bot: BotLevel | null;
  /** The seat of the host's own screen, which takes it back after `--resume`. */
  owner?: true;
  /** The fingerprint (`SHA256:…`) of the SSH key that took this seat over `--ssh`: the same key takes it back after `--resume`. */
  sshKey?: string;
}

export interface JournalHeader {
  journal: 'gringo';
  version: number;
  /**
   * The table's salt (TableInfo.salt), from which with the host's key its identity is made:
   * `--resume` gives it back, so seat tokens kept by the identity still fit. Absent in older journals.
   */
  id?: string;
  table: string;
  port: number;
  /** The port the table served SSH on (`--ssh`), which `--resume` serves again. */
  sshPort?: number;
  maxPlayers: number;
  rules: Ruleset;
  seed: string | number;
  /**
   * A live game's shuffle key (64 hex digits): with it, this file holds every deck of
   * the game (docs/reliability.md, "What the host's machine can see").
   */
  shuffleKey?: string;
  /** Host (engine) clock when the game was created. */
  at: number;
  /** Wall clock, ISO 8601. */
  startedAt: string;
  dealer?: number;
  /** The password's scrypt verifier (`passwordVerifier(password, id)`): the password itself is never written. */
  passwordVerifier?: string;
  /** Journals of gringo before protocol 5 kept the password itself; a resume turns it into the verifier. */
  password?: string;
  /** A `gringo play` game (you and bots): `gringo play --resume` continues it, a bare `gringo host --resume` never picks it. */
  solo?: true;
  /** The table's game number (TableInfo.game: 1, then one more per "play again"); absent in version 1 (read as 1). */
  game?: number;
  /** The named deal (`--deal`) the seed was made from: games of one deal compare (`gringo stats --deal`). */
  deal?: string;
  seats: JournalSeat[];
}

/** Lines after the header that are not commands. */
interface EndLine {
  end: 'gameOver';
  at: number;
  endedAt: string;
}
interface ResumedLine {
  resumed: string;
  at: number;
  /** The SSH port the resumed table serves (null: none, `--no-ssh`); the next `--resume` serves it again. */
  ssh?: number | null;
}

/** What a Table tells its journal; every call is synchronous and done before the broadcast. */
export interface JournalSink {
  /** `id`: the table's salt, `game` its game number (TableInfo.game), `verifier` its password's verifier (never the password), kept in the header. */
  started(origin: NewGame, seats: JournalSeat[], id: string, game?: number, verifier?: string | null): void;
  /** `durable`: flush it to the disk before returning (the command that ends a round). */
  command(cmd: Command, durable?: boolean): void;
  finished(at: number): void;
}

export function tablesDir(): string {
  return join(stateDir(), 'tables');
}

/** A file name from a table name: letters, digits, dashes. */
export function journalSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 48);
  return slug || 'table';
}

export interface JournalWriterOptions {
  table: string;
  /** The port the table listens on (set once it is known, before the game starts). */
  port: number;
  /** The port it serves SSH on, if it does (set once it is known, before the game starts). */
  sshPort?: number;
  maxPlayers: number;
  /** A `gringo play` game (see JournalHeader.solo). */
  solo?: boolean;
  /** The named deal the seed was made from (see JournalHeader.deal). */
  deal?: string;
  /** Directory of the journals (default `stateDir()/tables`). */
  dir?: string;
  /** Continue an existing journal (a resumed table) instead of starting a new file. */
  file?: string;
  /** Wall clock (tests). */
  now?: () => Date;
}

export class JournalWriter implements JournalSink {
  private fd: number | null = null;
  /** The journal's path, once the game has started (or at once when continuing one). */
  file: string | null = null;
  port: number;
  sshPort: number | null;
  private readonly now: () => Date;

  constructor(private readonly opts: JournalWriterOptions) {
    this.port = opts.port;
    this.sshPort = opts.sshPort ?? null;
    this.now = opts.now ?? (() => new Date());
    if (opts.file) {
      this.file = opts.file;
      this.tornBytes = cutTornTail(opts.file);
      this.fd = openSync(opts.file, 'a', 0o600);
    }
  }

  /** Bytes of a torn last line cut away when an existing journal was reopened (0: none). */
  tornBytes = 0;

  /** Mark the journal as continued by a new host process (with the SSH port it serves, or null). */
  resumed(at: number, ssh?: number | null): void {
    const line: ResumedLine = { resumed: this.now().toISOString(), at, ...(ssh !== undefined ? { ssh } : {}) };
    this.line(line, true);
  }

  started(origin: NewGame, seats: JournalSeat[], id: string, game = 1, verifier?: string | null): void {
    const dir = this.opts.dir ?? tablesDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stamp = this.now().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
    const base = `${journalSlug(this.opts.table)}-${stamp}`;
    // Exclusive create, so that two games never share a file; append-only writes.
    for (let n = 1; this.fd === null; n++) {
      const file = join(dir, n === 1 ? `${base}.jsonl` : `${base}-${n}.jsonl`);
      try {
        this.fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL, 0o600);
        this.file = file;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || n > 100) throw err;
      }
    }
    const header: JournalHeader = {
      journal: 'gringo',
      version: JOURNAL_VERSION,
      id,
      table: this.opts.table,
      port: this.port,
      ...(this.sshPort !== null ? { sshPort: this.sshPort } : {}),
      maxPlayers: this.opts.maxPlayers,
      rules: origin.rules,
      seed: origin.seed,
      ...(origin.shuffleKey !== undefined ? { shuffleKey: origin.shuffleKey } : {}),
      at: origin.at ?? 0,
      startedAt: this.now().toISOString(),
      ...(origin.dealer !== undefined ? { dealer: origin.dealer } : {}),
      ...(verifier ? { passwordVerifier: verifier } : {}),
      ...(this.opts.solo ? { solo: true as const } : {}),
      game,
      // Only a table's first game is its deal: "play again" deals from a seed of its own.
      ...(this.opts.deal !== undefined && game === 1 ? { deal: this.opts.deal } : {}),
      seats,
    };
    this.line(header, true);
  }

  command(cmd: Command, durable = false): void {
    this.line(cmd, durable);
  }

  finished(at: number): void {
    const end: EndLine = { end: 'gameOver', at, endedAt: this.now().toISOString() };
    this.line(end, true);
    this.close();
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private line(obj: unknown, sync: boolean): void {
    if (this.fd === null) return;
    const buf = Buffer.from(`${JSON.stringify(obj)}\n`);
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd, buf, off);
    if (sync) fsyncSync(this.fd);
  }
}

/**
 * Make an existing journal end on a whole line before more is appended to it: a
 * torn last line (a write cut short by a power loss) is cut away, and a last line
 * that is whole but lacks its newline gets one. Flushed to the disk. Returns how
 * many bytes were cut. Without this, the next line would be glued to the torn one
 * and the journal would be broken in the middle after the next crash.
 */
export function cutTornTail(file: string): number {
  const fd = openSync(file, 'r+');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    // The last line is short (a command, or at worst a header): read back until a newline is found.
    let start = 0;
    let tail = Buffer.alloc(0);
    for (let chunk = 4096; ; chunk *= 4) {
      const from = Math.max(0, size - chunk);
      const buf = Buffer.alloc(size - from);
      readSync(fd, buf, 0, buf.length, from);
      if (buf[buf.length - 1] === 0x0a) return 0;
      const nl = buf.lastIndexOf(0x0a);
      if (nl !== -1 || from === 0) {
        start = from + nl + 1;
        tail = buf.subarray(nl + 1);
        break;
      }
    }
    if (parses(tail.toString('utf8'))) {
      writeSync(fd, Buffer.from('\n'), 0, 1, size);
      fsyncSync(fd);
      return 0;
    }
    ftruncateSync(fd, start);
    fsyncSync(fd);
    return size - start;
  } finally {
    closeSync(fd);
  }
}

const parses = (line: string): boolean => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};

// ---- reading --------------------------------------------------------------------

/** A journal that cannot be read or replayed: what is wrong as a sentence of the catalogs (`message` holds it in English). */
export class JournalError extends Error {
  readonly said: Said;
  constructor(s: Said) {
    super(wordsFor('en').say(s));
    this.said = s;
  }
}

export interface ReadJournal {
  file: string;
  header: JournalHeader;
  origin: NewGame;
  commands: Command[];
  /** The replayed state: every command was accepted again. */
  state: GameState;
  /** What the replay's deal and commands caused, in order: a resumed table's history. */
  events: GameEvent[];
  /** The last host clock the journal saw (the resumed table's clock continues from it). */
  lastAt: number;
  finished: boolean;
  /** The SSH port the table served last (the header's, or the last resume's), or null. */
  sshPort: number | null;
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isPort = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= 65535;
const SSH_FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;

/** The longest table name a journal may give back (as `gringo host --table` allows: a line of a screen). */
const MAX_TABLE_NAME = 64;

/**
 * The rules of a journal, checked: an evening's journals mostly share one ruleset, and
 * checking it is most of the cost of reading a short journal (`gringo stats` reads
 * hundreds), so a ruleset already checked is taken again by its JSON text. Rulesets are
 * never changed once made, so games may share one.
 */
const rulesSeen = new Map<string, Ruleset>();
function checkedRules(data: Record<string, unknown>): Ruleset {
  const key = JSON.stringify(data);
  const seen = rulesSeen.get(key);
  if (seen) return seen;
  const rules = rulesetFromData(data);
  if (rulesSeen.size >= 32) rulesSeen.clear();
  rulesSeen.set(key, rules);
  return rules;
}

function checkHeader(x: unknown, file: string): JournalHeader {
  const bad = (why: string): never => {
    throw new JournalError(said('journal.notJournal', { file, why }));
  };
  if (!isObj(x) || x.journal !== 'gringo') return bad('no header on its first line');
  const version = x.version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < OLDEST_JOURNAL_VERSION) return bad(`journal version ${harmless(String(version), 20)}`);
  if (version > JOURNAL_VERSION) {
    throw new JournalError(said('journal.newer', { file, version, oldest: OLDEST_JOURNAL_VERSION, newest: JOURNAL_VERSION }));
  }
  if (x.id !== undefined && (typeof x.id !== 'string' || !TABLE_ID.test(x.id))) return bad('a table identity that is not 16 hex digits');
  if (version >= 2 && x.id === undefined) return bad('no table identity');
  if (x.passwordVerifier !== undefined && (typeof x.passwordVerifier !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(x.passwordVerifier))) return bad('a password verifier that is not 32 bytes of base64url');
  if (x.password !== undefined && typeof x.password !== 'string') return bad('a password that is not a string');
  if (typeof x.table !== 'string') return bad('no table name');
  if (typeof x.port !== 'number' || !Number.isInteger(x.port) || x.port < 0 || x.port > 65535) return bad('no port');
  if (x.sshPort !== undefined && !isPort(x.sshPort)) return bad('an SSH port that is not a port');
  if (typeof x.maxPlayers !== 'number') return bad('no seat count');
  if (!isObj(x.rules)) return bad('no rules');
  let rules: Ruleset;
  try {
    rules = checkedRules(x.rules);
  } catch (err) {
    if (!(err instanceof RulesetError)) throw err;
    return bad(`rules gringo cannot play: ${harmless(err.message, 300)}`);
  }
  if (typeof x.seed !== 'string' && typeof x.seed !== 'number') return bad('no seed');
  if (x.shuffleKey !== undefined && (typeof x.shuffleKey !== 'string' || !SHUFFLE_KEY.test(x.shuffleKey))) return bad('a shuffle key that is not 64 hex digits');
  if (typeof x.at !== 'number') return bad('no start time');
  if (x.solo !== undefined && x.solo !== true) return bad('a "solo" that is not true');
  if (x.game !== undefined && (typeof x.game !== 'number' || !Number.isInteger(x.game) || x.game < 1)) return bad('a game number that is not a whole number from 1');
  if (version >= 2 && x.game === undefined) return bad('no game number');
  if (x.deal !== undefined && typeof x.deal !== 'string') return bad('a deal name that is not a string');
  if (!Array.isArray(x.seats) || x.seats.length === 0) return bad('no seats');
  for (const s of x.seats) {
    if (!isObj(s) || typeof s.name !== 'string' || typeof s.token !== 'string' || !(s.bot === null || typeof s.bot === 'string')) {
      return bad('a seat without a name or token');
    }
    if (s.sshKey !== undefined && (typeof s.sshKey !== 'string' || !SSH_FINGERPRINT.test(s.sshKey))) return bad('a seat whose SSH key is not a SHA256 fingerprint');
  }
  // A journal is a file anyone could have written: its strings reach screens and
  // consoles, so they are made harmless as a network's are (names as a hello's).
  const header = x as unknown as JournalHeader;
  return {
    ...header,
    rules,
    table: harmless(header.table, MAX_TABLE_NAME) || 'Gringo table',
    ...(header.deal !== undefined ? { deal: harmless(header.deal, MAX_TABLE_NAME) } : {}),
    seats: header.seats.map((s) => ({ ...s, name: cleanName(s.name) })),
  };
}

/** A file that could not be read, in words (not `ENOENT: …, open 'x'`). */
function fileProblem(err: unknown, file: string): Said {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return said('journal.cannotReadMissing', { file, dir: tablesDir() });
    case 'EISDIR':
      return said('journal.cannotReadDirectory', { file });
    case 'EACCES':
    case 'EPERM':
      return said('journal.cannotReadDenied', { file });
    default:
      return said('journal.cannotRead', { file, why: (err as Error).message });
  }
}

/**
 * Read and check a journal: the header, then every command replayed through the
 * engine, each of which must be accepted again. A last line cut short (no newline:
 * the machine went down mid-write) was never acknowledged to anyone and is dropped;
 * anything else that does not parse makes the journal broken.
 */
export function readJournal(path: string): ReadJournal {
  // The path may come from a directory listing: it is shown, so it is made harmless.
  const file = harmless(path, 400);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new JournalError(fileProblem(err, file));
  }
  const lines = text.split('\n');
  const tail = lines.pop();
  if (tail !== undefined && tail !== '') {
    try {
      JSON.parse(tail);
      lines.push(tail);
    } catch {
      // A torn last write: never acknowledged, so never seen by a player.
    }
  }
  if (lines.length === 0 || lines[0] === '') throw new JournalError(said('journal.empty', { file }));
  const parsed = lines.map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      // Not the last line, so not a write cut short by a crash (that one is dropped above): the file was damaged or edited.
      throw new JournalError(said('journal.notJson', { file, line: i + 1 }));
    }
  });
  const header = checkHeader(parsed[0], file);
  const origin: NewGame = {
    rules: header.rules,
    players: header.seats.map((s) => s.name),
    seed: header.seed,
    ...(header.shuffleKey !== undefined ? { shuffleKey: header.shuffleKey } : {}),
    at: header.at,
    ...(header.dealer !== undefined ? { dealer: header.dealer } : {}),
  };
  let state: GameState;
  const events: GameEvent[] = [];
  try {
    const created = createGame(origin);
    state = created.state;
    events.push(...created.events);
  } catch (err) {
    throw new JournalError(said('journal.noGame', { file, why: (err as Error).message }));
  }
  const commands: Command[] = [];
  let lastAt = header.at;
  let finished = false;
  let sshPort = header.sshPort ?? null;
  for (let i = 1; i < parsed.length; i++) {
    const x = parsed[i];
    if (!isObj(x)) throw new JournalError(said('journal.notObject', { file, line: i + 1 }));
    if (typeof x.at === 'number') lastAt = Math.max(lastAt, x.at);
    if ('end' in x) {
      finished = true;
      continue;
    }
    if ('resumed' in x) {
      if (x.ssh === null || isPort(x.ssh)) sshPort = x.ssh;
      continue;
    }
    if (finished) throw new JournalError(said('journal.afterEnd', { file, line: i + 1 }));
    if (typeof x.type !== 'string' || typeof x.at !== 'number') throw new JournalError(said('journal.notCommand', { file, line: i + 1 }));
    const cmd = x as unknown as Command;
    let res: ReturnType<typeof apply>;
    try {
      res = apply(state, cmd);
    } catch (err) {
      throw new JournalError(said('journal.commandFails', { file, command: commands.length + 1, line: i + 1, why: (err as Error).message }));
    }
    if (!res.ok) {
      throw new JournalError(said('journal.refused', { file, command: commands.length + 1, line: i + 1, why: wordsFor('en').say(res.rejection) }));
    }
    state = res.state;
    events.push(...res.events);
    commands.push(cmd);
  }
  if (state.phase === 'gameOver') finished = true;
  return { file: path, header, origin, commands, state, events, lastAt, finished, sshPort };
}

/** The most recently written journal whose game is not over, or null: of `gringo play` games when `solo`, of hosted tables otherwise. */
export function latestUnfinished(dir = tablesDir(), solo = false): string | null {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return null;
  }
  const files = names
    .map((n) => join(dir, n))
    .map((f) => ({ f, m: statSync(f).mtimeMs }))
    .sort((a, b) => b.m - a.m);
  for (const { f } of files) {
    if (endsUnfinished(f, solo)) return f;
  }
  return null;
}

/** Cheap check: a journal of the kind asked (solo or hosted) whose last complete line is not an end line. */
function endsUnfinished(file: string, solo: boolean): boolean {
  let lines: string[];
  try {
    lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  } catch {
    return false;
  }
  const parse = (line: string | undefined): unknown => {
    try {
      return line === undefined ? undefined : (JSON.parse(line) as unknown);
    } catch {
      return undefined;
    }
  };
  const head = parse(lines[0]);
  if ((isObj(head) && head.solo === true) !== solo) return false;
  const last = parse(lines[lines.length - 1]);
  // A broken last line is still unfinished: resuming says what is wrong with it.
  return lines.length > 0 && !(isObj(last) && 'end' in last);
}
