import { createScriptedShell, type ShellCall } from './scripted-shell.js';

const REPO_COMMIT = '0123456789abcdef0123456789abcdef01234567';

/**
 * The ops host as tofu answers there, its saved plans kept by file name: `tofu plan -out=<file>`
 * saves one replacing its -replace resource, `tofu show -json` reads it (exit 1 when there is none),
 * `tofu apply <file>` applies and consumes it, `rm -f` deletes it. Each plan says whose it is
 * (`by`), so a test can tell a job's own plan from one another run saved at a path it also names.
 */
export function createTofuOpsHost() {
  const plans = new Map<string, { resource: string; by: string }>();
  const applied: { file: string; by: string }[] = [];
  const shell = createScriptedShell((call: ShellCall) => {
    const [command, verb] = call.argv;
    if (command === 'git') return { stdout: [REPO_COMMIT] };
    if (command === 'rm') {
      plans.delete(call.argv.at(-1)!);
      return undefined;
    }
    if (command !== 'tofu') return undefined;
    if (verb === 'plan') {
      const resource = option(call, '-replace=');
      plans.set(option(call, '-out='), { resource, by: 'this job' });
      return { stdout: [`  # ${resource} will be replaced`, 'Plan: 1 to add, 0 to change, 1 to destroy.'] };
    }
    const file = call.argv.at(-1)!;
    const plan = plans.get(file);
    if (!plan)
      return { exitCode: 1, stderr: [`Failed to read the given file as a state or plan file: ${file}`] };
    if (verb === 'show') {
      const changes = [{ address: plan.resource, change: { actions: ['delete', 'create'] } }];
      return { stdout: [JSON.stringify({ resource_changes: changes })] };
    }
    if (verb === 'apply') {
      plans.delete(file);
      applied.push({ file, by: plan.by });
    }
    return undefined;
  });
  return {
    shell,
    /** Saved plans by file name (relative to the tofu directory). */
    plans,
    /** Each plan applied, in order. */
    applied,
  };
}

function option(call: ShellCall, prefix: string): string {
  const value = call.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
  if (value === undefined) throw new Error(`${call.argv.join(' ')} has no ${prefix}`);
  return value;
}
