import { createHash } from 'node:crypto';

/** An approval covers exactly this commit and this argv; anything else has another fingerprint. */
export function bindingFingerprint(commit: string | undefined, argv: readonly string[]): string {
  return createHash('sha256')
    .update(`${commit ?? 'no-commit'}\0${argv.join('\0')}`)
    .digest('hex')
    .slice(0, 16);
}
