import { ClusterBotError } from '../../errors.js';
import { CILIUM } from '../gates/gate.js';
import type { Step } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { captureRemoteOrFail } from './capture-remote.js';
import { checkCiliumParity } from './check-cilium-parity.js';
import { CILIUM_BASELINE_FACT, readCiliumBaseline } from './cilium-baseline.js';
import { readCiliumValues, type ValuesSource } from './cilium-values.js';
import { parityFieldsOf } from './parity-fields.js';
import { repoPaths } from './repo-paths.js';

/** Refuses a Cilium rollout whose values could repeat the k8sServiceHost incident. */
export function ciliumPreflightStep(id: string, cluster: string): Step {
  return {
    id,
    title: 'Cilium preflight',
    target: `${cluster}: helmrelease, .j2 template, values.yaml, live DaemonSet`,
    async run(ctx) {
      const paths = repoPaths(ctx.world);
      const files: Record<ValuesSource, string> = {
        helmrelease: paths.ciliumHelmRelease,
        template: paths.ciliumTemplate,
        reference: paths.ciliumReferenceValues,
      };
      const values = {} as Record<ValuesSource, Record<string, unknown>>;
      let parityFields: string[] = [];
      for (const [source, path] of Object.entries(files) as [ValuesSource, string][]) {
        const text = await captureRemoteOrFail(ctx, opsTarget(ctx.world), ['cat', '--', path]);
        if (source === 'helmrelease') parityFields = parityFieldsOf(text);
        try {
          values[source] = readCiliumValues(source, text);
        } catch (cause) {
          throw new ClusterBotError(
            'PRECONDITION_FAILED',
            `${path} is not valid YAML: ${(cause as Error).message}`,
            {
              cause,
            },
          );
        }
      }
      const problems = checkCiliumParity(values, parityFields);
      const live = await ctx.kube.readDaemonSet(CILIUM.namespace, CILIUM.name).catch(() => undefined);
      if (live && live.maxUnavailable !== 1) {
        problems.push(
          `the live DaemonSet kube-system/cilium has maxUnavailable ${live.maxUnavailable ?? 'unset'}: ` +
            'apply the updateStrategy-only change first (it recreates no pod), then roll out',
        );
      }
      for (const problem of problems) await ctx.progress(`✗ ${problem}`);
      if (problems.length > 0) {
        throw new ClusterBotError('PRECONDITION_FAILED', `Cilium preflight failed: ${problems.join('; ')}`, {
          details: { problems },
        });
      }
      await ctx.facts.set(CILIUM_BASELINE_FACT, await readCiliumBaseline(ctx).catch(() => undefined));
      return {
        status: 'succeeded',
        summary: 'k8sServiceHost set, parity fields agree across the three files, maxUnavailable 1',
      };
    },
  };
}
