import { readFile } from 'node:fs/promises';
import { parseYamlDocuments } from './parse-yaml-documents.js';
import { repoPath } from './repo-path.js';

export interface ComposeService {
  image?: string;
  build?: { context: string; target?: string };
  command?: unknown[];
  environment?: Record<string, unknown>;
  ports?: string[];
  volumes?: string[];
  tmpfs?: string[];
  read_only?: boolean;
  cap_drop?: string[];
  security_opt?: string[];
  user?: string;
  privileged?: boolean;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

export interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

/** docker-compose.yaml with its `<<` merges resolved, as `docker compose config` would. */
export async function readCompose(): Promise<Compose> {
  const path = repoPath('docker-compose.yaml');
  const [compose] = parseYamlDocuments(await readFile(path, 'utf8'), path, { merge: true });
  return compose as Compose;
}

/**
 * A service's environment after `${NAME}`, `${NAME:-default}` and `${NAME:?error}` interpolation
 * from an .env file's values; a required variable missing from it throws, like compose does.
 */
export function composeEnvironment(
  service: ComposeService,
  dotEnv: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [
      name,
      String(value).replace(
        /\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
        (_, variable: string, kind, text: string) => {
          const set = dotEnv[variable];
          if (set !== undefined && set !== '') return set;
          if (kind === '?') throw new Error(`${name}: ${text}`);
          return kind === '-' ? text : '';
        },
      ),
    ]),
  );
}
