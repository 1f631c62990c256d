import type { SshTarget } from '../../src/lifecycle/ports/remote-shell.js';
import type { SshdLab } from '../lab/sshd.js';

/** A target for one of the lab's addresses, pinned to the lab's known_hosts unless overridden. */
export function labTarget(lab: SshdLab, overrides: Partial<SshTarget> = {}): SshTarget {
  return {
    label: 'lab-node',
    host: lab.addresses[0] ?? '127.0.0.1',
    port: lab.port,
    user: lab.user,
    privateKeyPath: lab.clientKeyPath,
    hostKey: { knownHostsPath: lab.knownHostsPath },
    ...overrides,
  };
}
