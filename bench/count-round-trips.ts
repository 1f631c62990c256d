import type { Redis } from 'ioredis';

export interface RoundTripCounter {
  /** Counts what this connection (and every duplicate made of it, as BullMQ's worker makes) sends. */
  watch<Connection extends Redis>(redis: Connection): Connection;
  count(): number;
  /** Each round trip in the order sent: its commands, each as its name and arguments (`hset <key> <field> <value>`), cut at 300 characters. */
  sent(): string[][];
}

/**
 * Counts Redis round trips on the client side, so other tenants of a shared Redis do not pollute
 * the figure: a command sent on its own counts one, a pipeline or MULTI (one write of all its
 * commands, one wait for the replies) counts one. ioredis hands each command of a pipeline to
 * `sendCommand` with the pipeline's write stream, which tells them apart. A command queued while
 * the connection is not ready counts when it is replayed, once ready.
 */
export function createRoundTripCounter(): RoundTripCounter {
  const trips: string[][] = [];
  /** Each pipeline's write stream, with the round trip it is. */
  const pipelines = new WeakMap<object, string[]>();
  const watch = <Connection extends Redis>(redis: Connection): Connection => {
    // A Cluster's sendCommand takes a third argument (the node); it is passed through untouched.
    const send = redis.sendCommand as (...args: unknown[]) => ReturnType<Redis['sendCommand']>;
    redis.sendCommand = ((command: unknown, stream?: object, ...rest: unknown[]) => {
      if (redis.status === 'ready') {
        const { name, args } = command as { name: string; args: unknown[] };
        const sent = [name, ...args.map(String)].join(' ').slice(0, 300);
        const pipeline = stream && pipelines.get(stream);
        if (pipeline) pipeline.push(sent);
        else {
          const trip = [sent];
          trips.push(trip);
          if (stream) pipelines.set(stream, trip);
        }
      }
      return send.call(redis, command, stream, ...rest);
    }) as Redis['sendCommand'];
    const duplicate = redis.duplicate as (...args: unknown[]) => Redis;
    redis.duplicate = ((...args: unknown[]) => watch(duplicate.apply(redis, args))) as Redis['duplicate'];
    return redis;
  };
  return { watch, count: () => trips.length, sent: () => trips.map((trip) => [...trip]) };
}
