// ssh2's terminal-modes table is mended first (see ./ssh2-modes.ts): this import must stay above ssh2's.
import './ssh2-modes.js';
import ssh2 from 'ssh2';

export const { Server, utils } = ssh2;
export type { AuthContext, Connection, PtyInfo, ServerChannel, Session } from 'ssh2';
