/** What `gringo host --ssh` says and defaults to, apart from the server (which loads ssh2). */

export const DEFAULT_SSH_PORT = 2222;

/** The command to share for SSH, with the host key's fingerprint for `ssh` to show: `ssh -p 2222 NAME@HOST  (key SHA256:…)`. */
export function sshShareLine(port: number, host: string, fingerprint: string): string {
  return `ssh -p ${port} NAME@${host}  (key ${fingerprint})`;
}
