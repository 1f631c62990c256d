import { verifyGatesStep } from '../gates/verify-gates-step.js';
import { targetOnly, type VerbSpec } from './verb-spec.js';

export interface VerifyCommand {
  readonly verb: 'verify';
  readonly cluster: string;
}

export const verify: VerbSpec<VerifyCommand> = {
  verb: 'verify',
  target: 'cluster',
  mutating: false,
  flags: [],
  help: ['`verify <cluster>`: one read of the verify gates, reported at once (no waiting)'],
  read: targetOnly(({ cluster }) => ({ verb: 'verify', cluster })),
  plan: (_command, _world, cluster) => [verifyGatesStep('1-verify', cluster.name, 'one-read')],
};
