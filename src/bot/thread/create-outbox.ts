/** Queues a job's writes to its thread outbox (Redis) so they land in order and one failing never stops the rest. */
export interface Outbox {
  send(what: string, action: () => Promise<unknown>): void;
  /** Resolves once everything sent so far has been tried. */
  drained(): Promise<void>;
}

export function createOutbox(onError: (what: string, error: unknown) => void): Outbox {
  let last: Promise<void> = Promise.resolve();
  return {
    send(what, action) {
      last = last.then(async () => {
        try {
          await action();
        } catch (error) {
          onError(what, error);
        }
      });
    },
    drained: () => last,
  };
}
