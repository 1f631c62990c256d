import type { AdmissionVerdict, CommandRateLimit } from '../../src/jobs/command-rate-limit.js';

const WINDOW_MS = 60_000;

/** Commands per user per clock minute and the deliveries seen, in memory: a repeat is dropped before it is counted. */
export function createMemoryCommandRateLimit(perMinute: number, deliveries: Set<string>, now: () => number) {
  const counts = new Map<string, number>();
  const rateLimit: Pick<CommandRateLimit, 'admit' | 'perMinute'> = {
    perMinute,
    async admit(admission): Promise<AdmissionVerdict> {
      const { deliveryKey, userId } = admission;
      if (deliveryKey !== undefined) {
        if (deliveries.has(deliveryKey)) return 'repeated';
        deliveries.add(deliveryKey);
      }
      const window = `${userId}:${Math.floor(now() / WINDOW_MS)}`;
      const count = (counts.get(window) ?? 0) + 1;
      counts.set(window, count);
      return count > perMinute ? 'limited' : 'admitted';
    },
  };
  return { rateLimit };
}
