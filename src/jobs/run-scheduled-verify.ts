import type { Redis } from 'ioredis';
import type { Logger } from '../log/create-logger.js';
import { type AlertState, compareGateAlerts } from './compare-gate-alerts.js';
import type { GateAlerts } from './ports/job-reporting.js';
import type { RedisKeys } from './redis-keys.js';
import { type QuietPlanDeps, runQuietPlan } from './run-quiet-plan.js';

export interface ScheduledVerifyDeps extends QuietPlanDeps {
  readonly redis: Redis;
  readonly keys: RedisKeys;
  readonly alerts: GateAlerts;
  readonly logger: Logger;
}

/**
 * The verify plan on a schedule, quietly: no thread per run, only transitions go to the alerts
 * channel (pass → fail, a reminder at most every verifyAlertRepeat, fail → pass). One run per
 * cluster at a time; a run that finds another still going skips.
 */
export async function runScheduledVerify(clusterName: string, deps: ScheduledVerifyDeps): Promise<string> {
  const cluster = deps.world.clusters[clusterName];
  if (!cluster) return `unknown cluster ${clusterName}`;
  const guard = deps.keys.verifyRunning(clusterName);
  const guardMs = cluster.timeouts.gate + 60_000;
  if ((await deps.redis.set(guard, '1', 'PX', guardMs, 'NX')) !== 'OK')
    return 'skipped: a verify is still running';
  try {
    const uninitialised = await awaitingProdInit(clusterName, deps);
    if (uninitialised) {
      await deps.redis.set(
        deps.keys.lastVerify(clusterName),
        JSON.stringify({
          outcome: 'uninitialised',
          at: deps.clock.now(),
          jobNumber: 0,
          summary: uninitialised,
        }),
      );
      deps.logger.info({ cluster: clusterName, outcome: 'uninitialised' }, 'scheduled verify');
      return 'uninitialised';
    }
    const { result, failingNow } = await runQuietPlan(
      { verb: 'verify', cluster: clusterName },
      'scheduled-verify',
      deps,
    );
    const now = deps.clock.now();
    const raw = await deps.redis.get(deps.keys.verifyAlerts(clusterName));
    const previous = raw ? (JSON.parse(raw) as AlertState) : {};
    const plan = compareGateAlerts(previous, failingNow, now, cluster.verifyAlertRepeatMs);
    for (const alert of plan.failing) {
      await deps.alerts.failing(clusterName, alert.gate, alert.observed, alert.repeat);
    }
    for (const gate of plan.recovered) await deps.alerts.recovered(clusterName, gate);
    await deps.redis.set(deps.keys.verifyAlerts(clusterName), JSON.stringify(plan.next));
    const outcome = result.status === 'finished' ? result.outcome : 'waiting';
    const summary = result.status === 'finished' ? result.summary : '';
    await deps.redis.set(
      deps.keys.lastVerify(clusterName),
      JSON.stringify({ outcome, at: now, jobNumber: 0, summary }),
    );
    deps.logger.info({ cluster: clusterName, outcome, failing: Object.keys(failingNow) }, 'scheduled verify');
    return outcome;
  } finally {
    await deps.redis.del(guard);
  }
}

/**
 * A production cluster stays uninitialised until all of its servers are racked (the operators'
 * ruling): until the bot has once seen its nodes, an empty or unreachable API is that state, shown
 * by status, not an alert every hour. Once formed, the same silence is an incident and alerts.
 */
async function awaitingProdInit(clusterName: string, deps: ScheduledVerifyDeps): Promise<string | undefined> {
  const cluster = deps.world.clusters[clusterName]!;
  if (!cluster.production || (await deps.redis.exists(deps.keys.clusterFormed(clusterName))))
    return undefined;
  // A verify that passed once (a `verify` job, or an earlier schedule) proves it formed too.
  const last = await deps.redis.get(deps.keys.lastVerify(clusterName));
  if (last && (JSON.parse(last) as { outcome?: string }).outcome === 'succeeded') {
    await deps.redis.set(deps.keys.clusterFormed(clusterName), '1');
    return undefined;
  }
  let nodes: number;
  try {
    nodes = (await deps.kubeFor(clusterName).listNodes()).length;
  } catch (error) {
    return `${clusterName} is not initialised yet (its API does not answer: ${(error as Error).message}); no alert until it has formed`;
  }
  if (nodes === 0)
    return `${clusterName} is not initialised yet (no node registered); no alert until it has formed`;
  await deps.redis.set(deps.keys.clusterFormed(clusterName), '1');
  return undefined;
}
