export {
  createSshRemoteShell,
  type SshRemoteShell,
  type SshRemoteShellOptions,
} from './create-ssh-remote-shell.js';
export { fingerprintOfKey } from './fingerprint-of-key.js';
export type { ReadFile } from './read-file.js';
export type { SshLogger } from './ssh-logger.js';
