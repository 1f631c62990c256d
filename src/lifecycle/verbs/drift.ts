import { ciliumDriftStep } from '../cilium/cilium-drift-step.js';
import { targetOnly, type VerbSpec } from './verb-spec.js';

/** The Cilium parity fields compared across the repo's files, the live release and the live DaemonSet. */
export interface DriftCommand {
  readonly verb: 'drift';
  readonly cluster: string;
}

export const drift: VerbSpec<DriftCommand> = {
  verb: 'drift',
  target: 'cluster',
  mutating: false,
  flags: [],
  help: [
    '`drift <cluster>`: compare the Cilium parity fields across the repo files, the live release and DaemonSet; changes nothing',
  ],
  read: targetOnly(({ cluster }) => ({ verb: 'drift', cluster })),
  plan: (_command, _world, cluster) => [ciliumDriftStep('1-drift', cluster.name)],
};
