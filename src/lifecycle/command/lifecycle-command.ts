/** A validated request to change or check a cluster. Every name in it is one from the config. */
export type LifecycleCommand =
  | { readonly verb: 'up' | 'cilium' | 'verify'; readonly cluster: string }
  | { readonly verb: 'reprovision' | 'packages'; readonly cluster: string; readonly node: string };

export type LifecycleVerb = LifecycleCommand['verb'];

export const LIFECYCLE_VERBS: readonly LifecycleVerb[] = [
  'up',
  'reprovision',
  'cilium',
  'verify',
  'packages',
];

/** Verbs that change a cluster: one at a time per cluster. */
export function isMutating(command: LifecycleCommand): boolean {
  return command.verb !== 'verify';
}

export function describeCommand(command: LifecycleCommand): string {
  switch (command.verb) {
    case 'reprovision':
    case 'packages':
      return `${command.verb} ${command.node}`;
    default:
      return `${command.verb} ${command.cluster}`;
  }
}
