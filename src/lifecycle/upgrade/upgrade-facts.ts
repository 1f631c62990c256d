import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';

/** The upgrade as approved, kept as a job fact: every later step upgrades exactly these servers. */
export interface ApprovedUpgrade {
  readonly target: string;
  /** The infra repo's commit the approval was given at: k3s.yml runs only at it. */
  readonly commit: string;
  /** The servers whose version differed, in the order they go, with the version each ran. */
  readonly servers: readonly { readonly server: string; readonly from: string }[];
}

export const UPGRADE_FACT = 'approvedUpgrade';

export function approvedUpgrade(ctx: StepContext): ApprovedUpgrade {
  const upgrade = ctx.facts.get<ApprovedUpgrade>(UPGRADE_FACT);
  if (!upgrade) {
    throw new ClusterBotError('PRECONDITION_FAILED', 'no approved upgrade: the approval step has not run');
  }
  return upgrade;
}

/** `v1.36.4+k3s1 → v1.37.0+k3s1`: how the thread, the approval and the job page show a server's change. */
export function fromTo(from: string, target: string): string {
  return `${from} → ${target}`;
}
