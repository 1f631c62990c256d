/** A validated request to change or check a cluster. Every name in it is one from the config. */
export type LifecycleCommand =
  | { readonly verb: 'up' | 'cilium' | 'verify'; readonly cluster: string }
  | { readonly verb: 'reprovision' | 'packages'; readonly cluster: string; readonly node: string }
  /** The repo's standalone diagnostic, on one node or (node absent) the whole cluster. */
  | { readonly verb: 'health'; readonly cluster: string; readonly node?: string | undefined };

export type LifecycleVerb = LifecycleCommand['verb'];

export const LIFECYCLE_VERBS: readonly LifecycleVerb[] = [
  'up',
  'reprovision',
  'cilium',
  'verify',
  'packages',
  'health',
];

/** Verbs that change a cluster: one at a time per cluster. The checks (verify, health) only look. */
export function isMutating(command: LifecycleCommand): boolean {
  return command.verb !== 'verify' && command.verb !== 'health';
}

export function describeCommand(command: LifecycleCommand): string {
  switch (command.verb) {
    case 'reprovision':
    case 'packages':
      return `${command.verb} ${command.node}`;
    case 'health':
      return `health ${command.node ?? command.cluster}`;
    default:
      return `${command.verb} ${command.cluster}`;
  }
}
