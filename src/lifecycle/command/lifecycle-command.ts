import type { CiliumMode } from '../verbs/cilium.js';
import type { PlannedCommand } from '../verbs/lifecycle-verbs.js';

export type { CiliumMode } from '../verbs/cilium.js';
export type { PlannedCommand, PlannedVerb } from '../verbs/lifecycle-verbs.js';

/** A validated request to change or check a cluster. Every name in it is one from the config. */
export type LifecycleCommand =
  | PlannedCommand
  /** `plan <command>` checked against the infra repo: every refusal the command would meet, nothing run. */
  | { readonly verb: 'plan'; readonly cluster: string; readonly of: PlannedCommand };

export type LifecycleVerb = LifecycleCommand['verb'];

export function describeCommand(command: LifecycleCommand): string {
  if (command.verb === 'plan') return `plan ${describeCommand(command.of)}`;
  const target = 'node' in command && command.node !== undefined ? command.node : command.cluster;
  const snapshot = 'snapshot' in command ? ` ${command.snapshot}` : '';
  return `${command.verb} ${target}${'mode' in command ? describeCiliumMode(command.mode) : ''}${snapshot}`;
}

function describeCiliumMode(mode: CiliumMode | undefined): string {
  if (mode === undefined) return '';
  if (mode.kind === 'resume-flux') return ' --resume-flux';
  return mode.revision === undefined ? ' --rollback' : ` --rollback ${mode.revision}`;
}
