import { describe, expect, it } from 'vitest';
import { createRepoFileCache, type KeptRepoFiles } from '../../src/lifecycle/repo/repo-file-cache.js';

/** An ops host's repo as the cache reaches it, counting what it is asked. */
function opsRepo(files: Record<string, string>, head = 'c1') {
  const asked = { heads: 0, reads: [] as string[] };
  let commit = head;
  return {
    asked,
    move: (next: string) => {
      commit = next;
    },
    head: (cache: ReturnType<typeof createRepoFileCache>) => async () => {
      asked.heads += 1;
      cache.commitSeen(commit);
      return commit;
    },
    load: (path: string) => async () => {
      asked.reads.push(path);
      return files[path];
    },
  };
}

describe('the repo files a job reads, once per commit', () => {
  it('learns HEAD once before its first read, then reads each file once, absent ones included', async () => {
    const repo = opsRepo({ 'hosts.ini': '[k3s_servers]' });
    const cache = createRepoFileCache(undefined, async () => {});
    const read = (path: string) => cache.read(path, repo.head(cache), repo.load(path));
    expect(await Promise.all([read('hosts.ini'), read('hosts.ini'), read('missing.yml')])).toEqual([
      '[k3s_servers]',
      '[k3s_servers]',
      undefined,
    ]);
    expect(await read('missing.yml')).toBeUndefined();
    expect(repo.asked).toEqual({ heads: 1, reads: ['hosts.ini', 'missing.yml'] });
  });

  it('forgets every file when a HEAD read finds another commit (an approval re-check after a push)', async () => {
    const repo = opsRepo({ 'all.yml': 'k3s_version: v1.31.4+k3s1' });
    const cache = createRepoFileCache(undefined, async () => {});
    const head = repo.head(cache);
    await cache.read('all.yml', head, repo.load('all.yml'));
    repo.move('c2');
    await head();
    await cache.read('all.yml', head, repo.load('all.yml'));
    expect(repo.asked.reads).toEqual(['all.yml', 'all.yml']);
  });

  it('serves the next run of the job what the last one kept, only while HEAD is still that commit', async () => {
    let kept: KeptRepoFiles | undefined;
    const keep = async (files: KeptRepoFiles) => {
      kept = files;
    };
    const repo = opsRepo({ 'hosts.ini': 'v1' });
    const first = createRepoFileCache(undefined, keep);
    await first.read('hosts.ini', repo.head(first), repo.load('hosts.ini'));
    expect(kept).toEqual({ commit: 'c1', files: { 'hosts.ini': 'v1' } });

    const second = createRepoFileCache(kept, keep);
    expect(await second.read('hosts.ini', repo.head(second), repo.load('hosts.ini'))).toBe('v1');
    expect(repo.asked.reads).toEqual(['hosts.ini']);

    repo.move('c2');
    const third = createRepoFileCache(kept, keep);
    await third.read('hosts.ini', repo.head(third), repo.load('hosts.ini'));
    expect(repo.asked.reads).toEqual(['hosts.ini', 'hosts.ini']);
    expect(kept?.commit).toBe('c2');
  });

  it('keeps no failed read: the next one asks the host again', async () => {
    const repo = opsRepo({ 'vars.yml': 'x' });
    const cache = createRepoFileCache(undefined, async () => {});
    const lost = async () => {
      throw new Error('SSH connection lost');
    };
    await expect(cache.read('vars.yml', repo.head(cache), lost)).rejects.toThrow('SSH connection lost');
    expect(await cache.read('vars.yml', repo.head(cache), repo.load('vars.yml'))).toBe('x');
  });
});

describe('what Ansible answers about the repo, once per commit a run', () => {
  /** `ansible --version` as the ops host answers it, counting the times it is asked. */
  function ansible() {
    let asked = 0;
    return {
      asked: () => asked,
      version: async () => {
        asked += 1;
        return `config file = /repo/ansible.cfg (${asked})`;
      },
    };
  }

  it('asks once while HEAD stays, reading HEAD every time, and again at a new commit', async () => {
    const repo = opsRepo({});
    const ops = ansible();
    const cache = createRepoFileCache(undefined, async () => {});
    const ask = () => cache.once('ansible --version', repo.head(cache), ops.version);
    expect(await Promise.all([ask(), ask()])).toEqual([
      'config file = /repo/ansible.cfg (1)',
      'config file = /repo/ansible.cfg (1)',
    ]);
    expect(await ask()).toBe('config file = /repo/ansible.cfg (1)');
    expect(repo.asked.heads).toBe(3);
    repo.move('c2');
    expect(await ask()).toBe('config file = /repo/ansible.cfg (2)');
  });

  it('takes the answer just read afresh at this commit (an approval binding Ansible) instead of asking again', async () => {
    const repo = opsRepo({});
    const ops = ansible();
    const cache = createRepoFileCache(undefined, async () => {});
    await repo.head(cache)();
    cache.remember('ansible --version', await ops.version());
    expect(await cache.once('ansible --version', repo.head(cache), ops.version)).toBe(
      'config file = /repo/ansible.cfg (1)',
    );
    expect(ops.asked()).toBe(1);
  });

  it('takes an answer remembered before the run first read HEAD (a resume proving Ansible unchanged), but not past a new commit', async () => {
    const repo = opsRepo({});
    const ops = ansible();
    const cache = createRepoFileCache(undefined, async () => {});
    cache.remember('ansible --version', 'config file = /repo/ansible.cfg (kept)');
    expect(await cache.once('ansible --version', repo.head(cache), ops.version)).toBe(
      'config file = /repo/ansible.cfg (kept)',
    );
    expect(ops.asked()).toBe(0);
    repo.move('c2');
    expect(await cache.once('ansible --version', repo.head(cache), ops.version)).toBe(
      'config file = /repo/ansible.cfg (1)',
    );
  });

  it('keeps nothing for the next run of the job, nor a failed answer', async () => {
    const repo = opsRepo({});
    const ops = ansible();
    const kept: KeptRepoFiles[] = [];
    const keep = async (files: KeptRepoFiles) => {
      kept.push(files);
    };
    const first = createRepoFileCache(undefined, keep);
    await first.once('ansible --version', repo.head(first), ops.version);
    const lost = async (): Promise<string> => {
      throw new Error('SSH connection lost');
    };
    const second = createRepoFileCache(kept.at(-1), keep);
    await expect(second.once('ansible --version', repo.head(second), lost)).rejects.toThrow(
      'SSH connection lost',
    );
    expect(await second.once('ansible --version', repo.head(second), ops.version)).toBe(
      'config file = /repo/ansible.cfg (2)',
    );
    expect(kept).toEqual([]);
  });
});
