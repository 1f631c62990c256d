/** What ssh2 1.x can negotiate; anything else in known_hosts (security keys, certificates) is left out. */
const SUPPORTED = new Set([
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'rsa-sha2-512',
  'rsa-sha2-256',
  'ssh-rsa',
  'ssh-dss',
]);

/**
 * Host key algorithms to offer first, from the key types known_hosts holds for the host. Like OpenSSH,
 * this keeps a server that also has a key type we did not record (say ed25519 when we pinned its RSA
 * key) from presenting that one, which would look exactly like a changed key.
 */
export function preferredHostKeyAlgorithms(keyTypes: readonly string[]): string[] {
  const algorithms = keyTypes.flatMap((keyType) =>
    keyType === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [keyType],
  );
  return [...new Set(algorithms)].filter((algorithm) => SUPPORTED.has(algorithm));
}
