import { groupVarsFile } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import type { Precondition } from './precondition.js';

/** The runbook's deliberate BLOCKED devices: a full baseline would hand them to mkfs. */
export const noBlockedPlaceholders: Precondition = {
  label: 'no BLOCKED disks',
  async check(ctx, repo) {
    const file = groupVarsFile(repo.hostGroup);
    const text = await readRepoText(ctx, file);
    if (text === undefined) return [];
    const lines = text
      .split('\n')
      .map((line, index) => ({ line: line.trim(), number: index + 1 }))
      .filter(({ line }) => line.includes('BLOCKED') && !line.startsWith('#'));
    if (lines.length === 0) return [];
    const s = lines.length > 1 ? 's' : '';
    return [
      `${file} still has ${lines.length} BLOCKED placeholder${s} (disk layout decision): line${s} ${lines.map((l) => l.number).join(', ')}`,
    ];
  },
};
