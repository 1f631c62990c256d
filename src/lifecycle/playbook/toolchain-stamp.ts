import { createHash } from 'node:crypto';
import type { StepContext } from '../plan/step.js';
import type { Captured, CaptureOptions } from '../remote/capture-remote.js';
import { captureRemote } from '../remote/capture-remote.js';
import { opsTarget } from '../targets.js';
import type { ToolchainPlaces } from './toolchain-places.js';

/**
 * One listing of every place the toolchain's answers come from, each file's inode, size and change
 * time (ctime: set by the kernel on any write, rename or chmod, never by a user), symlinks followed;
 * which `ansible*` programs PATH finds; and the variables that steer them. It is hashed on the host,
 * then the newest change time and the host's clock follow. A package install or upgrade renames a
 * dist-info folder and replaces files; a collection install writes its folder and MANIFEST.json; a
 * missing place is listed as find's error. Anything else find says (no -printf, a loop, no
 * permission), a tool missing, or a program PATH finds by a relative path means the places cannot
 * be known unchanged: no stamp.
 */
const STAMP_SCRIPT = `steering=$(env | grep -E '^(ANSIBLE_|PYTHON|PATH=|HOME=|LANG=|LC_)')
export LC_ALL=C
find / -maxdepth 0 -printf '' 2>/dev/null || exit 3
for tool in grep sort sha256sum cut awk date; do command -v "$tool" >/dev/null || exit 3; done
f='%C@ %i %s %T@ %y %m %p\\n'
listing=$(
  { printf '%s\\n' "$steering"
    for program in ansible ansible-config ansible-galaxy ansible-playbook; do
      found=$(command -v "$program") || found="no $program"
      printf 'runs %s\\n' "$found"
      case $found in
        /*) find -L "$found" -maxdepth 0 -printf "$f" 2>&1 ;;
        "no $program") ;;
        *) printf 'relative %s\\n' "$found" ;;
      esac
    done
    for place do
      path=\${place#*:}
      case $place in
        file:*) find -L "$path" -maxdepth 0 -printf "$f" ;;
        package:*) find -L "$path" -printf "$f" ;;
        collections:*) find -L "$path" -maxdepth 3 -printf "$f" ;;
        import:*) find -L "$path" -maxdepth 1 -printf "$f" ;;
      esac 2>&1
    done
  } | sort
)
if printf '%s\\n' "$listing" | grep '^find: ' | grep -qv ': No such file or directory$'; then exit 4; fi
if printf '%s\\n' "$listing" | grep -q '^relative '; then exit 5; fi
printf '%s\\n' "$listing" | sha256sum | cut -d ' ' -f 1
printf '%s\\n' "$listing" | awk '/^[0-9]/ { if ($1 + 0 > newest) newest = $1 + 0 } END { printf "%d\\n", newest }'
date +%s`;

export const TOOLCHAIN_STAMP_NAME = 'cluster-bot-toolchain-stamp';

/** Which script took a stamp: a kept stamp from another script is compared with nothing. */
export const TOOLCHAIN_STAMP_VERSION = createHash('sha256').update(STAMP_SCRIPT).digest('hex').slice(0, 16);

export interface ToolchainStamp {
  readonly digest: string;
  /** Seconds since anything listed last changed, by the host's clock. */
  readonly unchangedForSeconds: number;
}

/** The command taking the stamp on the ops host: a fixed script, the places its arguments. */
export function toolchainStampArgv(places: ToolchainPlaces): string[] {
  return [
    'sh',
    '-c',
    STAMP_SCRIPT,
    TOOLCHAIN_STAMP_NAME,
    ...places.files.map((path) => `file:${path}`),
    ...places.packages.map((path) => `package:${path}`),
    ...places.collections.map((path) => `collections:${path}`),
    ...places.importPath.map((path) => `import:${path}`),
  ];
}

/** The stamp the script printed, or undefined when it could not take one (it exits non-zero then). */
export function readToolchainStamp(
  answer: Pick<Captured, 'exitCode' | 'stdout'>,
): ToolchainStamp | undefined {
  const [digest, newest, now] = answer.stdout.split('\n');
  if (answer.exitCode !== 0 || !/^[0-9a-f]{64}$/.test(digest ?? '')) return undefined;
  // Nothing listed with a time: nothing was really looked at.
  if (!(Number(newest) > 0)) return undefined;
  const unchangedForSeconds = Number(now) - Number(newest);
  return Number.isFinite(unchangedForSeconds) ? { digest: digest!, unchangedForSeconds } : undefined;
}

/** The stamp of the places now, or undefined when the host could not take one. */
export async function stampToolchain(
  ctx: StepContext,
  places: ToolchainPlaces,
  options: CaptureOptions,
): Promise<ToolchainStamp | undefined> {
  return readToolchainStamp(
    await captureRemote(ctx, opsTarget(ctx.world), toolchainStampArgv(places), options),
  );
}
