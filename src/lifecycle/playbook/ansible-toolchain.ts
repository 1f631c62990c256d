import { createHash } from 'node:crypto';
import { ansibleEnv, ansibleSettingsEnv } from '../ansible/ansible-env.js';
import {
  ANSIBLE_VERSION_ARGV,
  readAnsibleVersion,
  rememberAnsibleVersion,
} from '../ansible/ops-ansible-version.js';
import type { StepContext } from '../plan/step.js';
import { type Captured, captureRemote } from '../remote/capture-remote.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';
import { ansiblePython, type ToolchainPlaces, toolchainPlaces } from './toolchain-places.js';
import { stampToolchain, TOOLCHAIN_STAMP_VERSION } from './toolchain-stamp.js';

const READS = [
  ANSIBLE_VERSION_ARGV,
  ['ansible-config', 'dump', '--only-changed'],
  ['ansible-galaxy', 'collection', 'list'],
];

/** Python's import path and the user's site folder (which joins it once it exists), a line each. */
const IMPORT_PATH_PROGRAM =
  'import site, sys; print("\\n".join([p for p in sys.path if p] + [site.getusersitepackages()]))';

/** The job's last whole read (its digest), with the stamp its places had just after it. */
interface KeptToolchain {
  readonly stampVersion: string;
  readonly stamp: string;
  /** When it was read, by the bot's clock. */
  readonly keptAt: number;
  readonly places: ToolchainPlaces;
  readonly toolchain: string;
  /** `ansible --version` as read then: the run's ansible.cfg check takes it. */
  readonly version: Captured;
}

const KEPT_FACT = 'ansibleToolchain';

/**
 * A change this close to the read (seconds, beyond the read's own time) may have landed between the
 * read and the stamp: such a read is not kept, and the next one is whole again.
 */
const SETTLE_SECONDS = 2;

/** A stamp proves its places unchanged; a read this old is read whole again all the same. */
const KEPT_FOR_MS = 60 * 60_000;

/**
 * What runs a playbook besides the commit, as a digest: Ansible's version (and the config file it
 * names), every setting that config changes from the defaults, and the installed collections with
 * their versions. None of it is in git, so an approval binds it too: upgrading Ansible or a
 * collection between approval and run voids the approval.
 *
 * Reading it starts Python three times (half a second each on a small ops host), when an approval is
 * asked and again when it resumes. So the job keeps its last read with a stamp of every place the
 * answers come from, and while the stamp is the same (and the read under an hour old) the kept read
 * serves; any change there, or a host that cannot take a stamp, reads it whole again.
 */
export async function ansibleToolchain(ctx: StepContext): Promise<string> {
  // The stamp lists the ANSIBLE_* variables alone (not KUBECONFIG): it needs no repo read to start.
  const stampOptions = { cwd: repoPaths(ctx.world).ansible, env: ansibleSettingsEnv(ctx) };
  const kept = keptToolchain(ctx);
  if (kept && (await stampToolchain(ctx, kept.places, stampOptions))?.digest === kept.stamp) {
    // The same places give the same answers: this run's ansible.cfg check takes the kept one too.
    rememberAnsibleVersion(ctx, kept.version);
    return kept.toolchain;
  }

  const startedAt = ctx.clock.now();
  const options = { ...stampOptions, env: await ansibleEnv(ctx) };
  const version = readAnsibleVersion(ctx);
  const importPath = version.then((answer) => readImportPath(ctx, answer, options));
  const [answers, importPathAnswer] = await Promise.all([
    Promise.all([
      version,
      ...READS.slice(1).map((argv) => captureRemote(ctx, opsTarget(ctx.world), argv, options)),
    ]),
    importPath,
  ]);
  const toolchain = createHash('sha256')
    .update(
      answers
        .map((answer, index) => `${READS[index]!.join(' ')} (exit ${answer.exitCode})\n${answer.stdout}`)
        .join('\n'),
    )
    .digest('hex');
  const places = toolchainPlaces(answers[0]!.stdout, answers[2]!.stdout, importPathAnswer?.stdout ?? '');
  if (places) {
    const stamp = await stampToolchain(ctx, places, stampOptions);
    const readSeconds = (ctx.clock.now() - startedAt) / 1_000;
    if (stamp && stamp.unchangedForSeconds > readSeconds + SETTLE_SECONDS) {
      await ctx.facts.set(KEPT_FACT, {
        stampVersion: TOOLCHAIN_STAMP_VERSION,
        stamp: stamp.digest,
        keptAt: startedAt,
        places,
        toolchain,
        version: answers[0]!,
      } satisfies KeptToolchain);
    }
  }
  return toolchain;
}

/** The kept read when it is this script's, young enough and whole (a fact from another version is not). */
function keptToolchain(ctx: StepContext): KeptToolchain | undefined {
  const kept = ctx.facts.get<Partial<KeptToolchain>>(KEPT_FACT);
  const paths = (value: unknown) =>
    Array.isArray(value) && value.every((path) => typeof path === 'string' && path.startsWith('/'));
  const whole =
    kept?.stampVersion === TOOLCHAIN_STAMP_VERSION &&
    typeof kept.stamp === 'string' &&
    typeof kept.toolchain === 'string' &&
    typeof kept.keptAt === 'number' &&
    typeof kept.version?.stdout === 'string' &&
    ['files', 'packages', 'collections', 'importPath'].every((key) =>
      paths(kept.places?.[key as keyof ToolchainPlaces]),
    );
  return whole && ctx.clock.now() - kept.keptAt! < KEPT_FOR_MS ? (kept as KeptToolchain) : undefined;
}

/** Python's import path as the Python `ansible --version` names reads it, with the same env. */
async function readImportPath(
  ctx: StepContext,
  version: Captured,
  options: { cwd: string; env: Record<string, string> },
): Promise<Captured | undefined> {
  const python = ansiblePython(version.stdout);
  if (python === undefined) return undefined;
  return captureRemote(ctx, opsTarget(ctx.world), [python, '-c', IMPORT_PATH_PROGRAM], options);
}
