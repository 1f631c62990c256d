import { posix } from 'node:path';
import { isClusterBotError } from '../../errors.js';
import { type ClusterVar, readClusterVar } from '../ansible/read-cluster-var.js';
import type { StepContext } from '../plan/step.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { repoPaths } from '../repo-paths.js';
import type { Precondition } from './precondition.js';
import { substituteShellParameters } from './substitute-shell-parameters.js';

const ROLE = 'flux_bootstrap';
const COMMAND_VAR = 'flux_bootstrap_flux_cmd';
const PATH_FLAG = /--path(?:=|\s+)(["']?)([^\s"']+)\1/g;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;

/**
 * flux-bootstrap.yml runs whatever `flux_bootstrap_flux_cmd` resolves to for this cluster (role
 * default, then group_vars, rendered as Ansible renders it). Today that is bootstrap/flux/bootstrap.sh
 * with --path=clusters/dev: run on prod, it would hand prod dev's manifests (the substitution
 * incident again). The path it would bootstrap, with the command's own arguments and environment
 * put into a parameterised script, must be the cluster's own; when the bot cannot tell, that is a
 * refusal too.
 */
export const fluxHandOff: Precondition = {
  label: 'Flux path',
  async check(ctx, repo) {
    const wanted = `clusters/${ctx.cluster.name}`;
    const cannotTell = (why: string) => [
      `cannot tell which path ${ctx.cluster.name}'s Flux hand-off would bootstrap: ${why}`,
    ];
    let entry: ClusterVar | undefined;
    try {
      entry = await readClusterVar(ctx, COMMAND_VAR, { role: ROLE });
    } catch (error) {
      if (!isClusterBotError(error, 'PRECONDITION_FAILED')) throw error;
      return cannotTell(error.message);
    }
    if (!entry)
      return cannotTell(`${COMMAND_VAR} is set neither in the ${ROLE} role's defaults nor in group_vars`);
    const { env, script, args } = splitCommand(entry.value);
    // The paths the command passes and the ones its script hard-codes: the script may ignore its arguments.
    const found = pathsIn(entry.value);
    let where = `${COMMAND_VAR} in ${entry.file}`;
    if (script.includes('/')) {
      const inRepo = repoRelative(ctx, script);
      if (inRepo === undefined) return cannotTell(`${where} runs ${script}, outside the repo`);
      const text = await readRepoText(ctx, inRepo);
      if (text === undefined && found.length === 0) {
        return cannotTell(`${inRepo} (named by ${where}) cannot be read`);
      }
      found.push(
        ...pathsIn(uncommented(text ?? '')).map((path) => substituteShellParameters(path, args, env)),
      );
      where = `${inRepo}, run by ${where}`;
    }
    const distinct = [...new Set(found)];
    if (distinct.length !== 1) {
      return cannotTell(
        distinct.length === 0
          ? `${where} passes no --path`
          : `${where} passes several: ${distinct.join(', ')}`,
      );
    }
    const path = distinct[0]!;
    if (path.includes('$') || path.includes('{{'))
      return cannotTell(`${where} passes --path=${path}, set at run time`);
    if (path === wanted) return [];
    return [
      `the Flux hand-off would bootstrap ${ctx.cluster.name} with --path=${path} (${where}), not ${wanted}: ` +
        `${ctx.cluster.name} would get ${path}'s manifests. Change bootstrap/ (or override ${COMMAND_VAR} for ${repo.hostGroup}) first`,
    ];
  },
};

/** `A=1 B=2 script arg…`, words unquoted: the environment the command sets, its script and arguments. */
function splitCommand(command: string) {
  const words = command
    .trim()
    .split(/\s+/)
    .map((word) => word.replace(/^(["'])(.*)\1$/, '$2'));
  const env: Record<string, string> = {};
  for (let match = ASSIGNMENT.exec(words[0] ?? ''); match && words.length > 1; ) {
    env[match[1]!] = match[2]!.replace(/^(["'])(.*)\1$/, '$2');
    words.shift();
    match = ASSIGNMENT.exec(words[0] ?? '');
  }
  return { env, script: words[0] ?? '', args: words.slice(1) };
}

/** The script's path from the repo root (an absolute path inside the checkout too), normalised; undefined outside it. */
function repoRelative(ctx: StepContext, script: string): string | undefined {
  const root = repoPaths(ctx.world).root;
  const normal = posix.normalize(script);
  const relative = normal.startsWith('/')
    ? normal.startsWith(`${root}/`)
      ? normal.slice(root.length + 1)
      : undefined
    : normal;
  return relative === undefined || relative.startsWith('..') ? undefined : relative;
}

function pathsIn(text: string): string[] {
  return [...text.matchAll(PATH_FLAG)].map((match) => match[2]!);
}

function uncommented(script: string): string {
  return script
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n');
}
