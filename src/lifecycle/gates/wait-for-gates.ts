import type { StepContext } from '../plan/step.js';
import { watchForChanges } from './change-waiter.js';
import type { Gate } from './gate.js';
import { type GateOutcome, readGate } from './read-gates.js';

const POLL_MS = 2_000;

/**
 * Waiting for convergence after a change (a rollout, a re-join): evaluates every gate until all pass
 * or the deadline comes; a gate that fails at the deadline reports the last thing it saw. API errors
 * count as "not passed yet", so a blip is not a failure.
 */
export async function waitForGates(
  ctx: StepContext,
  gates: readonly Gate[],
  timeoutMs: number,
  pollMs = POLL_MS,
): Promise<GateOutcome[]> {
  const deadline = ctx.clock.now() + timeoutMs;
  const latest = new Map<string, GateOutcome>();
  const waiter = watchForChanges(
    ctx.kube,
    ctx.clock,
    gates.flatMap((gate) => gate.watches),
    ctx.signal,
  );
  try {
    for (;;) {
      for (const gate of gates) {
        if (latest.get(gate.name)?.passed) continue;
        latest.set(gate.name, await readGate(ctx, gate));
      }
      const outcomes = gates.map((gate) => latest.get(gate.name)!);
      const remaining = deadline - ctx.clock.now();
      if (outcomes.every((outcome) => outcome.passed) || remaining <= 0) return outcomes;
      await waiter.wait(Math.min(pollMs, remaining));
    }
  } finally {
    waiter.close();
  }
}
