/** A response Slack waits on: written (`finish`) or its connection gone (`close`). */
export interface OwedResponse {
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

export interface AckFirst {
  /** Counts an ack as owed from the moment its request is taken until its response is written. */
  owe(response: OwedResponse): void;
  /** Resolves when the work after an ack may go: once no ack is owed, or MAX_WAIT_MS after it parked. */
  afterAcks(): Promise<void>;
}

/**
 * How long an answer waits for the acks owed to others: under Slack's 3 s for an ack, so a flood
 * that never lets them all out slows the answers but never stops them.
 */
export const MAX_WAIT_MS = 2_000;

/**
 * Keeps Slack's acks ahead of the work that follows them. A slash command's answer (the job's
 * admission script, BullMQ's add, the response_url post) is most of the process's CPU for a
 * request; run straight after its ack, a burst's later requests wait behind the earlier ones'
 * answers on a busy core, and Slack gives up on an ack after 3 s. Work parked here goes in a later
 * turn of the event loop (after the input ready then is read) in which no ack is owed, or after
 * MAX_WAIT_MS. The order depends on no timing, so a loaded machine keeps it.
 */
export function createAckFirst(): AckFirst {
  let owed = 0;
  let parked: (() => void)[] = [];
  let scheduled = false;
  let deadline: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(deadline);
    deadline = undefined;
    const going = parked;
    parked = [];
    for (const go of going) go();
  };
  const turn = () => {
    scheduled = false;
    if (owed === 0) release();
    // Answers that wait for acks owed are released by the last ack paid, or their deadline.
    else deadline ??= setTimeout(release, MAX_WAIT_MS).unref();
  };
  const schedule = () => {
    if (scheduled || parked.length === 0) return;
    scheduled = true;
    setImmediate(turn);
  };
  return {
    owe(response) {
      owed += 1;
      let paid = false;
      const pay = () => {
        if (paid) return;
        paid = true;
        owed -= 1;
        if (owed === 0) schedule();
      };
      response.once('finish', pay);
      response.once('close', pay);
    },
    afterAcks() {
      return new Promise((resolve) => {
        parked.push(resolve);
        schedule();
      });
    },
  };
}
