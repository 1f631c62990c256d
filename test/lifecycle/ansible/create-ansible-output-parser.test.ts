import { describe, expect, it } from 'vitest';
import type { AnsibleEvent } from '../../../src/lifecycle/ansible/ansible-event.js';
import { createAnsibleOutputParser } from '../../../src/lifecycle/ansible/create-ansible-output-parser.js';
import { describeProgress } from '../../../src/lifecycle/ansible/describe-progress.js';
import { loadFixture } from './load-fixture.js';

function parse(lines: readonly string[], exitCode: number | null) {
  const parser = createAnsibleOutputParser();
  const events: AnsibleEvent[] = [];
  for (const line of lines) events.push(...parser.push(line));
  events.push(...parser.flush());
  return { events, outcome: parser.result(exitCode), progress: parser.progress() };
}

function parseFixture(name: string) {
  const { lines, exitCode } = loadFixture(name);
  return parse(lines, exitCode);
}

const hostResults = (events: AnsibleEvent[]) =>
  events.filter(
    (event): event is Extract<AnsibleEvent, { type: 'host-result' }> => event.type === 'host-result',
  );

describe('createAnsibleOutputParser on real lab output', () => {
  it('follows site.yml on dev: plays, serial batches, tasks, recap', () => {
    const { events, outcome, progress } = parseFixture('site-dev.txt');

    const plays = events.filter((event) => event.type === 'play');
    expect(plays.map((play) => [play.index, play.batch])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [3, 2], // k3s secondaries run `serial: 1`: the banner repeats for the second batch
      [4, 1],
      [5, 1],
      [6, 1],
    ]);
    const tasks = events.filter((event) => event.type === 'task');
    expect(tasks).toHaveLength(32);
    expect(tasks.map((task) => task.taskIndex)).toEqual(tasks.map((_task, i) => i + 1));
    expect(tasks.find((task) => task.name === 'k3s_server : Install k3s')).toMatchObject({ playIndex: 2 });

    const results = hostResults(events);
    expect(results.find((result) => result.task === 'k3s_server : Install k3s')).toMatchObject({
      status: 'changed',
      host: 'k3s-dev-1',
    });
    expect(results.filter((result) => result.item !== undefined).map((result) => result.item)).toContain(
      'dm_crypt',
    );
    expect(results.some((result) => result.status === 'skipping')).toBe(true);

    expect(outcome).toMatchObject({
      ok: true,
      exitCode: 0,
      failures: [],
      lastTask: 'flux_bootstrap : Report Flux bootstrap',
    });
    expect(Object.keys(outcome.recap ?? {}).sort()).toEqual(['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3']);
    expect(outcome.recap?.['k3s-dev-1']).toEqual({
      ok: 22,
      changed: 11,
      unreachable: 0,
      failed: 0,
      skipped: 2,
      rescued: 0,
      ignored: 0,
    });
    expect(events.filter((event) => event.type === 'recap')).toHaveLength(1);
    expect(describeProgress({ ...progress, playCount: 6 })).toBe(
      'play 6/6, task 32: flux_bootstrap : Report Flux bootstrap',
    );
  });

  it('reports an injected fatal with its msg, and the run as failed', () => {
    const { events, outcome } = parseFixture('k3s-install-failed.txt');
    expect(hostResults(events).filter((result) => result.status === 'failed')).toEqual([
      {
        type: 'host-result',
        status: 'failed',
        host: 'k3s-dev-2',
        task: 'k3s_server : Install k3s',
        msg: 'k3s install script exited 1: etcd join refused',
      },
    ]);
    expect(outcome).toMatchObject({
      ok: false,
      exitCode: 2,
      lastTask: 'k3s_server : Install k3s',
      failures: [
        {
          host: 'k3s-dev-2',
          task: 'k3s_server : Install k3s',
          msg: 'k3s install script exited 1: etcd join refused',
          kind: 'failed',
        },
      ],
    });
  });

  it.each(['k3s-command-failed-pretty.txt', 'k3s-command-failed-yaml.txt'])(
    'explains a failed command from its stderr (%s: multi-line result)',
    (fixture) => {
      const { outcome } = parseFixture(fixture);
      expect(outcome.failures).toEqual([
        {
          host: 'k3s-dev-2',
          task: 'k3s_server : Install k3s',
          kind: 'failed',
          msg: 'non-zero return code: [INFO]  Using v1.36.4+k3s1 as release / [ERROR]  etcd join refused: member count 3 >= quorum',
        },
      ]);
      expect(outcome.recap?.['k3s-dev-2']?.failed).toBe(1);
    },
  );

  it('reports an unreachable host with ssh’s reason', () => {
    const { events, outcome } = parseFixture('baseline-unreachable.txt');
    expect(hostResults(events).find((result) => result.status === 'unreachable')).toMatchObject({
      host: 'k3s-dev-3',
      task: 'node_baseline : Install base packages',
      msg: expect.stringContaining('Connection refused'),
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.exitCode).toBe(4);
    expect(outcome.failures).toEqual([expect.objectContaining({ host: 'k3s-dev-3', kind: 'unreachable' })]);
  });

  it('reports a failed loop item with its item', () => {
    const { outcome } = parseFixture('baseline-item-failed.txt');
    expect(outcome.failures).toEqual([
      {
        host: 'k3s-dev-2',
        task: 'node_baseline : Load kernel modules',
        item: 'iscsi_tcp',
        kind: 'failed',
        msg: 'modprobe: FATAL: Module iscsi_tcp not found',
      },
    ]);
  });

  it('turns a fatal followed by ...ignoring into fatal-ignored, not a failure', () => {
    const { events, outcome } = parseFixture('verify-ignored.txt');
    const results = hostResults(events).filter(
      (result) => result.task === 'cluster_verify : Collect Hubble status',
    );
    expect(results).toEqual([
      {
        type: 'host-result',
        status: 'fatal-ignored',
        host: 'k3s-dev-1',
        task: 'cluster_verify : Collect Hubble status',
        msg: 'hubble relay not reachable yet',
      },
    ]);
    expect(outcome).toMatchObject({ ok: true, failures: [] });
  });

  it('names the BLOCKED disk placeholder when a full prod baseline stops on the assert', () => {
    const { outcome } = parseFixture('prod-baseline-blocked.txt');
    expect(outcome.ok).toBe(false);
    expect(outcome.failures[0]).toMatchObject({
      host: 'k3s-prod-1',
      task: 'node_baseline : Assert disk devices are decided',
    });
    expect(outcome.failures[0]?.msg).toContain('/dev/BLOCKED-pending-disk-decision-');
    expect(outcome.failures[0]?.msg).toContain('§2');
  });

  it('collects [WARNING] lines and survives a play with no hosts', () => {
    const { events, outcome } = parseFixture('prod-k3s.txt');
    expect(outcome.warnings).toEqual(['Could not match supplied host pattern, ignoring: k3s-prod-9']);
    expect(events.filter((event) => event.type === 'play').map((play) => play.name)).toEqual([
      'k3s primary (cluster-init)',
      'k3s secondaries (join)',
    ]);
    expect(outcome).toMatchObject({ ok: true, exitCode: 0 });
    expect(Object.keys(outcome.recap ?? {})).toEqual(['k3s-prod-1']);
  });
});

describe('createAnsibleOutputParser on the rarer shapes', () => {
  it('attributes a delegated result to the host it ran for', () => {
    const { events } = parse(
      [
        'TASK [k3s_server : Fetch node token] ***',
        'ok: [k3s-dev-2 -> k3s-dev-1]',
        'changed: [k3s-dev-3 -> k3s-dev-1] => (item=a)',
      ],
      0,
    );
    expect(hostResults(events).map((result) => [result.host, result.item])).toEqual([
      ['k3s-dev-2', undefined],
      ['k3s-dev-3', 'a'],
    ]);
  });

  it('waits past a stderr warning for ...ignoring', () => {
    const { events } = parse(
      [
        'TASK [probe] ***',
        'fatal: [h1]: FAILED! => {"changed": false, "msg": "nope"}',
        '[WARNING]: something on stderr',
        '...ignoring',
      ],
      0,
    );
    expect(hostResults(events)).toEqual([
      { type: 'host-result', status: 'fatal-ignored', host: 'h1', task: 'probe', msg: 'nope' },
    ]);
  });

  it('forgives the last failed item when a loop ends with ...ignoring', () => {
    const { events, outcome } = parse(
      [
        'TASK [loop] ***',
        'failed: [h1] (item=a) => {"ansible_loop_var": "item", "item": "a", "msg": "bad a"}',
        'ok: [h1] => (item=b)',
        '...ignoring',
      ],
      0,
    );
    expect(hostResults(events).map((result) => result.status)).toEqual(['failed', 'ok', 'fatal-ignored']);
    expect(outcome.failures).toEqual([]);
  });

  it('drops failures the recap shows were rescued', () => {
    const { outcome } = parse(
      [
        'TASK [try] ***',
        'fatal: [h1]: FAILED! => {"msg": "first try"}',
        'TASK [rescue] ***',
        'ok: [h1]',
        '',
        'PLAY RECAP ***',
        'h1 : ok=1 changed=0 unreachable=0 failed=0 skipped=0 rescued=1 ignored=0',
      ],
      0,
    );
    expect(outcome).toMatchObject({ ok: true, failures: [] });
  });

  it('reads a truncated failure body by its keys', () => {
    const { outcome } = parse(
      [
        'TASK [t] ***',
        'fatal: [h1]: FAILED! => {"changed": false, "msg": "disk \\"sdb\\" busy", "stdout": "aaa',
      ],
      2,
    );
    expect(outcome.failures[0]?.msg).toBe('disk "sdb" busy');
  });

  it('strips colour codes and carriage returns', () => {
    const esc = String.fromCharCode(27);
    const { events } = parse([`${esc}[0;33mchanged: [h1]${esc}[0m\r`], 0);
    expect(hostResults(events)).toEqual([{ type: 'host-result', status: 'changed', host: 'h1', task: '' }]);
  });

  it('reports ansible’s own errors and fails a run cut short', () => {
    const { outcome } = parse(["ERROR! the role 'k3s_server' was not found in roles"], 1);
    expect(outcome).toMatchObject({
      ok: false,
      exitCode: 1,
      errors: ["the role 'k3s_server' was not found in roles"],
    });
    expect(parse(['PLAY [x] ***', 'TASK [y] ***'], null).outcome).toMatchObject({
      ok: false,
      recap: null,
      lastTask: 'y',
    });
  });

  it('keeps memory bounded over a long, noisy run', () => {
    const parser = createAnsibleOutputParser({ failures: 5, diffLines: 3 });
    parser.push('PLAY [big] ***');
    parser.push('TASK [chatty] ***');
    parser.push('ok: [h1] => {');
    parser.push('    "msg": [');
    for (let n = 0; n < 150_000; n += 1) expect(parser.push(`        "line ${n}",`)).toEqual([]);
    parser.push('    ]');
    expect(parser.push('}')).toEqual([{ type: 'host-result', status: 'ok', host: 'h1', task: 'chatty' }]);
    for (let n = 0; n < 1000; n += 1) {
      parser.push(`TASK [t${n}] ***`);
      for (const line of ['--- before', '+++ after', '@@ -0,0 +1 @@', '+a', '+b', '']) parser.push(line);
      // Held back for a possible `...ignoring`: released by the next line.
      expect(parser.push(`failed: [h${n}] (item=${n}) => {"msg": "${'x'.repeat(2000)}"}`)).toEqual([]);
    }
    const outcome = parser.result(2);
    expect(outcome.failures).toHaveLength(5);
    expect(outcome.failures.at(-1)).toMatchObject({ host: 'h999', item: '999' });
    expect(outcome.failures[0]!.msg.length).toBeLessThanOrEqual(500);
    expect(outcome.lineCount).toBe(150_006 + 1000 * 8);
  });

  it('bounds the diff kept for one result', () => {
    const parser = createAnsibleOutputParser({ diffLines: 3 });
    const events = [
      'TASK [w] ***',
      '--- before',
      '+++ after',
      '@@ -0,0 +1,3 @@',
      '+1',
      '+2',
      '',
      'changed: [h1]',
    ].flatMap((line) => parser.push(line));
    expect(events.at(-1)).toMatchObject({
      status: 'changed',
      diff: ['--- before', '+++ after', '@@ -0,0 +1,3 @@'],
    });
  });
});
