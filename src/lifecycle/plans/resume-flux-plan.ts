import type { ClusterConfig } from '../../config/world-config.js';
import { ciliumPreflightStep } from '../cilium/cilium-preflight-step.js';
import { fluxHandBack } from '../cilium/flux-hand-back.js';
import { fluxResumeApproval } from '../cilium/flux-resume-approval.js';
import type { Step } from '../plan/step.js';
import { createStepIds } from './step-ids.js';

/**
 * `cilium <cluster> --resume-flux`: hands Cilium back to Flux after a job left its HelmRelease
 * suspended. Flux then applies what git holds, so git's values pass the Cilium preflight first and
 * the resume is approved (⚠) with that preflight shown; then Flux settling, its rollout if it made
 * one, and the verify gates.
 */
export function resumeFluxPlan(cluster: ClusterConfig): Step[] {
  const id = createStepIds();
  const preflight = ciliumPreflightStep(id('cilium-preflight'), cluster.name);
  return [
    preflight,
    ...fluxHandBack(id('resume-flux'), cluster.name, {
      always: true,
      approval: fluxResumeApproval(cluster.name, preflight),
    }),
  ];
}
