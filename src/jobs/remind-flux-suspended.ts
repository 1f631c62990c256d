import type { Redis } from 'ioredis';
import type { FluxSuspendedSince, GateAlerts } from './ports/job-reporting.js';
import type { RedisKeys } from './redis-keys.js';

/** How often a Flux left suspended is brought up again in the alerts channel. */
export const FLUX_REMINDER_EVERY_MS = 3_600_000;

/**
 * The scheduled reminder: while a failed job's suspension of Flux's cilium HelmRelease stands (set
 * and cleared when jobs settle), say so in the alerts channel; once resumed, nothing.
 */
export async function remindFluxSuspended(
  cluster: string,
  deps: { readonly redis: Redis; readonly keys: RedisKeys; readonly alerts: GateAlerts },
): Promise<string> {
  const raw = await deps.redis.get(deps.keys.fluxSuspended(cluster));
  if (!raw) return 'flux not suspended';
  await deps.alerts.fluxStillSuspended(cluster, JSON.parse(raw) as FluxSuspendedSince);
  return 'reminded';
}
