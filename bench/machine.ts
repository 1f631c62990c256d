import { cpus, totalmem } from 'node:os';
import type { RedisMode } from './bench-redis.js';

export interface Machine {
  readonly cpus: number;
  readonly model: string;
  readonly memoryGb: number;
  readonly node: string;
  readonly at: string;
  /** The Redis the sections ran on (`--redis cluster`: three masters on loopback). */
  readonly redis: RedisMode;
}

/** What the figures were measured on: they mean little without it. */
export function describeMachine(redis: RedisMode): Machine {
  const cores = cpus();
  return {
    cpus: cores.length,
    model: cores[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    at: new Date().toISOString(),
    redis,
  };
}
