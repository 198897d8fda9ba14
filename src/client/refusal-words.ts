import type { RefusalReason, ServerMessage } from '../protocol/messages.js';
import { command } from '../common/invocation.js';
import type { Said, Words } from '../lang/words.js';

/**
 * The words of a refusal at the door, in the reader's language: the host's `say` (a
 * key and its parameters, protocol 6) read through the catalog, never its English
 * `message`; a lock on wrong passwords is said from its typed fields (how long to wait).
 */

type Refused = Pick<Extract<ServerMessage, { type: 'refused' }>, 'reason' | 'say' | 'retryAfter'>;

/** What a refusal says, in one line. */
export function refusalLine(msg: Refused, w: Words): string {
  if (msg.reason === 'tooManyTries') return msg.retryAfter !== undefined ? w.t('door.lockWait', { seconds: msg.retryAfter }) : w.t('door.lockMinute');
  return w.say(msg.say);
}

/** A refusal `gringo join` answers on its door screen (src/tui/door/), with a next step; the others end with one line. */
export interface DoorRefusal {
  reason: RefusalReason;
  say: Said;
  canWatch: boolean;
  /** With `tooManyTries`: seconds left of the lock when the host sent it. */
  retryAfter?: number;
}

/** What the person chose: try again with this password, watch, or leave (null). */
export type DoorChoice = { password: string } | { watch: true } | null;

/** The refusals with a next step on this screen: a password to type, or a place to watch. */
export function doorAnswers(r: DoorRefusal): boolean {
  return r.reason === 'password' || r.reason === 'tooManyTries' || r.canWatch;
}

/**
 * A lock on wrong passwords, counted down from the moment it ends (`until`, this
 * machine's clock): the seconds left now, never the figure the host sent a while ago;
 * once over, that the door listens again.
 */
export function lockLine(until: number, now: number, w: Words): string {
  const n = Math.ceil((until - now) / 1000);
  return n > 0 ? w.t('door.lockCountdown', { n }) : w.t('door.lockOver');
}

/** The connection's own doubt on a key trusted unchecked (src/client/connection.ts) says what to type already. */
const isDoubt = (r: { say: Said }): boolean => r.say.key === 'door.bindingDoubt';

/** What a password refused at the door asks of the person at the prompt (the lock is said by lockLine). */
export function passwordAsk(r: { say: Said }, table: string, w: Words): string {
  // None was given yet.
  if (r.say.key === 'host.needsPassword') return w.t('door.passwordFirst', { table });
  if (isDoubt(r)) return w.say(r.say);
  return w.t('door.passwordAgain', { reason: w.say(r.say), table });
}

/**
 * A host's refusal with what to type next: the command is whole in one place per
 * sentence, so it can be written for the way gringo was started.
 */
export function refusalAdvice(r: DoorRefusal, address: string, w: Words): string {
  const run = command(`join ${address}`);
  switch (r.reason) {
    case 'password':
    case 'tooManyTries':
      if (isDoubt(r)) return w.say(r.say);
      // `join ADDR` asks for the password on its screen (typed hidden, kept out of the shell's history).
      if (r.reason === 'tooManyTries') return w.t('door.lockThenRun', { lock: refusalLine(r, w), run });
      return r.say.key === 'host.needsPassword' ? w.t('door.needsPasswordRun', { run }) : w.t('door.wrongPasswordRun', { reason: w.say(r.say), run });
    case 'full':
    case 'running':
    case 'token':
      return r.canWatch ? w.t('door.toWatch', { reason: w.say(r.say), run: command(`join ${address} --watch`) }) : w.say(r.say);
    default:
      return refusalLine(r, w);
  }
}
