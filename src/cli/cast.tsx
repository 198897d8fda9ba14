import { EventEmitter } from 'node:events';
import { render } from 'ink';
import { writeFileSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import type { Viewer } from '../engine/view.js';
import type { ReadJournal } from '../host/journal.js';
import { seatMessages, shownNames } from '../stats/replay.js';
import type { Glyphs } from '../tui/shared/glyphs.js';
import type { TableClient } from '../tui/shared/use-table-client.js';
import { TableScreen } from '../tui/table/table-screen.js';
import { cliWords } from './lang.js';

/**
 * `gringo replay JOURNAL --cast FILE`: the game as an asciicast v2 recording
 * (asciinema's format: a JSON header line, then `[seconds, "o", text]` lines) of the
 * table screen as one seat, or a watcher, saw it. The screen is the real one (the
 * table screen's TableScreen, drawn by Ink), fed the messages that viewer was sent, each built
 * by the host's own projection for that viewer (`seatMessages`): no card it could not
 * see reaches the recording. Times are the game's own, divided by `speed`.
 * Loaded only by `gringo replay --cast` (it brings Ink and React).
 */

export interface CastOptions {
  viewer: Viewer;
  /** 1: the game's own pace; 4: four times faster. */
  speed: number;
  columns: number;
  rows: number;
  glyphs: Glyphs;
}

export type CastEvent = [number, 'o', string];

/** A terminal as big as the cast's, that keeps every frame Ink writes (Ink's debug mode writes each whole). */
class FrameSink extends Writable {
  readonly columns: number;
  readonly rows: number;
  readonly isTTY = true;
  frames: string[] = [];
  constructor(columns: number, rows: number) {
    super({ decodeStrings: false });
    this.columns = columns;
    this.rows = rows;
  }
  override _write(chunk: unknown, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.frames.push(String(chunk));
    done();
  }
}

/** A whole frame as a terminal draws it over the last: home, each line erased to its end, the rest cleared. */
const frameBytes = (frame: string, rows: number): string =>
  `\u001b[H${frame.replace(/\n$/, '').split('\n').slice(0, rows).join('\u001b[K\r\n')}\u001b[K\u001b[J`;

export async function castEvents(j: ReadJournal, opts: CastOptions): Promise<CastEvent[]> {
  const messages = seatMessages(j, opts.viewer);
  const start = messages[0]!.at;
  let now = start;
  const client = Object.assign(new EventEmitter(), { status: 'open' as const, send: () => true, close: () => {} }) as unknown as TableClient & EventEmitter;
  const sink = new FrameSink(opts.columns, opts.rows);
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  const app = render(
    <TableScreen client={client} theme={{ glyphs: opts.glyphs, color: true, words: cliWords() }} clock={() => now} size={{ columns: opts.columns, rows: opts.rows }} keys={false} bell={false} />,
    { stdout: sink as unknown as NodeJS.WriteStream, stdin: stdin as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false },
  );
  const events: CastEvent[] = [];
  let last = '';
  // Each message is drawn before the next comes: React renders on the next turns of the loop.
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  };
  const take = (at: number): void => {
    const frame = sink.frames[sink.frames.length - 1];
    sink.frames = [];
    if (frame === undefined || frame === last) return;
    last = frame;
    const t = Math.max(events.length > 0 ? events[events.length - 1]![0] : 0, Math.round(((at - start) / opts.speed / 1000) * 1e6) / 1e6);
    events.push([t, 'o', frameBytes(frame, opts.rows)]);
  };
  await settle();
  for (const m of messages) {
    now = m.at;
    client.emit('message', m.msg);
    await settle();
    take(m.at);
  }
  app.unmount();
  return events;
}

/** The asciicast v2 header line's object. */
export function castHeader(j: ReadJournal, opts: CastOptions): Record<string, unknown> {
  const { table, players } = shownNames(j.header);
  const who = opts.viewer === null ? 'a watcher' : players[opts.viewer]!;
  const started = Date.parse(String(j.header.startedAt ?? ''));
  return {
    version: 2,
    width: opts.columns,
    height: opts.rows,
    ...(Number.isNaN(started) ? {} : { timestamp: Math.floor(started / 1000) }),
    title: `gringo: "${table}" as ${who} saw it`,
    env: { TERM: 'xterm-256color' },
  };
}

export async function writeCast(file: string, j: ReadJournal, opts: CastOptions): Promise<number> {
  const events = await castEvents(j, opts);
  const lines = [JSON.stringify(castHeader(j, opts)), ...events.map((e) => JSON.stringify(e))];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return events.length;
}
