/**
 * The host keys the bot keeps for rebuilt nodes. A rebuilt node's new key is accepted by a person
 * in the rebuild's job; the mounted known_hosts (a secret the operators own) still holds the old
 * key until someone adds the new one, so without a kept pin every later job would be refused at
 * the node. Implemented by src/jobs (Redis, audited); faked in unit tests.
 */
export interface KeptHostKey {
  /** OpenSSH's `SHA256:` fingerprint of the accepted key. */
  readonly fingerprint: string;
  readonly keyType: string;
  /** The public key blob in base64, for the known_hosts line `status` asks the operators to add. */
  readonly publicKey: string;
  /** The job whose host-key acceptance this was, and who approved it. */
  readonly jobId: string;
  readonly approvedBy: readonly string[];
  readonly at: number;
}

export interface HostKeyPins {
  /** The cluster's kept keys, by node name (none: an empty record). */
  read(cluster: string): Promise<Readonly<Record<string, KeptHostKey>>>;
  /** Keeps `key` as the node's pin from now on, replacing an earlier one, and audits it. */
  keep(cluster: string, node: string, key: KeptHostKey): Promise<void>;
}
