import type { StepContext } from '../plan/step.js';
import type { CaptureOptions } from '../remote/capture-remote.js';
import { captureRemote } from '../remote/capture-remote.js';
import { opsTarget } from '../targets.js';
import type { ToolchainPlaces } from './toolchain-places.js';

/**
 * One listing of every place the toolchain's answers come from, with each inode, size and change
 * time (ctime: set by the kernel on any write, rename or chmod, never by a user), and the ANSIBLE_*
 * and PYTHON* variables a run gets, hashed on the host; then the newest change time and the host's
 * clock. A package install or upgrade renames a dist-info folder and replaces files; a collection
 * install writes its folder and MANIFEST.json; a missing place is listed as find's error.
 */
const STAMP_SCRIPT = `export LC_ALL=C
f='%C@ %i %s %T@ %y %m %p\\n'
listing=$(
  { env | grep -E '^(ANSIBLE_|PYTHON)'
    for place do
      path=\${place#*:}
      case $place in
        file:*) find -L "$path" -maxdepth 0 -printf "$f" ;;
        package:*) find "$path" -printf "$f" ;;
        collections:*) find "$path" -maxdepth 3 -printf "$f" ;;
        import:*) find "$path" -maxdepth 1 -printf "$f" ;;
      esac 2>&1
    done
  } | sort
)
printf '%s\\n' "$listing" | sha256sum | cut -d ' ' -f 1
printf '%s\\n' "$listing" | awk '/^[0-9]/ { if ($1 + 0 > newest) newest = $1 + 0 } END { printf "%d\\n", newest }'
date +%s`;

export const TOOLCHAIN_STAMP_NAME = 'cluster-bot-toolchain-stamp';

export interface ToolchainStamp {
  readonly digest: string;
  /** Seconds since anything listed last changed, by the host's clock. */
  readonly unchangedForSeconds: number;
}

/** The stamp of the places now, or undefined when the host could not take one (no GNU find, say). */
export async function stampToolchain(
  ctx: StepContext,
  places: ToolchainPlaces,
  options: CaptureOptions,
): Promise<ToolchainStamp | undefined> {
  const args = [
    ...places.files.map((path) => `file:${path}`),
    ...places.packages.map((path) => `package:${path}`),
    ...places.collections.map((path) => `collections:${path}`),
    ...places.importPath.map((path) => `import:${path}`),
  ];
  const answer = await captureRemote(
    ctx,
    opsTarget(ctx.world),
    ['sh', '-c', STAMP_SCRIPT, TOOLCHAIN_STAMP_NAME, ...args],
    options,
  );
  const [digest, newest, now] = answer.stdout.split('\n');
  if (answer.exitCode !== 0 || !/^[0-9a-f]{64}$/.test(digest ?? '')) return undefined;
  const unchangedForSeconds = Number(now) - Number(newest);
  return Number.isFinite(unchangedForSeconds) ? { digest: digest!, unchangedForSeconds } : undefined;
}
