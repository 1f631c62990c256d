/** A validated request to change or check a cluster. Every name in it is one from the config. */
export type LifecycleCommand =
  | { readonly verb: 'up' | 'verify'; readonly cluster: string }
  /** The Cilium parity fields compared across the repo's files, the live release and the live DaemonSet. */
  | { readonly verb: 'drift'; readonly cluster: string }
  /** A rollout of the repo's Cilium; or, by its mode, a rollback of the release or resuming Flux's HelmRelease. */
  | { readonly verb: 'cilium'; readonly cluster: string; readonly mode?: CiliumMode | undefined }
  | { readonly verb: 'reprovision' | 'packages'; readonly cluster: string; readonly node: string }
  /** The repo's standalone diagnostic, on one node or (node absent) the whole cluster. */
  | { readonly verb: 'health'; readonly cluster: string; readonly node?: string | undefined }
  /** `plan <command>` checked against the infra repo: every refusal the command would meet, nothing run. */
  | { readonly verb: 'plan'; readonly cluster: string; readonly of: PlannedCommand };

/** `--rollback [revision]` (absent: the last good revision before the newest) or `--resume-flux`. */
export type CiliumMode =
  | { readonly kind: 'rollback'; readonly revision?: number | undefined }
  | { readonly kind: 'resume-flux' };

/** A command `plan` can check: any but `plan` itself. */
export type PlannedCommand = Exclude<LifecycleCommand, { readonly verb: 'plan' }>;

export type LifecycleVerb = LifecycleCommand['verb'];

/** The verbs typed as `/cluster <verb> …`; `plan` wraps one of them and has its own entry. */
export const LIFECYCLE_VERBS: readonly PlannedCommand['verb'][] = [
  'up',
  'reprovision',
  'cilium',
  'verify',
  'packages',
  'health',
  'drift',
];

/** Verbs that change a cluster: one at a time per cluster. The checks (verify, health, drift) only look. */
export function isMutating(command: LifecycleCommand): boolean {
  return (
    command.verb !== 'verify' &&
    command.verb !== 'health' &&
    command.verb !== 'plan' &&
    command.verb !== 'drift'
  );
}

export function describeCommand(command: LifecycleCommand): string {
  switch (command.verb) {
    case 'reprovision':
    case 'packages':
      return `${command.verb} ${command.node}`;
    case 'health':
      return `health ${command.node ?? command.cluster}`;
    case 'plan':
      return `plan ${describeCommand(command.of)}`;
    case 'cilium':
      return `cilium ${command.cluster}${describeCiliumMode(command.mode)}`;
    default:
      return `${command.verb} ${command.cluster}`;
  }
}

function describeCiliumMode(mode: CiliumMode | undefined): string {
  if (mode === undefined) return '';
  if (mode.kind === 'resume-flux') return ' --resume-flux';
  return mode.revision === undefined ? ' --rollback' : ` --rollback ${mode.revision}`;
}
