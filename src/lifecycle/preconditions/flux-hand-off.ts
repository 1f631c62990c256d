import { roleDefaultsFile } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { layerVars, renderVar } from '../repo/repo-vars.js';
import type { Precondition } from './precondition.js';

const COMMAND_VAR = 'flux_bootstrap_flux_cmd';
const PATH_FLAG = /--path(?:=|\s+)(["']?)([^\s"']+)\1/g;

/**
 * flux-bootstrap.yml runs whatever `flux_bootstrap_flux_cmd` resolves to for this cluster. Today
 * that is bootstrap/flux/bootstrap.sh with --path=clusters/dev: run on prod, it would hand prod
 * dev's manifests (the substitution incident again). The path it would bootstrap must be the
 * cluster's own; when the bot cannot tell, that is a refusal too.
 */
export const fluxHandOff: Precondition = {
  label: 'Flux path',
  async check(ctx, repo) {
    const wanted = `clusters/${ctx.cluster.name}`;
    const defaultsFile = roleDefaultsFile('flux_bootstrap');
    const vars = new Map([
      ...layerVars([{ file: defaultsFile, text: await readRepoText(ctx, defaultsFile) }]),
      ...repo.vars,
    ]);
    const entry = vars.get(COMMAND_VAR);
    const cannotTell = (why: string) => [
      `cannot tell which path ${ctx.cluster.name}'s Flux hand-off would bootstrap: ${why}`,
    ];
    if (!entry) return cannotTell(`${COMMAND_VAR} is set neither in ${defaultsFile} nor in group_vars`);
    const command = renderVar(vars, COMMAND_VAR);
    if (command === undefined) {
      return cannotTell(
        `${COMMAND_VAR} in ${entry.file} is a template the bot cannot resolve (${String(entry.value)})`,
      );
    }
    // The paths the command passes and the ones its script hard-codes: the script may ignore its arguments.
    const found = pathsIn(command);
    let where = `${COMMAND_VAR} in ${entry.file}`;
    const script = command.trim().split(/\s+/)[0] ?? '';
    if (script.includes('/')) {
      if (script.startsWith('/') || script.split('/').includes('..')) {
        return cannotTell(`${COMMAND_VAR} in ${entry.file} runs ${script}, outside the repo`);
      }
      const text = await readRepoText(ctx, script);
      if (text === undefined && found.length === 0) {
        return cannotTell(`${script} (named by ${COMMAND_VAR} in ${entry.file}) cannot be read`);
      }
      found.push(...pathsIn(uncommented(text ?? '')));
      where = `${script}, run by ${COMMAND_VAR} in ${entry.file}`;
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

function pathsIn(text: string): string[] {
  return [...text.matchAll(PATH_FLAG)].map((match) => match[2]!);
}

function uncommented(script: string): string {
  return script
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .join('\n');
}
