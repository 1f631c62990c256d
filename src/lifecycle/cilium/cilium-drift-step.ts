import { ClusterBotError } from '../../errors.js';
import { readClusterVar } from '../ansible/read-cluster-var.js';
import { CILIUM } from '../gates/gate.js';
import type { Step, StepContext } from '../plan/step.js';
import { chooseParityFields } from './choose-parity-fields.js';
import { type DriftPlace, describeDifference, findCiliumDrift } from './find-cilium-drift.js';
import { readCiliumFiles } from './read-cilium-files.js';
import { HELM_GET_VALUES, readReleaseTool } from './release-tools.js';

/** The gate name of one difference: scheduled runs compare these between runs to alert once. */
export const driftGate = (field: string, place: DriftPlace) => `Cilium drift: ${field} (${place})`;

/**
 * Reads, changing nothing, the parity fields in every place they live: the three files at the
 * repo's HEAD, the live release's values (`helm get values`) and the live DaemonSet's
 * updateStrategy, and reports each place that differs from the rest as field, place, value.
 */
export function ciliumDriftStep(id: string, cluster: string): Step {
  return {
    id,
    title: 'Cilium drift',
    target: `${cluster}: parity fields in helmrelease, .j2 template, values.yaml at HEAD, helm get values, the live DaemonSet`,
    async run(ctx) {
      const { places, unread } = await readPlaces(ctx);
      const files = await readCiliumFiles(ctx, 'HEAD');
      const parity = chooseParityFields(files.marked);
      const apiHost = (await readClusterVar(ctx, 'k3s_api_host'))?.value;
      const differences = findCiliumDrift({ ...files.values, ...places }, parity.fields, apiHost);
      for (const difference of differences)
        await ctx.gateFailed(driftGate(difference.field, difference.place), describeDifference(difference));
      // A place not read is not a place that agrees: the run fails naming it, and its alerts stand.
      const problems = [
        ...differences.map(describeDifference),
        ...unread.map(({ place, why }) => `${place} not read (${why}); its drift alerts stand`),
      ];
      if (problems.length > 0) {
        throw new ClusterBotError(
          differences.length > 0 ? 'GATE_FAILED' : 'COMMAND_FAILED',
          `Cilium drift: ${problems.join('; ')}`,
          { details: { differences, unread: unread.map(({ place }) => place) } },
        );
      }
      return {
        status: 'succeeded',
        summary:
          `no drift: ${parity.fields.length} parity fields agree across the three files at HEAD, ` +
          `the live release's values and the live DaemonSet`,
      };
    },
  };
}

/** The live places: the release's user-supplied values and the DaemonSet's updateStrategy; the DaemonSet as unread when it is missing or unreadable. */
async function readPlaces(ctx: StepContext): Promise<{
  places: Partial<Record<DriftPlace, Record<string, unknown>>>;
  unread: { place: DriftPlace; why: string }[];
}> {
  const text = await readReleaseTool(ctx, HELM_GET_VALUES);
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch {
    throw new ClusterBotError('COMMAND_FAILED', `helm get values printed no JSON: ${text.slice(0, 200)}`);
  }
  const liveValues = values !== null && typeof values === 'object' ? (values as Record<string, unknown>) : {};
  const ds = await ctx.kube.readDaemonSet(CILIUM.namespace, CILIUM.name).catch((error: unknown) => {
    return error instanceof Error ? error.message : String(error);
  });
  if (ds === undefined || typeof ds === 'string') {
    const why = ds ?? `DaemonSet ${CILIUM.namespace}/${CILIUM.name} not found`;
    return { places: { 'live values': liveValues }, unread: [{ place: 'live DaemonSet', why }] };
  }
  return {
    places: {
      'live values': liveValues,
      'live DaemonSet': { updateStrategy: { rollingUpdate: { maxUnavailable: ds.maxUnavailable } } },
    },
    unread: [],
  };
}
