import type { WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { opsTarget } from '../targets.js';
import { captureRemote, captureRemoteOrFail } from './capture-remote.js';
import { repoPaths } from './repo-paths.js';
import { parseTofuPlanJson, replaceOnlyProblems, type TofuResourceChange } from './tofu-plan-changes.js';

const SUMMARY_LINE = /^(Plan: .*|\s*# .+ (will|must) be .*)$/;

/**
 * One job's saved `tofu plan -replace=<resource>` on the ops host: made for the approval, read
 * back (`tofu show -json`) before applying, applied as saved, then removed. Every read refuses a
 * plan that touches anything but the node's resource.
 */
export function tofuSavedPlan(world: WorldConfig, resource: string) {
  const cwd = repoPaths(world).tofu;
  // Under .terraform/ (which `tofu init` made, and repos ignore): outside the tracked tree.
  const fileNamed = (name: string) => `.terraform/cluster-bot-${name}.tfplan`;
  const fileOf = (jobId: string) => fileNamed(jobId.replace(/[^A-Za-z0-9_-]/g, '-'));
  const planArgv = (file: string) => [
    'tofu',
    'plan',
    `-replace=${resource}`,
    `-out=${file}`,
    '-input=false',
    '-no-color',
  ];
  const showArgv = (file: string) => ['tofu', 'show', '-json', file];
  const checked = (changes: TofuResourceChange[]) => {
    const problems = replaceOnlyProblems(changes, resource);
    if (problems.length > 0) {
      throw new ClusterBotError(
        'PRECONDITION_FAILED',
        `refused: the tofu plan must replace only ${resource}, but it touches ${problems.join('; ')}. ` +
          'Fix the tofu state or configuration first',
        { details: { resource, problems } },
      );
    }
    return changes;
  };
  const read = async (ctx: StepContext, file: string) => {
    return checked(
      parseTofuPlanJson(await captureRemoteOrFail(ctx, opsTarget(world), showArgv(file), { cwd })),
    );
  };
  return {
    cwd,
    placeholder: fileNamed('<job>'),
    fileOf,
    planArgv,
    applyArgv: (file: string) => ['tofu', 'apply', '-input=false', '-no-color', file],
    /** Plans and saves; returns the checked changes and the plan's summary lines for the approval. */
    async make(ctx: StepContext, file: string) {
      const plan = await captureRemote(ctx, opsTarget(world), planArgv(file), {
        cwd,
        timeoutMs: ctx.cluster.timeouts.playbook,
      });
      if (plan.exitCode !== 0) {
        throw new ClusterBotError(
          'COMMAND_FAILED',
          `tofu plan -replace=${resource} exited ${plan.exitCode}: ${plan.stderr.trim().split('\n').slice(-3).join(' ')}`,
          { details: { exitCode: plan.exitCode } },
        );
      }
      const summary = plan.stdout.split('\n').filter((line) => SUMMARY_LINE.test(line));
      return { changes: await read(ctx, file), summary: summary.map((line) => line.trim()) };
    },
    read,
    /** The saved plan's changes, or undefined when there is none to read. */
    async readIfSaved(ctx: StepContext, file: string) {
      const shown = await captureRemote(ctx, opsTarget(world), showArgv(file), { cwd });
      return shown.exitCode === 0 ? checked(parseTofuPlanJson(shown.stdout)) : undefined;
    },
    /** A saved plan can hold sensitive values, and is stale once applied (or tried). */
    async remove(ctx: StepContext, file: string) {
      await captureRemote(ctx, opsTarget(world), ['rm', '-f', '--', file], { cwd }).catch(() => undefined);
    },
  };
}
