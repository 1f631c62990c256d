import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Absolute path of a file given relative to the repository root. */
export function repoPath(relative: string): string {
  return `${REPO_ROOT}${relative}`;
}
