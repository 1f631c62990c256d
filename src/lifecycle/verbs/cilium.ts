import { printable } from '../command/printable.js';
import { ciliumPlan } from '../plans/cilium-plan.js';
import { ciliumRollbackPlan } from '../plans/cilium-rollback-plan.js';
import { resumeFluxPlan } from '../plans/resume-flux-plan.js';
import type { ClusterTarget, VerbReading, VerbSpec } from './verb-spec.js';

/** A rollout of the repo's Cilium; or, by its mode, a rollback of the release or resuming Flux's HelmRelease. */
export interface CiliumCommand {
  readonly verb: 'cilium';
  readonly cluster: string;
  readonly mode?: CiliumMode | undefined;
}

/** `--rollback [revision]` (absent: the last good revision before the newest) or `--resume-flux`. */
export type CiliumMode =
  | { readonly kind: 'rollback'; readonly revision?: number | undefined }
  | { readonly kind: 'resume-flux' };

// A Helm revision number as helm prints it.
const REVISION = /^[1-9][0-9]{0,5}$/;

export const cilium: VerbSpec<CiliumCommand> = {
  verb: 'cilium',
  target: 'cluster',
  mutating: true,
  flags: ['--rollback', '--resume-flux'],
  help: [
    '`cilium <cluster>`: preflight, approved Cilium rollout watched agent by agent, verify (Flux suspended meanwhile)',
    '`cilium <cluster> --rollback [revision]`: approved helm rollback to the last good (or that) revision, watched agent by agent, verify',
    '`cilium <cluster> --resume-flux`: hand Cilium back to Flux after a failed job left its HelmRelease suspended',
  ],
  read: readCiliumMode,
  plan({ mode }, world, cluster) {
    if (mode?.kind === 'rollback') return ciliumRollbackPlan(cluster, mode.revision);
    if (mode?.kind === 'resume-flux') return resumeFluxPlan(cluster);
    return ciliumPlan(world, cluster);
  },
};

/**
 * `cilium <cluster> --rollback [revision]` or `--resume-flux`: the mode (none for a rollout), or why
 * the words are refused. A revision is a number after the cluster, and only with --rollback.
 */
function readCiliumMode(
  flags: readonly string[],
  words: readonly string[],
): VerbReading<ClusterTarget, CiliumCommand> | string {
  const mode = modeOf(flags, words);
  if (typeof mode === 'string') return mode;
  return {
    words: mode?.kind === 'rollback' && mode.revision !== undefined ? words.slice(0, -1) : words,
    command: ({ cluster }) => ({ verb: 'cilium', cluster, ...(mode ? { mode } : {}) }),
  };
}

function modeOf(flags: readonly string[], words: readonly string[]): CiliumMode | undefined | string {
  const rollback = flags.includes('--rollback');
  const resume = flags.includes('--resume-flux');
  if (rollback && resume) return '--rollback and --resume-flux are two different jobs: give one';
  if (resume) return { kind: 'resume-flux' };
  if (!rollback) return undefined;
  if (words.length !== 2) return { kind: 'rollback' };
  const revision = words[1]!;
  if (!REVISION.test(revision))
    return `--rollback takes a revision number from helm history, not "${printable(revision)}"`;
  return { kind: 'rollback', revision: Number(revision) };
}
