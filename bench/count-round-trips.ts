import type { Redis } from 'ioredis';

export interface RoundTripCounter {
  /** Counts what this connection (and every duplicate made of it, as BullMQ's worker makes) sends. */
  watch<Connection extends Redis>(redis: Connection): Connection;
  count(): number;
  /** Each round trip by its first command's name (`multi` for a MULTI), in the order sent. */
  sent(): string[];
}

/**
 * Counts Redis round trips on the client side, so other tenants of a shared Redis do not pollute
 * the figure: a command sent on its own counts one, a pipeline or MULTI (one write of all its
 * commands, one wait for the replies) counts one. ioredis hands each command of a pipeline to
 * `sendCommand` with the pipeline's write stream, which tells them apart. A command queued while
 * the connection is not ready counts when it is replayed, once ready.
 */
export function createRoundTripCounter(): RoundTripCounter {
  const trips: string[] = [];
  const pipelines = new WeakSet<object>();
  const watch = <Connection extends Redis>(redis: Connection): Connection => {
    // A Cluster's sendCommand takes a third argument (the node); it is passed through untouched.
    const send = redis.sendCommand as (...args: unknown[]) => ReturnType<Redis['sendCommand']>;
    redis.sendCommand = ((command: unknown, stream?: object, ...rest: unknown[]) => {
      if (redis.status === 'ready' && !(stream && pipelines.has(stream))) {
        trips.push((command as { name: string }).name);
        if (stream) pipelines.add(stream);
      }
      return send.call(redis, command, stream, ...rest);
    }) as Redis['sendCommand'];
    const duplicate = redis.duplicate as (...args: unknown[]) => Redis;
    redis.duplicate = ((...args: unknown[]) => watch(duplicate.apply(redis, args))) as Redis['duplicate'];
    return redis;
  };
  return { watch, count: () => trips.length, sent: () => [...trips] };
}
