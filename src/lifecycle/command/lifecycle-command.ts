/** A validated request to change or check a cluster. Every name in it is one from the config. */
export type LifecycleCommand =
  | { readonly verb: 'up' | 'cilium' | 'verify'; readonly cluster: string }
  | {
      readonly verb: 'reprovision';
      readonly cluster: string;
      readonly node: string;
      readonly primary: boolean;
    }
  | { readonly verb: 'packages'; readonly cluster: string; readonly node: string };

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
      return `reprovision ${command.node}${command.primary ? ' --primary' : ''}`;
    case 'packages':
      return `packages ${command.node}`;
    default:
      return `${command.verb} ${command.cluster}`;
  }
}
