/** Which gates were failing and when each was last alerted, kept between scheduled verifies. */
export type AlertState = Readonly<Record<string, { readonly observed: string; readonly alertedAt: number }>>;

export interface AlertPlan {
  readonly failing: readonly { gate: string; observed: string; repeat: boolean }[];
  readonly recovered: readonly string[];
  readonly next: AlertState;
}

/**
 * Alert on a gate going from passing to failing, remind at most every repeatMs while it stays
 * failing, and say so once when it passes again. Pure: the caller posts and stores.
 */
export function compareGateAlerts(
  previous: AlertState,
  failingNow: Readonly<Record<string, string>>,
  now: number,
  repeatMs: number,
): AlertPlan {
  const failing: AlertPlan['failing'][number][] = [];
  const next: Record<string, { observed: string; alertedAt: number }> = {};
  for (const [gate, observed] of Object.entries(failingNow)) {
    const before = previous[gate];
    if (!before) {
      failing.push({ gate, observed, repeat: false });
      next[gate] = { observed, alertedAt: now };
    } else if (now - before.alertedAt >= repeatMs) {
      failing.push({ gate, observed, repeat: true });
      next[gate] = { observed, alertedAt: now };
    } else {
      next[gate] = { observed, alertedAt: before.alertedAt };
    }
  }
  const recovered = Object.keys(previous).filter((gate) => failingNow[gate] === undefined);
  return { failing, recovered, next };
}
