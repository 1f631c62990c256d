import type { WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { captureRemoteOrFail } from '../remote/capture-remote.js';
import { type JobContext, jobFolderName } from '../remote/detached-folder.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';
import { parseTofuPlanJson, replaceOnlyProblems, type TofuResourceChange } from './tofu-plan-changes.js';

/** A plan that replaces one tofu resource, saved per job on the ops host. */
export interface TofuReplacePlan {
  readonly resource: string;
  /** The tofu directory of the repo on the ops host. */
  readonly cwd: string;
  /** The plan file's name before a job is known (for `plan <command>`). */
  readonly placeholder: string;
  /**
   * The job's own plan file, named as its folders are (jobFolderName): a plan another run of the
   * same job id saved is never shown in this job's approval, applied by it or deleted by it.
   */
  fileOf(ctx: JobContext): string;
  planArgv(planFile: string): string[];
  applyArgv(planFile: string): string[];
  /** The changes, refused when they touch anything but the resource. */
  checked(changes: TofuResourceChange[]): TofuResourceChange[];
  /** The saved plan's changes (`tofu show -json`), checked. */
  show(ctx: StepContext, planFile: string): Promise<TofuResourceChange[]>;
  /** Deletes the saved plan: it can hold sensitive values, and is stale once applied or refused. */
  remove(ctx: StepContext, planFile: string): Promise<void>;
}

export function tofuReplacePlan(world: WorldConfig, resource: string): TofuReplacePlan {
  const cwd = repoPaths(world).tofu;
  // Under .terraform/ (which `tofu init` made, and repos ignore): outside the tracked tree.
  const fileNamed = (name: string) => `.terraform/cluster-bot-${name}.tfplan`;
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
  return {
    resource,
    cwd,
    placeholder: fileNamed('<job>-<tag>'),
    fileOf: (ctx) => fileNamed(jobFolderName(ctx)),
    planArgv: (planFile) => [
      'tofu',
      'plan',
      `-replace=${resource}`,
      `-out=${planFile}`,
      '-input=false',
      '-no-color',
    ],
    applyArgv: (planFile) => ['tofu', 'apply', '-input=false', '-no-color', planFile],
    checked,
    show: async (ctx, planFile) =>
      checked(
        parseTofuPlanJson(
          await captureRemoteOrFail(ctx, opsTarget(world), ['tofu', 'show', '-json', planFile], { cwd }),
        ),
      ),
    async remove(ctx, planFile) {
      await captureRemoteOrFail(ctx, opsTarget(world), ['rm', '-f', '--', planFile], { cwd });
    },
  };
}
