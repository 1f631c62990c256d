import type { StepContext } from '../plan/step.js';
import { ansibleDebug } from './ansible-debug.js';

const MAX_REASON = 300;

/** What Ansible rendered, or why it could not. */
export type AnsibleRendering = { readonly value: string } | { readonly failure: string };

/**
 * Has Ansible itself render a template for one inventory host on the ops host (an ad-hoc `debug`,
 * which connects to nothing): its group_vars, host vars and filters, with `playbook_dir` and the
 * magic variables given. The template travels as one JSON argument, never through a shell.
 */
export async function renderWithAnsible(
  ctx: StepContext,
  host: string,
  template: string,
  magic: Readonly<Record<string, string>>,
): Promise<AnsibleRendering> {
  const { playbook_dir: playbookDir, ...others } = magic;
  const extra: string[] = [];
  if (playbookDir) extra.push('--playbook-dir', playbookDir);
  if (Object.keys(others).length > 0) extra.push('-e', JSON.stringify(others));
  const { exitCode, stdout, stderr } = await ansibleDebug(
    ctx,
    host,
    JSON.stringify({ msg: template }),
    extra,
  );
  const answer = parseAnswer(stdout);
  if (exitCode === 0 && typeof answer?.msg === 'string') return { value: answer.msg };
  // Ansible repeats its reason once per nested template: its first line says it.
  const why = typeof answer?.msg === 'string' ? answer.msg.split('\n')[0] : stderr.trim().split('\n').at(-1);
  return { failure: why?.slice(0, MAX_REASON) || `ansible exited ${exitCode}` };
}

function parseAnswer(stdout: string): { msg?: unknown } | undefined {
  const start = stdout.indexOf('{');
  if (start < 0) return undefined;
  try {
    return JSON.parse(stdout.slice(start)) as { msg?: unknown };
  } catch {
    return undefined;
  }
}
