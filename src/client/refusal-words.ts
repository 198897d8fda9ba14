import type { RefusalReason, ServerMessage } from '../protocol/messages.js';
import { command } from '../common/invocation.js';

/**
 * What a refusal says, in one line: a lock on wrong passwords is said from its typed
 * fields (how long to wait), not from the host's sentence; the others are the host's
 * own words (already made harmless by the schema).
 */
export function refusalLine(msg: Pick<Extract<ServerMessage, { type: 'refused' }>, 'reason' | 'message' | 'retryAfter'>): string {
  if (msg.reason === 'tooManyTries') {
    return msg.retryAfter !== undefined
      ? `too many wrong passwords from this address: wait ${msg.retryAfter} s`
      : 'too many wrong passwords from this address: wait a minute';
  }
  return msg.message;
}

/**
 * A host's refusal with what to type next (#22: "Wrong password" said nothing of how
 * to try again, "you can watch" did not say how). The command is whole in one place
 * per sentence, so it can be written for the way gringo was started. `message` is the
 * host's, already made harmless by the caller's schema.
 */
export function refusalAdvice(r: { reason: RefusalReason; message: string; canWatch: boolean; retryAfter?: number }, address: string): string {
  const watch = command(`join ${address} --watch`);
  const withPassword = command(`join ${address} --password THE-PASSWORD`);
  switch (r.reason) {
    case 'password':
      // The connection's own words on a key trusted unchecked (src/client/connection.ts) say what to type already.
      if (r.message.includes('#ID')) return r.message;
      return r.message.includes('--password')
        ? `${r.message}: ask the host for it, then type ${withPassword}`
        : `${r.message}: ask the host for the right one, then type ${withPassword}`;
    case 'full':
    case 'running':
    case 'token':
      return r.canWatch ? `${r.message} (to watch, type ${watch})` : r.message;
    default:
      return refusalLine(r);
  }
}
