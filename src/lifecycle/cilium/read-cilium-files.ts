import { ClusterBotError } from '../../errors.js';
import { allInOrder } from '../all-in-order.js';
import type { StepContext } from '../plan/step.js';
import { captureRemoteOrFail } from '../remote/capture-remote.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';
import { readCiliumValues, type ValuesSource } from './cilium-values.js';
import { parityFieldsOf } from './parity-fields.js';

export interface CiliumFiles {
  readonly texts: Record<ValuesSource, string>;
  readonly values: Record<ValuesSource, Record<string, unknown>>;
  /** The fields each file marks `# [parity]`. */
  readonly marked: Record<ValuesSource, string[]>;
}

/** A file of the checkout, read once per commit like every repo file; a missing one stops the step. */
async function readCheckedOut(ctx: StepContext, relPath: string): Promise<string> {
  const text = await readRepoText(ctx, relPath);
  if (text === undefined) {
    throw new ClusterBotError(
      'COMMAND_FAILED',
      `${relPath} cannot be read on the ops host (${opsTarget(ctx.world).label})`,
    );
  }
  return text;
}

/**
 * The three places Cilium's values are written (HelmRelease, Ansible template, reference values):
 * as checked out on the ops host, or (`HEAD`) as committed, whatever the checkout holds.
 */
export async function readCiliumFiles(
  ctx: StepContext,
  at: 'checkout' | 'HEAD' = 'checkout',
): Promise<CiliumFiles> {
  const paths = repoPaths(ctx.world);
  const readAt = (path: string) =>
    at === 'HEAD'
      ? captureRemoteOrFail(
          ctx,
          opsTarget(ctx.world),
          ['git', 'show', `HEAD:${path.slice(paths.root.length + 1)}`],
          {
            cwd: paths.root,
          },
        )
      : readCheckedOut(ctx, path.slice(paths.root.length + 1));
  const files: Record<ValuesSource, string> = {
    helmrelease: paths.ciliumHelmRelease,
    template: paths.ciliumTemplate,
    reference: paths.ciliumReferenceValues,
  };
  const texts = {} as Record<ValuesSource, string>;
  const values = {} as Record<ValuesSource, Record<string, unknown>>;
  const marked = {} as Record<ValuesSource, string[]>;
  const sources = Object.entries(files) as [ValuesSource, string][];
  // Read at once; a missing or broken file is still named in the files' order.
  const read = await allInOrder(sources.map(([, path]) => readAt(path)));
  for (const [index, [source, path]] of sources.entries()) {
    texts[source] = read[index]!;
    marked[source] = parityFieldsOf(texts[source], source === 'helmrelease' ? undefined : '');
    try {
      values[source] = readCiliumValues(source, texts[source]);
    } catch (cause) {
      throw new ClusterBotError(
        'PRECONDITION_FAILED',
        `${path} is not valid YAML: ${(cause as Error).message}`,
        {
          cause,
        },
      );
    }
  }
  return { texts, values, marked };
}
