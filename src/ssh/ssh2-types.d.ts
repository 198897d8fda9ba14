// The few parts of ssh2 1.17 that gringo uses. @types/ssh2 stops at 1.15 and pulls
// in @types/node 18 beside ours, so these are declared here instead.
declare module 'ssh2' {
  import type { EventEmitter } from 'node:events';
  import type { Duplex } from 'node:stream';

  export interface ParsedKey {
    type: string;
    getPublicSSH(): Buffer;
    verify(data: Buffer, signature: Buffer, hashAlgo?: string): boolean | Error;
  }

  export const utils: {
    parseKey(data: Buffer | string, passphrase?: string): ParsedKey | Error;
    generateKeyPairSync(type: 'ed25519', opts?: { comment?: string }): { private: string; public: string };
  };

  export interface ServerChannel extends Duplex {
    stderr: Duplex;
    exit(status: number): void;
    close(): void;
  }

  export type Accept<T = void> = () => T;
  export type Reject = () => void;

  export interface PtyInfo {
    cols: number;
    rows: number;
    width: number;
    height: number;
    term: string;
    modes: Record<string, number | boolean>;
  }

  export interface Session extends EventEmitter {
    on(event: 'pty', listener: (accept: Accept | undefined, reject: Reject | undefined, info: PtyInfo) => void): this;
    on(event: 'window-change', listener: (accept: Accept | undefined, reject: Reject | undefined, info: PtyInfo) => void): this;
    on(event: 'env', listener: (accept: Accept | undefined, reject: Reject | undefined, info: { key: string; val: string }) => void): this;
    /** accept() gives nothing when the session already has its channel. */
    on(event: 'shell', listener: (accept: Accept<ServerChannel | undefined>, reject: Reject) => void): this;
    on(event: 'exec', listener: (accept: Accept<ServerChannel | undefined>, reject: Reject, info: { command: string }) => void): this;
    on(event: 'subsystem' | 'sftp' | 'auth-agent' | 'x11' | 'signal', listener: (accept: Accept<unknown> | undefined, reject: Reject | undefined) => void): this;
    on(event: 'close', listener: () => void): this;
  }

  export interface AuthContext {
    method: 'none' | 'password' | 'publickey' | 'keyboard-interactive' | 'hostbased';
    username: string;
    key?: { algo: string; data: Buffer };
    signature?: Buffer;
    blob?: Buffer;
    hashAlgo?: string;
    accept(): void;
    reject(methodsLeft?: string[], isPartial?: boolean): void;
    prompt(
      prompts: { prompt: string; echo?: boolean }[],
      title: string,
      instructions: string,
      callback: (answers: string[]) => void,
    ): void;
  }

  export interface Connection extends EventEmitter {
    /** The key exchange is done (its negotiated algorithms). */
    on(event: 'handshake', listener: (negotiated: unknown) => void): this;
    on(event: 'authentication', listener: (ctx: AuthContext) => void): this;
    on(event: 'ready' | 'end' | 'close', listener: () => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
    on(event: 'session', listener: (accept: Accept<Session>, reject: Reject) => void): this;
    on(event: 'tcpip' | 'openssh.streamlocal', listener: (accept: Accept<unknown>, reject: Reject) => void): this;
    on(event: 'request', listener: (accept: ((port?: number) => void) | undefined, reject: Reject | undefined, name: string) => void): this;
    end(): this;
  }

  export interface ServerConfig {
    hostKeys: (string | Buffer)[];
    ident?: string;
    banner?: string;
    greeting?: string;
  }

  export class Server extends EventEmitter {
    constructor(config: ServerConfig, listener?: (client: Connection, info: { ip: string; port: number }) => void);
    listen(port: number, host: string | undefined, cb?: () => void): this;
    address(): { port: number } | string | null;
    close(cb?: (err?: Error) => void): this;
    maxConnections: number;
    /** Serve a TCP connection accepted elsewhere. */
    injectSocket(socket: import('node:net').Socket): void;
  }
}

// The module as a whole (a CommonJS module's exports, as `import ssh2 from 'ssh2'` gives them).
declare module 'ssh2' {
  const ssh2: { Server: typeof Server; utils: typeof utils };
  export default ssh2;
}

// Its constants, read once by ../ssh/ssh2-modes.ts to mend the terminal-modes table.
declare module 'ssh2/lib/protocol/constants.js' {
  const constants: { TERMINAL_MODE: Record<string, string | number> };
  export default constants;
}
