import type { StepFailure } from '../lifecycle/ports/reporter.js';
import { type AlertState, compareGateAlerts } from './compare-gate-alerts.js';
import { runQuietPlan } from './run-quiet-plan.js';
import type { ScheduledVerifyDeps } from './run-scheduled-verify.js';

/**
 * The Cilium drift watch on a schedule (driftEvery): each difference (field, place) is alerted once
 * when it appears, at most every verifyAlertRepeat while it stays, and once when it clears. A run
 * that could not read a place (helm or the API down, the DaemonSet missing) changes none of that
 * place's alerts: it did not see the drift go.
 */
export async function runScheduledDrift(clusterName: string, deps: ScheduledVerifyDeps): Promise<string> {
  const cluster = deps.world.clusters[clusterName];
  if (!cluster) return `unknown cluster ${clusterName}`;
  const guard = deps.keys.driftRunning(clusterName);
  if ((await deps.redis.set(guard, '1', 'PX', cluster.timeouts.gate + 60_000, 'NX')) !== 'OK')
    return 'skipped: a drift watch is still running';
  try {
    const { result, failingNow, failure } = await runQuietPlan(
      { verb: 'drift', cluster: clusterName },
      'scheduled-drift',
      deps,
    );
    const outcome = result.status === 'finished' ? result.outcome : 'waiting';
    if (outcome !== 'succeeded' && Object.keys(failingNow).length === 0) {
      deps.logger.warn({ cluster: clusterName, outcome }, 'scheduled drift watch could not read every place');
      return 'unread';
    }
    const raw = await deps.redis.get(deps.keys.driftAlerts(clusterName));
    const previous = raw ? (JSON.parse(raw) as AlertState) : {};
    // A place this run could not read did not agree either: its standing alerts are kept as they were.
    const unread = unreadPlaces(failure);
    const standing = Object.fromEntries(
      Object.entries(previous).filter(([gate]) => unread.some((place) => gate.endsWith(` (${place})`))),
    );
    const seen = Object.fromEntries(Object.entries(previous).filter(([gate]) => !(gate in standing)));
    const plan = compareGateAlerts(seen, failingNow, deps.clock.now(), cluster.verifyAlertRepeatMs);
    for (const alert of plan.failing)
      await deps.alerts.driftFound(clusterName, alert.gate, alert.observed, alert.repeat);
    for (const gate of plan.recovered) await deps.alerts.driftCleared(clusterName, gate);
    await deps.redis.set(deps.keys.driftAlerts(clusterName), JSON.stringify({ ...standing, ...plan.next }));
    deps.logger.info({ cluster: clusterName, drifted: Object.keys(failingNow) }, 'scheduled drift watch');
    return Object.keys(failingNow).length > 0 ? 'drift' : 'no drift';
  } finally {
    await deps.redis.del(guard);
  }
}

/** The places the drift step said it could not read (its failure's `unread`). */
function unreadPlaces(failure: StepFailure | undefined): string[] {
  const unread = failure?.details?.unread;
  return Array.isArray(unread) ? unread.filter((place): place is string => typeof place === 'string') : [];
}
