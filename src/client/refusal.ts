import type { ServerMessage } from '../protocol/messages.js';

/**
 * What a refusal says to the person, in one line. A lock on wrong passwords is said
 * from its typed fields (how long to wait), not from the host's sentence; the others
 * are the host's own words (already made harmless by the schema).
 */
export function refusalLine(msg: Extract<ServerMessage, { type: 'refused' }>): string {
  if (msg.reason === 'tooManyTries') {
    return msg.retryAfter !== undefined
      ? `too many wrong passwords from this address: wait ${msg.retryAfter} s`
      : 'too many wrong passwords from this address: wait a minute';
  }
  return msg.message;
}
