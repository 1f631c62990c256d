import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { AnsibleEvent, PlaybookOutcome } from '../../src/lifecycle/ansible/ansible-event.js';
import { createAnsibleOutputParser } from '../../src/lifecycle/ansible/create-ansible-output-parser.js';
import { cleanupAfterEach } from '../support/cleanup-stack.js';
import { labMs } from '../support/lab-time.js';
import {
  createInfraRepo,
  INFRA_REPO_PATHS,
  type InfraRepo,
  type InfraRepoOptions,
  type RunPlaybookOptions,
} from './infra-repo.js';

const run = promisify(execFile);
const PROD_VARS = [
  '-e',
  'k3s_hosts=k3s_prod',
  '-e',
  'k3s_primary_hosts=k3s_prod_primary',
  '-e',
  'k3s_secondary_hosts=k3s_prod_secondary',
];

const cleanups = cleanupAfterEach();

async function labRepo(options: InfraRepoOptions = {}): Promise<InfraRepo> {
  const repo = await createInfraRepo(options);
  cleanups.push(() => repo.cleanup());
  return repo;
}

/** Runs a playbook, feeding every line to the parser as it streams. */
async function playbook(repo: InfraRepo, args: string[], options: RunPlaybookOptions = {}) {
  const parser = createAnsibleOutputParser();
  const events: AnsibleEvent[] = [];
  const result = await repo.runPlaybook(args, {
    ...options,
    onLine(line, stream) {
      events.push(...parser.push(line).filter((event) => event.type !== 'warning'));
      options.onLine?.(line, stream);
    },
  });
  events.push(...parser.flush());
  const outcome: PlaybookOutcome = parser.result(result.exitCode);
  const ran = (host: string) =>
    events.flatMap((event) =>
      event.type === 'host-result' && event.host === host && event.status !== 'skipping' ? [event.task] : [],
    );
  return { ...result, events, outcome, ran };
}

const LAB_KUBECONFIG = 'apiVersion: v1\nkind: Config\nusers: [{name: default, user: {token: lab-token}}]\n';

async function kubeSimulator(): Promise<{ url: string; calls: string[] }> {
  const calls: string[] = [];
  const server: Server = createServer((request, response) => {
    calls.push(`${request.method} ${request.url}`);
    request.resume();
    const body = request.url === '/_sim/kubeconfig' ? { kubeconfig: LAB_KUBECONFIG } : {};
    request.on('end', () =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

const readEvents = async (file: string) => (await readFile(file, 'utf8')).trim().split('\n').sort();

describe('lab infra repo: the handle', () => {
  it('creates a committed repo and edits the real files through its knobs', async () => {
    const repo = await labRepo({ prodNodes: ['k3s-prod-1', 'k3s-prod-3'] });
    const inventory = await repo.readFile(INFRA_REPO_PATHS.inventory);
    expect(inventory).toMatch(/^k3s-prod-1 ansible_host=127\.0\.2\.10 ansible_connection=local/m);
    expect(inventory).toMatch(/^# k3s-prod-2 /m);
    expect(inventory).toMatch(/^k3s-prod-3 ansible_host=127\.0\.2\.12 ansible_connection=local/m);
    // Live addresses are loopback placeholders; the real ones stay comments.
    expect(inventory).not.toMatch(/^[^#\n]*ansible_host=(?!127\.)/m);
    expect(existsSync(join(repo.root, INFRA_REPO_PATHS.prodVault))).toBe(false);
    expect(await repo.readFile(INFRA_REPO_PATHS.prodVars)).toContain('/dev/BLOCKED-pending-disk-decision-');

    const first = await repo.head();
    await repo.enableProdNode('k3s-prod-2');
    await repo.disableProdNode('k3s-prod-1');
    await repo.addVault();
    await repo.resolveBlocked();
    await repo.setLab({ lab_output_lines: 3 });
    expect(await repo.readFile(INFRA_REPO_PATHS.inventory)).toMatch(
      /^k3s-prod-2 ansible_host=127\.0\.2\.11 ansible_connection=local/m,
    );
    expect(await repo.readFile(INFRA_REPO_PATHS.inventory)).toMatch(/^# k3s-prod-1 /m);
    expect(await repo.readFile(INFRA_REPO_PATHS.prodVars)).not.toContain('BLOCKED-pending');
    expect(await repo.readFile(INFRA_REPO_PATHS.labVars)).toContain('lab_output_lines: 3');
    const second = await repo.commit('prod: rack k3s-prod-2');
    expect(second).toMatch(/^[0-9a-f]{40}$/);
    expect(second).not.toBe(first);
    expect(await repo.head()).toBe(second);

    await repo.removeFile(INFRA_REPO_PATHS.prodVault);
    const status = await run('git', ['status', '--porcelain'], { cwd: repo.root });
    expect(status.stdout.trim()).toBe(`D ${INFRA_REPO_PATHS.prodVault}`);
    await repo.cleanup();
    expect(existsSync(repo.root)).toBe(false);
  });
});

describe('lab infra repo: real ansible-playbook runs', () => {
  it(
    'site.yml passes on dev, joining each node in the kube simulator and rolling Cilium once',
    async () => {
      const sim = await kubeSimulator();
      const repo = await labRepo();
      const eventsFile = join(repo.root, INFRA_REPO_PATHS.labOut, 'events.log');
      await repo.setLab({ lab_kube_sim_url: sim.url, lab_events_file: eventsFile });
      await repo.commit('lab: point at the kube simulator');

      const result = await playbook(repo, ['playbooks/site.yml']);

      expect(result.exitCode).toBe(0);
      expect(result.outcome).toMatchObject({ ok: true, failures: [] });
      expect(Object.keys(result.outcome.recap ?? {}).sort()).toEqual(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
      expect(result.ran('k3s-dev-2')).toContain('k3s_server : Install k3s');
      expect(sim.calls.sort()).toEqual([
        'GET /_sim/kubeconfig',
        'POST /_sim/cilium/rollout',
        'POST /_sim/nodes/k3s-dev-1/join',
        'POST /_sim/nodes/k3s-dev-2/join',
        'POST /_sim/nodes/k3s-dev-3/join',
      ]);
      const recorded = await readEvents(eventsFile);
      expect(recorded).toContain('k3s.yml k3s-dev-3');
      expect(recorded.filter((line) => line.startsWith('cilium.yml '))).toHaveLength(3);
      expect(recorded.some((line) => line.startsWith('kube-vip.yml'))).toBe(false); // not part of site.yml
      const values = await repo.readFile(`${INFRA_REPO_PATHS.labOut}/k3s-dev-1/cilium/values.yaml`);
      expect(values).toMatch(/^k8sServiceHost: 127\.0\.1\.11/m);
      expect(values).toMatch(/maxUnavailable: 1$/m);
      // Like the real role: the primary's kubeconfig in the repo's .cache/, named by group_vars (dev.kubeconfig).
      expect(await repo.readFile('.cache/dev.kubeconfig')).toBe(LAB_KUBECONFIG);
      // What the run wrote is ignored by git: the work tree stays clean for the next `git pull`.
      expect((await run('git', ['status', '--porcelain'], { cwd: repo.root })).stdout).toBe('');
    },
    labMs(120_000),
  ); // the longest run here: give it room when the two cores are busy

  it('the prod extra vars target only the prod hosts', async () => {
    const repo = await labRepo({ prodNodes: ['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3'], vault: true });
    const eventsFile = join(repo.root, INFRA_REPO_PATHS.labOut, 'events.log');
    await repo.setLab({ lab_events_file: eventsFile });

    // Every play of site.yml, as ansible resolves its hosts (nothing runs).
    const listed = await repo.runPlaybook(['playbooks/site.yml', '--list-hosts', ...PROD_VARS]);
    expect(listed.exitCode).toBe(0);
    const hosts = listed.output.filter((line) => /^ {6}\S/.test(line)).map((line) => line.trim());
    expect(hosts.length).toBeGreaterThan(5);
    expect(new Set(hosts)).toEqual(new Set(['k3s-prod-1', 'k3s-prod-2', 'k3s-prod-3']));

    // And a real run: each role resolves prod's own answers from group_vars/k3s_prod/vars.yml.
    const result = await playbook(repo, ['playbooks/k3s.yml', ...PROD_VARS]);
    expect(result.outcome.ok).toBe(true);
    expect(Object.keys(result.outcome.recap ?? {}).sort()).toEqual([
      'k3s-prod-1',
      'k3s-prod-2',
      'k3s-prod-3',
    ]);
    expect(await readEvents(eventsFile)).toEqual([
      'k3s.yml k3s-prod-1',
      'k3s.yml k3s-prod-2',
      'k3s.yml k3s-prod-3',
    ]);
    const primary = await repo.readFile(`${INFRA_REPO_PATHS.labOut}/k3s-prod-1/k3s/config.yaml`);
    expect(primary).toContain('cluster-init: true');
    expect(primary).toContain('127.0.2.9');
    const joiner = await repo.readFile(`${INFRA_REPO_PATHS.labOut}/k3s-prod-2/k3s/config.yaml`);
    expect(joiner).toContain('server: https://127.0.2.9:6443');
    expect(joiner).toContain('token-from-k3s-prod-1');
    // The join token is fetched from the founder at run time (delegate_to), never pre-stored.
    expect(result.output).toContainEqual(expect.stringMatching(/^ok: \[k3s-prod-2 -> k3s-prod-1[\](]/));
    expect(
      await repo.readFile(`${INFRA_REPO_PATHS.labOut}/k3s-prod-2/k3s/server/token-from-k3s-prod-1`),
    ).toBe(await repo.readFile(`${INFRA_REPO_PATHS.labOut}/k3s-prod-1/k3s/server/node-token`));
    expect(result.output.join('\n')).not.toContain('lab-node-token-of-');
  });

  it('a secondary cannot join when the founder has no node-token (wiped): the fetch from the founder fails', async () => {
    const repo = await labRepo();
    const result = await playbook(repo, ['playbooks/k3s.yml', '--limit', 'k3s-dev-2']);
    expect(result.outcome.ok).toBe(false);
    expect(result.outcome.failures).toEqual([
      expect.objectContaining({
        host: 'k3s-dev-2',
        task: 'k3s_server : Fetch the node-token from the founder',
      }),
    ]);
  });

  it('--tags packages --limit k3s-prod-1 runs only the packages task and never reaches the disks', async () => {
    const repo = await labRepo();
    const result = await playbook(repo, [
      'playbooks/node-baseline.yml',
      '-e',
      'k3s_hosts=k3s_prod',
      '--tags',
      'packages',
      '--limit',
      'k3s-prod-1',
    ]);

    expect(result.outcome).toMatchObject({ ok: true, exitCode: 0 });
    expect(Object.keys(result.outcome.recap ?? {})).toEqual(['k3s-prod-1']);
    expect(result.ran('k3s-prod-1')).toEqual([
      'node_baseline : Install base packages',
      'node_baseline : Report node baseline', // the lab's report step (tagged always)
    ]);
    expect(result.output.join('\n')).not.toContain('BLOCKED');
  });

  it('an injected failure is a real fatal with its msg and exit 2', async () => {
    const repo = await labRepo({
      lab: { lab_fail: [{ task: 'Install k3s', host: 'k3s-dev-2', msg: 'lab: etcd join refused' }] },
    });
    const result = await playbook(repo, ['playbooks/k3s.yml']);

    expect(result.exitCode).toBe(2);
    expect(result.output).toContain(
      'fatal: [k3s-dev-2]: FAILED! => {"changed": false, "msg": "lab: etcd join refused"}',
    );
    expect(result.outcome).toMatchObject({
      ok: false,
      failures: [{ host: 'k3s-dev-2', task: 'k3s_server : Install k3s', msg: 'lab: etcd join refused' }],
    });
    expect(result.ran('k3s-dev-3')).toEqual([]); // serial: 1 stops the joins at the first failed batch
  });

  it('streams lab_output_lines and prints the fake secrets', async () => {
    const repo = await labRepo({ lab: { lab_output_lines: 20_000, lab_print_secrets: true } });
    const seen = { lines: 0, token: false, password: false, key: false };
    const result = await playbook(repo, ['playbooks/verify.yml'], {
      keepOutput: false,
      onLine(line) {
        seen.lines += 1;
        seen.token ||= /xoxb-\d+-\d+-\w+/.test(line);
        seen.password ||= line.includes('password: hunter2');
        seen.key ||= line.includes('-----BEGIN OPENSSH PRIVATE KEY-----');
      },
    });

    expect(result.outcome.ok).toBe(true);
    expect(result.output).toEqual([]);
    expect(seen).toEqual({ lines: expect.any(Number), token: true, password: true, key: true });
    expect(seen.lines).toBeGreaterThan(20_000);
    expect(result.outcome.lineCount).toBe(seen.lines);
  });

  it('streams lab_stream_mb of lines while the report step runs, and the play still passes', async () => {
    const repo = await labRepo({ lab: { lab_stream_mb: 2 } });
    let streamed = 0;
    const result = await playbook(repo, ['playbooks/verify.yml'], {
      keepOutput: false,
      onLine(line) {
        if (line.startsWith('lab stream line ')) streamed += line.length + 1;
      },
    });

    expect(result.outcome.ok).toBe(true);
    expect(streamed).toBeGreaterThanOrEqual(2 * 1024 * 1024);
    expect(streamed).toBeLessThan(2 * 1024 * 1024 + 256 * 1024);
  });

  it('a full prod baseline with BLOCKED placeholders fails on the assert naming the placeholder', async () => {
    const repo = await labRepo();
    const result = await playbook(repo, ['playbooks/node-baseline.yml', '-e', 'k3s_hosts=k3s_prod']);

    expect(result.exitCode).toBe(2);
    expect(result.outcome.failures).toEqual([
      expect.objectContaining({
        host: 'k3s-prod-1',
        task: 'node_baseline : Assert disk devices are decided',
      }),
    ]);
    expect(result.outcome.failures[0]?.msg).toContain(
      '/dev/BLOCKED-pending-disk-decision-PROD-PROVISIONING-s2-longhorn',
    );
    expect(result.ran('k3s-prod-1')).not.toContain('node_baseline : Format and mount Longhorn disk');
  });

  it('node-health.yml is pointed anywhere and has no default target; it only looks', async () => {
    const repo = await labRepo({
      lab: { lab_fail: [{ task: 'Check available memory', host: 'k3s-prod-1' }] },
    });

    const unpointed = await playbook(repo, ['playbooks/node-health.yml']);
    const prod = await playbook(repo, ['playbooks/node-health.yml', '-e', 'node_health_hosts=k3s_prod']);

    expect(unpointed.exitCode).not.toBe(0);
    expect(unpointed.outcome.errors[0]).toContain("'node_health_hosts' is undefined");
    expect(prod.exitCode).toBe(2);
    expect(Object.keys(prod.outcome.recap ?? {})).toEqual(['k3s-prod-1']);
    expect(prod.outcome.failures).toEqual([
      expect.objectContaining({ host: 'k3s-prod-1', task: 'node_health : Check available memory' }),
    ]);
    expect(existsSync(join(repo.root, INFRA_REPO_PATHS.labOut))).toBe(false);
  });

  it('a cancelled run stops promptly while a step sleeps', async () => {
    const repo = await labRepo({ lab: { lab_sleep_seconds: 60 } });
    const abort = new AbortController();
    const started = Date.now();
    const result = await playbook(repo, ['playbooks/kube-vip.yml'], {
      signal: abort.signal,
      onLine(line) {
        if (line.startsWith('TASK [kube_vip : Report kube-vip]')) abort.abort();
      },
    });

    expect(result.signal).toBe('SIGTERM');
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.outcome).toMatchObject({
      ok: false,
      exitCode: null,
      recap: null,
      lastTask: 'kube_vip : Report kube-vip',
    });
  });
});
