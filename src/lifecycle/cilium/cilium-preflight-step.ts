import { ClusterBotError, isClusterBotError } from '../../errors.js';
import { allInOrder } from '../all-in-order.js';
import { clusterIdentityProblems } from '../ansible/cluster-identity-problems.js';
import { CILIUM } from '../gates/gate.js';
import type { Step, StepContext, StepResult } from '../plan/step.js';
import { refusalsOf } from '../preconditions/refusals-of.js';
import { roleDefaultsFile } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { checkApiHostRender } from './check-api-host-render.js';
import { checkCiliumParity, SOURCE_NAMES } from './check-cilium-parity.js';
import { checkCiliumVersion, checkLiveChartVersion } from './check-cilium-version.js';
import { checkFluxApiHost } from './check-flux-api-host.js';
import { checkFluxSource } from './check-flux-source.js';
import { chooseParityFields } from './choose-parity-fields.js';
import { CILIUM_BASELINE_FACT, readCiliumBaseline } from './cilium-baseline.js';
import { foreignNodesProblems } from './foreign-nodes.js';
import { readCiliumFiles } from './read-cilium-files.js';
import { CILIUM_RELEASE } from './release-tools.js';

const CILIUM_DEFAULTS = roleDefaultsFile('cilium');

/**
 * Refuses a Cilium rollout whose values could repeat the k8sServiceHost incident: the three files'
 * spellings, what they render (k3s_api_host as the cluster resolves it, ${K3S_API_HOST} as Flux
 * substitutes it), and the commit each layer renders from. Its summary names what it could not check.
 */
export function ciliumPreflightStep(id: string, cluster: string): Step {
  const step: Step = {
    id,
    title: 'Cilium preflight',
    target: `${cluster}: helmrelease, .j2 template, values.yaml, role defaults, live DaemonSet`,
    // It only reads: `plan` runs it as it is, before the API of a first run exists.
    check: (ctx) => refusalsOf([() => preflight(ctx, { planning: true })]),
    run: (ctx) => preflight(ctx, { planning: false }),
  };
  return step;
}

/**
 * A live object the API would not show: a refusal, never a pass (the gate is unchecked, and the
 * rollout watch would be as blind). Only `plan` of a cluster whose API does not answer yet (a first
 * run, before k3s.yml) names it as not checked.
 */
function liveReadFailure(planning: boolean, problems: string[], notChecked: string[]) {
  return (what: string, error: unknown, unchecked: string) => {
    const message = (error as Error).message;
    if (planning && isClusterBotError(error, 'KUBE_UNREACHABLE')) {
      notChecked.push(`${what} (the API does not answer yet: ${message})`);
    } else problems.push(`cannot read ${what} (${message}): ${unchecked}`);
  };
}

async function preflight(ctx: StepContext, { planning }: { planning: boolean }): Promise<StepResult> {
  // Reads of the repo, the ops host and the API, each waiting on none of the others: at once, in order.
  const [{ texts, values, marked }, [render, fluxApiHost], fluxSource, identityProblems, foreignProblems] =
    await allInOrder([
      readCiliumFiles(ctx),
      checkApiHostRender(ctx).then(
        async (render) => [render, await checkFluxApiHost(ctx, render.rendered)] as const,
      ),
      checkFluxSource(ctx),
      clusterIdentityProblems(ctx),
      foreignNodesProblems(ctx),
    ]);
  const parity = chooseParityFields(marked);
  const found = [render, fluxApiHost, fluxSource];
  const problems: string[] = [];
  const notChecked = found.flatMap((findings) => findings.notChecked);
  const unreadable = liveReadFailure(planning, problems, notChecked);
  problems.push(
    ...identityProblems,
    ...foreignProblems,
    ...checkCiliumParity(values, parity.fields),
    ...found.flatMap((findings) => findings.problems),
    ...(await checkVersions(ctx, texts.helmrelease, unreadable)),
  );
  // Absent (404) is a first install.
  const live = await ctx.kube.readDaemonSet(CILIUM.namespace, CILIUM.name).then(
    (daemonSet) => ({ daemonSet }),
    (error: unknown) => {
      unreadable(
        'the live DaemonSet kube-system/cilium',
        error,
        'its maxUnavailable is unchecked and the rollout could not be watched',
      );
      return { unreadable: true };
    },
  );
  if ('daemonSet' in live && live.daemonSet && live.daemonSet.maxUnavailable !== 1) {
    problems.push(
      `the live DaemonSet kube-system/cilium has maxUnavailable ${live.daemonSet.maxUnavailable ?? 'unset'}: ` +
        'apply the updateStrategy-only change first (it recreates no pod), then roll out',
    );
  }
  const liveStrategy =
    'daemonSet' in live && live.daemonSet
      ? 'maxUnavailable 1'
      : 'no live DaemonSet (a first install starts every agent at once)';
  for (const problem of problems) await ctx.progress(`✗ ${problem}`);
  for (const part of notChecked) await ctx.progress(`? not checked: ${part}`);
  if (problems.length > 0) {
    throw new ClusterBotError('PRECONDITION_FAILED', `Cilium preflight failed: ${problems.join('; ')}`, {
      details: { problems, parityFieldsFrom: parity.source },
    });
  }
  await ctx.facts.set(CILIUM_BASELINE_FACT, await readCiliumBaseline(ctx).catch(() => undefined));
  return {
    status: 'succeeded',
    summary:
      `k8sServiceHost renders ${render.rendered?.value} (${render.rendered?.file}), the same in Flux's substitution; ` +
      `${parity.fields.length} parity fields agree across the three files ` +
      `(from ${parity.source}), chart version matches cilium_version, ${liveStrategy}` +
      (notChecked.length > 0 ? `; not checked: ${notChecked.join('; ')}` : ''),
  };
}

async function checkVersions(
  ctx: StepContext,
  helmrelease: string,
  unreadable: ReturnType<typeof liveReadFailure>,
): Promise<string[]> {
  const defaults = await readRepoText(ctx, CILIUM_DEFAULTS);
  if (defaults === undefined) return [`cannot read cilium_version from ${CILIUM_DEFAULTS} on the ops host`];
  const ansible = { name: CILIUM_DEFAULTS, text: defaults };
  const problems = checkCiliumVersion(ansible, { name: SOURCE_NAMES.helmrelease, text: helmrelease });
  // The repo's file may not be what Flux runs: the live HelmRelease, when Flux has one, is compared too.
  // Absent (404) means Flux does not manage Cilium.
  const live = await ctx.kube
    .readHelmRelease(CILIUM_RELEASE.namespace, CILIUM_RELEASE.name)
    .catch((error: unknown) => {
      unreadable(
        `the live HelmRelease ${CILIUM_RELEASE.namespace}/${CILIUM_RELEASE.name}`,
        error,
        'its chart version is unchecked',
      );
      return undefined;
    });
  if (live?.chartVersion !== undefined) {
    problems.push(
      ...checkLiveChartVersion(ansible, {
        name: `HelmRelease ${CILIUM_RELEASE.namespace}/${CILIUM_RELEASE.name}`,
        version: live.chartVersion,
      }),
    );
  }
  return problems;
}
