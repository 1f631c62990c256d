import { ClusterBotError } from '../errors.js';
import type { ExecRequest } from '../lifecycle/ports/remote-shell.js';
import { quoteShellArgument } from '../lifecycle/quote-argv.js';

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * The shell line for a request: `cd -- 'dir' && env NAME='v' 'prog' 'arg'...`. Every piece of caller
 * text is quoted; nothing else reaches the remote shell.
 */
export function buildRemoteCommand(request: Pick<ExecRequest, 'argv' | 'cwd' | 'env'>): string {
  if (request.argv.length === 0) {
    throw new ClusterBotError('COMMAND_INVALID', 'A remote command needs at least a program name');
  }
  const words = request.argv.map(quoteShellArgument);
  const env = Object.entries(request.env ?? {});
  if (env.length > 0) {
    const assignments = env.map(([name, value]) => {
      if (!ENV_NAME.test(name)) {
        throw new ClusterBotError(
          'COMMAND_INVALID',
          `Invalid environment variable name ${JSON.stringify(name)}`,
          {
            details: { name },
          },
        );
      }
      return `${name}=${quoteShellArgument(value)}`;
    });
    words.unshift('env', ...assignments);
  }
  const command = words.join(' ');
  return request.cwd === undefined ? command : `cd -- ${quoteShellArgument(request.cwd)} && ${command}`;
}
