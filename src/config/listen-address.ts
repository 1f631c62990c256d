import type { Env } from './read-env.js';

/** Where one listener binds: its port on the process's one bind address (HOST). */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export function listenAddress(
  env: Pick<Env, 'HOST' | 'PORT' | 'OPS_PORT'>,
  port: 'PORT' | 'OPS_PORT',
): ListenAddress {
  return { host: env.HOST, port: env[port] };
}
