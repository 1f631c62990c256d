import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolchainPlaces } from '../../src/lifecycle/playbook/toolchain-places.js';
import { readToolchainStamp, toolchainStampArgv } from '../../src/lifecycle/playbook/toolchain-stamp.js';

const run = promisify(execFile);

/**
 * A small ops host of real files, stamped by the script itself with this machine's sh, find and
 * sha256sum: an Ansible in a venv-like folder, a collections folder reached through a symlink (as a
 * shared one often is), and PATH finding the `ansible*` programs in `bin`.
 */
let root: string;
let places: ToolchainPlaces;
let env: Record<string, string>;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'cb-toolchain-'));
  const site = join(root, 'lib/site-packages');
  await mkdir(join(site, 'ansible'), { recursive: true });
  await writeFile(join(site, 'ansible/release.py'), "__version__ = '2.14.18'\n");
  await mkdir(join(site, 'jinja2-3.1.2.dist-info'));
  await mkdir(join(root, 'bin'));
  for (const program of ['ansible', 'ansible-config', 'ansible-galaxy', 'ansible-playbook', 'python3']) {
    await writeFile(join(root, 'bin', program), '#!/bin/sh\n');
    await chmod(join(root, 'bin', program), 0o755);
  }
  await writeCollection(join(root, 'shared/ansible_collections'), 'kubernetes', 'core', '2.3.2');
  await mkdir(join(root, 'home/.ansible/collections'), { recursive: true });
  await symlink(
    join(root, 'shared/ansible_collections'),
    join(root, 'home/.ansible/collections/ansible_collections'),
  );
  places = {
    files: [join(root, 'bin/ansible'), join(root, 'bin/python3')],
    packages: [join(site, 'ansible')],
    collections: [join(root, 'home/.ansible/collections/ansible_collections')],
    importPath: [site, join(root, 'home/.local/lib/python3.11/site-packages')],
  };
  env = { PATH: `${join(root, 'bin')}:/usr/bin:/bin`, HOME: join(root, 'home') };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeCollection(folder: string, namespace: string, name: string, version: string) {
  await mkdir(join(folder, namespace, name), { recursive: true });
  const manifest = join(folder, namespace, name, 'MANIFEST.json');
  // As ansible-galaxy installs one: a new file, never the old one rewritten.
  await writeFile(`${manifest}.new`, JSON.stringify({ collection_info: { namespace, name, version } }));
  await rename(`${manifest}.new`, manifest);
}

async function stamp(extraEnv: Record<string, string> = {}) {
  const answer = await run(toolchainStampArgv(places)[0]!, toolchainStampArgv(places).slice(1), {
    cwd: root,
    env: { ...env, ...extraEnv },
  }).then(
    ({ stdout }) => ({ exitCode: 0, stdout: stdout.trimEnd() }),
    (error: { code: number; stdout: string }) => ({ exitCode: error.code, stdout: error.stdout.trimEnd() }),
  );
  return readToolchainStamp(answer);
}

describe('the toolchain stamp, taken by its script on real files', () => {
  it('is the same while nothing changes, and says how long the places have been still', async () => {
    const first = await stamp();
    expect(first?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(first!.unchangedForSeconds).toBeGreaterThanOrEqual(0);
    expect((await stamp())?.digest).toBe(first!.digest);
  });

  it.each([
    [
      'a collection upgraded behind a symlinked collections folder',
      () => writeCollection(join(root, 'shared/ansible_collections'), 'kubernetes', 'core', '3.0.0'),
    ],
    [
      'a collection installed where a collections folder was missing',
      () => writeCollection(join(root, 'home/.local/lib/python3.11/site-packages'), 'acme', 'demo', '1.0.0'),
    ],
    [
      'a package upgraded beside Ansible (its dist-info renamed)',
      () =>
        rename(
          join(root, 'lib/site-packages/jinja2-3.1.2.dist-info'),
          join(root, 'lib/site-packages/jinja2-3.1.3.dist-info'),
        ),
    ],
    [
      'ansible-core replaced',
      async () => {
        await rm(join(root, 'lib/site-packages/ansible/release.py'));
        await writeFile(join(root, 'lib/site-packages/ansible/release.py'), "__version__ = '2.17.0'\n");
      },
    ],
    [
      'another ansible earlier on PATH (a venv linked into /usr/local/bin)',
      async () => {
        await mkdir(join(root, 'venv/bin'), { recursive: true });
        await writeFile(join(root, 'venv/bin/ansible-playbook'), '#!/bin/sh\n');
        await chmod(join(root, 'venv/bin/ansible-playbook'), 0o755);
        env = { ...env, PATH: `${join(root, 'venv/bin')}:${env.PATH}` };
      },
    ],
    [
      'a variable Ansible reads',
      async () => {
        env = { ...env, ANSIBLE_COLLECTIONS_SCAN_SYS_PATH: 'false' };
      },
    ],
  ])('changes with %s', async (_change, change) => {
    const before = await stamp();
    await change();
    const after = await stamp();
    expect(after?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(after!.digest).not.toBe(before!.digest);
  });

  it('is not taken where find cannot list (BusyBox has no -printf), PATH is relative, or find meets a loop: the read is whole then', async () => {
    const busybox = join(root, 'busybox-bin');
    await mkdir(busybox);
    await symlink('/usr/bin/busybox', join(busybox, 'find'));
    expect(await stamp({ PATH: `${busybox}:${env.PATH}` })).toBeUndefined();

    // PATH finding an ansible program by a relative path: which file runs depends on the cwd.
    expect(await stamp({ PATH: `bin:${env.PATH}` })).toBeUndefined();

    expect(await stamp()).toBeDefined();
    await symlink(
      join(root, 'shared/ansible_collections'),
      join(root, 'shared/ansible_collections/kubernetes/loop'),
    );
    expect(await stamp()).toBeUndefined();
  });
});
