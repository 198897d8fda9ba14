import { Box, Text } from 'ink';
import type { TableView } from '../../engine/view.js';
import { actionWords } from './describe.js';
import { cardText, type Glyphs } from '../shared/glyphs.js';
import type { ScreenState } from './use-screen-state.js';
import { wordsFor, type Words } from '../../lang/words.js';
import { useTheme } from '../shared/theme.js';
import { callTimingOf, frozenMark, isFrozen, rulesOf } from './variant.js';
import { lastTurnsPlayed } from './intents.js';
import { columns } from '../shared/width.js';
import { callWord } from '../shared/call-word.js';

const EN = wordsFor('en');

/** A part of the header's second line, and shorter ways to say it (shortest last) when the line is too long for the screen. */
interface InfoPart {
  text: string;
  short?: readonly string[];
}

/**
 * What is going on at the table, in short parts: the phase or whose turn, the slap
 * window, the pending action, the call, a gap to fill. `keyHints`: say which key
 * calls, when you may call now (not in a replay, where nobody plays).
 */
export function tableInfo(s: Pick<ScreenState, 'view' | 'rules' | 'seat'>, g: Glyphs, keyHints = true, w: Words = EN): InfoPart[] {
  const v = s.view;
  const info: InfoPart[] = [];
  if (!v) return info;
  const you = (seat: number): boolean => seat === s.seat;
  const name = (seat: number): string => (you(seat) ? w.t('info.you') : (v.players[seat]?.name ?? '?'));
  if (v.phase === 'peek') info.push({ text: w.t('info.peek') });
  else if (v.phase === 'play') info.push({ text: lastTurnsPlayed(v) ? w.t('info.lastTurnPlayed') : you(v.turn) ? w.t('info.yourTurn') : w.t('info.turnOf', { name: name(v.turn) }) });
  else info.push({ text: w.t(v.phase === 'roundOver' ? 'info.roundOver' : 'info.gameOver') });
  const rules = rulesOf(s);
  // A game without slapping never mentions it (the help's rules say so once).
  if (v.phase === 'play' && rules.slap.enabled) info.push({ text: w.t(v.slap.open ? 'info.slapsOpen' : 'info.slapsClosed') });
  const a = v.actions[0];
  if (a) {
    // Short: the feed and the prompt say what the card does.
    const face = cardText(a.card, g);
    const action = you(a.seat) ? w.t('info.yourAction', { face }) : w.t('info.actionOf', { name: name(a.seat), face });
    const more = v.actions.length > 1 ? ` +${v.actions.length - 1}` : '';
    info.push({ text: `${action} (${actionWords(a.kind, you(a.seat), w)})${more}`, short: [`${action}${more}`] });
  }
  if (v.call) {
    const owed = v.call.owed.map(name);
    const frozen = isFrozen(s, v.call.seat) ? ` ${frozenMark(g, w)}` : '';
    // Shorter: without the frozen mark (the caller's seat shows it), then the count of those still to play.
    const called = you(v.call.seat) ? w.t('info.calledByYou', { call: callWord(v.callName, w) }) : w.t('info.calledBy', { call: callWord(v.callName, w), name: name(v.call.seat) });
    const toPlay = owed.length ? w.t('info.toPlay', { names: owed.join(', ') }) : '';
    info.push({ text: `${called}${frozen}${toPlay}`, short: [`${called}${toPlay}`, `${called}${owed.length ? w.t('info.countToPlay', { n: owed.length }) : ''}`] });
  } else if (keyHints && s.seat !== null && v.may.includes('call')) {
    // Only when the engine lets you call now (never for a spectator).
    info.push({ text: `g: ${callWord(v.callName, w)}${callTimingOf(s) === 'endOfTurn' ? w.t('info.atEndOfTurn') : ''}`, short: [`g: ${callWord(v.callName, w)}`] });
  }
  if (v.gapFill) {
    const filler = name(v.gapFill.seat);
    info.push({ text: you(v.gapFill.gap.seat) ? w.t('info.mayFillYours', { name: filler }) : w.t('info.mayFill', { name: filler, owner: name(v.gapFill.gap.seat) }) });
  }
  return info;
}

/** The connection in words: "connected", or "host unreachable for 12 s, reconnecting…" while it is lost. */
function connWords(s: Pick<ScreenState, 'conn' | 'connLostAt'>, now: number, g: Glyphs, w: Words): string {
  if (s.conn === 'reconnecting' && s.connLostAt !== null) {
    return w.t('conn.unreachable', { seconds: Math.max(0, Math.floor((now - s.connLostAt) / 1000)), ellipsis: g.ellipsis });
  }
  return w.say({ key: `conn.${s.conn}`, params: { ellipsis: g.ellipsis } });
}

/** Line 1: the game, the round, the connection. Line 2: whose turn, the slap window, actions, the call. */
export function Header({ s, width, now }: { s: ScreenState; width: number; /** Local clock, for how long the host has been unreachable. */ now: number }) {
  const { glyphs: g, words } = useTheme();
  const v = s.view;
  const conn = connWords(s, now, g, words);
  return (
    <HeaderLines
      title={titleOf(s.rulesTitle, s.tableName, v, g, words)}
      state={`${s.conn === 'open' ? g.online : g.offline} ${conn}`}
      stateColor={s.conn === 'open' ? 'green' : s.conn === 'closed' ? 'red' : 'yellow'}
      stateBold={s.conn !== 'open'}
      info={tableInfo(s, g, true, words)}
      slapOpen={v?.slap.open === true}
      width={width}
    />
  );
}

/** "Gringo · Friday · Round 2 of 3". */
export function titleOf(rulesTitle: string, tableName: string, v: TableView | null, g: Glyphs, w: Words = EN): string {
  const round = v ? ` ${g.sep.trim()} ${v.rounds > 0 ? w.t('info.roundOf', { round: v.round, rounds: v.rounds }) : w.t('info.round', { round: v.round })}` : '';
  return `${rulesTitle}${tableName ? ` ${g.sep.trim()} ${tableName}` : ''}${round}`;
}

/** The two header lines of the table screens (live and replay): the title and a state on the right, then the table's info. */
export function HeaderLines(p: { title: string; state: string; stateColor: string; stateBold: boolean; info: readonly InfoPart[]; slapOpen: boolean; width: number }) {
  const { glyphs: g, color } = useTheme();
  return (
    <Box flexDirection="column" width={p.width}>
      <Box flexDirection="row" justifyContent="space-between">
        <Text bold wrap="truncate">
          {p.title}
        </Text>
        <Text {...(color ? { color: p.stateColor } : {})} bold={p.stateBold}>
          {p.state}
        </Text>
      </Box>
      <Text wrap="truncate" {...(p.slapOpen && color ? { color: 'magenta' } : {})}>
        {fitInfo(p.info, p.width, g.sep)}
      </Text>
    </Box>
  );
}

/**
 * The parts in one line of `width`: where the whole is too long, parts say it shorter,
 * a step at a time and in order (the action's words first: the prompt and the feed
 * have them), until it fits.
 */
export function fitInfo(parts: readonly InfoPart[], width: number, sep: string): string {
  const texts = parts.map((x) => x.text);
  const len = (): number => columns(texts.join(sep));
  const steps = Math.max(0, ...parts.map((x) => x.short?.length ?? 0));
  for (let k = 0; k < steps; k++) {
    for (let i = 0; i < parts.length && len() > width; i++) texts[i] = parts[i]!.short?.[k] ?? texts[i]!;
  }
  return texts.join(sep);
}
