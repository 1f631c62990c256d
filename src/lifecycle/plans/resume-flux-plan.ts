import type { ClusterConfig } from '../../config/world-config.js';
import type { Step } from '../plan/step.js';
import { fluxResumeStep } from '../steps/flux-steps.js';
import { createStepIds } from './step-ids.js';

/** `cilium <cluster> --resume-flux`: hands Cilium back to Flux after a job left its HelmRelease suspended. */
export function resumeFluxPlan(cluster: ClusterConfig): Step[] {
  const id = createStepIds();
  return [fluxResumeStep(id('resume-flux'), cluster.name, true)];
}
