import { cpus, totalmem } from 'node:os';

export interface Machine {
  readonly cpus: number;
  readonly model: string;
  readonly memoryGb: number;
  readonly node: string;
  readonly at: string;
}

/** What the figures were measured on: they mean little without it. */
export function describeMachine(): Machine {
  const cores = cpus();
  return {
    cpus: cores.length,
    model: cores[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    at: new Date().toISOString(),
  };
}
