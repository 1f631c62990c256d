import { ClusterBotError } from '../../errors.js';
import type { Clock } from '../ports/clock.js';
import type { KubeGateway, WatchTarget } from '../ports/kube-gateway.js';

export interface ChangeWaiter {
  /** Resolves on the next watched change, or after ms: whichever comes first. */
  wait(ms: number): Promise<void>;
  close(): void;
}

/**
 * Watches turn "poll every few seconds" into "re-read as soon as something moved"; the poll stays,
 * so a cut or silent watch only costs latency, never correctness.
 */
export function watchForChanges(
  kube: KubeGateway,
  clock: Clock,
  targets: readonly WatchTarget[],
  signal: AbortSignal,
): ChangeWaiter {
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let changed = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    changed = true;
    wake?.();
  };
  const seen = new Set<string>();
  for (const target of targets) {
    const key = JSON.stringify(target);
    if (seen.has(key)) continue;
    seen.add(key);
    kube.watch(target, poke, stop.signal);
  }
  return {
    async wait(ms) {
      if (signal.aborted) throw cancelled(signal);
      if (changed) {
        changed = false;
        return;
      }
      const sleeper = new AbortController();
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
      });
      try {
        await Promise.race([clock.sleep(Math.max(0, ms), sleeper.signal).catch(() => undefined), woken]);
      } finally {
        sleeper.abort();
        wake = undefined;
        changed = false;
      }
      if (signal.aborted) throw cancelled(signal);
    },
    close() {
      signal.removeEventListener('abort', onAbort);
      stop.abort();
    },
  };
}

export function cancelled(signal: AbortSignal): ClusterBotError {
  return new ClusterBotError('CANCELLED', 'cancelled', { cause: signal.reason });
}
