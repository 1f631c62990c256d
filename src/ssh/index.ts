export { createSshRemoteShell, type SshRemoteShellOptions } from './create-ssh-remote-shell.js';
export { fingerprintOfKey } from './fingerprint-of-key.js';
export { findKnownHostKeys, type KnownHostKey } from './known-hosts.js';
export { quoteShellArgument } from './quote-shell-argument.js';
export type { ReadFile } from './read-file.js';
export type { SshLogger } from './ssh-logger.js';
