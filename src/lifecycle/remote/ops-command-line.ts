import type { WorldConfig } from '../../config/world-config.js';
import { quoteArgv } from '../quote-argv.js';

/** How a command on the ops host is shown to people: where it runs, and the exact quoted line. */
export function opsCommandLine(world: WorldConfig, cwd: string, argv: readonly string[]): string {
  return `[${world.ops.user}@${world.ops.host}] cd ${quoteArgv([cwd])} && ${quoteArgv(argv)}`;
}
