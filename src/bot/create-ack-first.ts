/** A response Slack waits on: written (`finish`) or its connection gone (`close`). */
export interface OwedResponse {
  once(event: 'finish' | 'close', listener: () => void): unknown;
}

export interface AckFirst {
  /** Counts an ack as owed from the moment its request is taken until its response is written. */
  owe(response: OwedResponse): void;
  /** Resolves when the work after an ack may go: at once when no ack is owed, else one such work per turn. */
  afterAcks(): Promise<void>;
}

/**
 * Keeps Slack's acks ahead of the work that follows them. A slash command's answer (the job's
 * admission script, BullMQ's add, the response_url post) is most of the process's CPU for a
 * request; run straight after its ack, a burst's later requests wait behind the earlier ones'
 * answers on a busy core, and Slack gives up on an ack after 3 s. Work parked here goes in a later
 * turn of the event loop, after the input ready then is read: while acks are owed one parked piece
 * goes per turn (so a flood of requests slows the answers but never stops them), all of it once
 * none is. Nothing is timed, so a loaded machine orders it the same way.
 */
export function createAckFirst(): AckFirst {
  let owed = 0;
  const parked: (() => void)[] = [];
  let scheduled = false;
  const turn = () => {
    scheduled = false;
    const going = owed === 0 ? parked.splice(0) : parked.splice(0, 1);
    for (const go of going) go();
    if (parked.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
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
