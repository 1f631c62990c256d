import { describe, expect, it } from 'vitest';
import { checkSecretFiles, type FileOwnership } from '../../src/config/check-secret-files.js';
import { loadWorldConfig } from '../../src/config/load-world-config.js';
import { isClusterBotError } from '../../src/errors.js';

const world = await loadWorldConfig(new URL('../../config/example.yaml', import.meta.url).pathname);
const BOT = { uid: 10001, gid: 10001 };

async function problemsWith(files: Record<string, FileOwnership>): Promise<string[]> {
  try {
    await checkSecretFiles(world, {
      ...BOT,
      stat: async (path) => {
        const file = files[path];
        if (!file) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
        return file;
      },
    });
    return [];
  } catch (error) {
    if (isClusterBotError(error, 'CONFIG_INVALID')) return error.details.problems as string[];
    throw error;
  }
}

describe('secret-bearing files', () => {
  it('refuses a key or kubeconfig others can read, naming the path and the mode', async () => {
    expect(
      await problemsWith({
        '/run/secrets/ssh/id_ed25519': { mode: 0o100640, ...BOT },
        '/run/secrets/kube/dev.kubeconfig': { mode: 0o100604, uid: 0, gid: 0 },
        '/run/secrets/kube/prod.kubeconfig': { mode: 0o100600, ...BOT },
      }),
    ).toEqual([
      '/run/secrets/ssh/id_ed25519: mode 0640 lets other users read this secret (group-readable); chmod 600 it',
      '/run/secrets/kube/dev.kubeconfig: mode 0604 lets other users read this secret (world-readable); chmod 600 it',
    ]);
  });

  it("accepts 0600/0400 files, and a root-owned file only the bot's group may read (a Secret volume with fsGroup)", async () => {
    expect(
      await problemsWith({
        '/run/secrets/ssh/id_ed25519': { mode: 0o100440, uid: 0, gid: 10001 },
        '/run/secrets/kube/dev.kubeconfig': { mode: 0o100600, ...BOT },
        '/run/secrets/kube/prod.kubeconfig': { mode: 0o100400, ...BOT },
      }),
    ).toEqual([]);
    expect(
      await problemsWith({ '/run/secrets/ssh/id_ed25519': { mode: 0o100440, uid: 0, gid: 0 } }),
    ).toHaveLength(1);
  });

  it('refuses a known_hosts file others may write, naming the key that names it', async () => {
    expect(
      await problemsWith({
        '/run/secrets/ssh/known_hosts': { mode: 0o100664, ...BOT },
      }),
    ).toEqual([
      'ops.knownHostsPath (/run/secrets/ssh/known_hosts): mode 0664 lets other users write the host keys the bot trusts (group-writable); chmod go-w it',
    ]);
    expect(
      await problemsWith({ '/run/secrets/ssh/known_hosts': { mode: 0o100646, uid: 0, gid: 10001 } }),
    ).toEqual([
      expect.stringContaining(
        'mode 0646 lets other users write the host keys the bot trusts (world-writable)',
      ),
    ]);
    // Read-only for others, as a Secret volume mounts it: accepted.
    expect(
      await problemsWith({ '/run/secrets/ssh/known_hosts': { mode: 0o100444, uid: 0, gid: 10001 } }),
    ).toEqual([]);
  });
});
