import { ClusterBotError } from '../../src/errors.js';
import type { RemoteShell } from '../../src/lifecycle/ports/remote-shell.js';
import { probeDetached, pruneDetached, runDetached } from '../../src/ssh/run-detached.js';

/**
 * One worker's shell, which dies with it: from `death` on, its commands fail (a dead worker tries
 * nothing again and follows nothing) and their output reaches no one. The ssh shell below is the
 * real one; a detached command's own follow and retries run over these execs, so they die too,
 * while the command itself goes on on its host.
 */
export function createMortalShell(shell: RemoteShell, death: Promise<void>): RemoteShell {
  let dead = false;
  const died = death.then(() => {
    dead = true;
    throw new ClusterBotError('INTERNAL', 'the worker was killed');
  });
  died.catch(() => undefined);
  const exec: RemoteShell['exec'] = (target, request) => {
    if (dead) return died;
    const running = shell.exec(target, {
      ...request,
      onLine: (line, stream) => (dead ? undefined : request.onLine?.(line, stream)),
    });
    // What the dead worker's connection still brings is nobody's.
    running.catch(() => undefined);
    return Promise.race([running, died]);
  };
  return {
    exec,
    runDetached: (target, request) => runDetached(exec, target, request),
    probeDetached: (...probe) => probeDetached(exec, ...probe),
    pruneDetached: (target, request) => pruneDetached(exec, target, request),
    probeHostKey: (target, timeoutMs) => shell.probeHostKey(target, timeoutMs),
  };
}
