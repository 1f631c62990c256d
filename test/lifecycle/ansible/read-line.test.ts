import { describe, expect, it } from 'vitest';
import type { AnsibleEvent } from '../../../src/lifecycle/ansible/ansible-event.js';
import { createParseRun, type ParserMode, SCANNING } from '../../../src/lifecycle/ansible/parser-state.js';
import { flushMode, readLine } from '../../../src/lifecycle/ansible/read-line.js';

/** Feeds lines from scanning; returns the mode after each line and every event. */
function walk(lines: readonly string[]) {
  const run = createParseRun({});
  const events: AnsibleEvent[] = [];
  const modes: ParserMode['name'][] = [];
  let mode: ParserMode = SCANNING;
  for (const line of lines) {
    mode = readLine(run, mode, line, events);
    modes.push(mode.name);
  }
  return { run, events, modes, mode };
}

describe('the output parser modes', () => {
  it('a JSON body opens on `=> {`, ends on `}`, and a failure is then held one line', () => {
    const { modes, events } = walk([
      'TASK [boom] ***',
      'fatal: [h1]: FAILED! => {',
      '    "msg": "no"',
      '}',
      '...ignoring',
    ]);
    expect(modes).toEqual(['scanning', 'body', 'body', 'held-failure', 'scanning']);
    expect(events.at(-1)).toMatchObject({
      type: 'host-result',
      status: 'fatal-ignored',
      host: 'h1',
      msg: 'no',
    });
  });

  it('a held failure lets a warning through and stands on any other line', () => {
    const { modes, run } = walk([
      'TASK [boom] ***',
      'fatal: [h1]: FAILED! => {"msg": "no"}',
      '[WARNING]: meanwhile',
      'TASK [next] ***',
    ]);
    expect(modes).toEqual(['scanning', 'held-failure', 'held-failure', 'scanning']);
    expect(run.failures.map((failure) => failure.task)).toEqual(['boom']);
    expect(run.warnings).toEqual(['meanwhile']);
    expect(run.taskName).toBe('next');
  });

  it('a YAML body ends on the first line it does not own, which is then read as usual', () => {
    const { modes, events } = walk(['TASK [t] ***', 'ok: [h1] =>', '  msg: hi', '', 'TASK [u] ***']);
    expect(modes).toEqual(['scanning', 'body', 'body', 'body', 'scanning']);
    expect(events.map((event) => event.type)).toEqual(['task', 'host-result', 'task']);
  });

  it('a diff ends on a blank line; a recap on its first other line', () => {
    const { modes, events } = walk([
      '--- before: /etc/x',
      '+new',
      '',
      'PLAY RECAP ***',
      'h1   : ok=1 changed=0 unreachable=0 failed=0 skipped=0 rescued=0 ignored=0',
      '[WARNING]: after',
    ]);
    expect(modes).toEqual(['diff', 'diff', 'scanning', 'recap', 'recap', 'scanning']);
    expect(events.map((event) => event.type)).toEqual(['recap', 'warning']);
  });

  it('flushing concludes an open body and its held failure, and keeps a diff open', () => {
    const body = walk(['TASK [t] ***', 'fatal: [h1]: FAILED! =>', '  msg: gone']);
    const events: AnsibleEvent[] = [];
    expect(flushMode(body.run, body.mode, events).name).toBe('scanning');
    expect(events).toMatchObject([{ type: 'host-result', status: 'failed', msg: 'gone' }]);
    expect(body.run.failures).toHaveLength(1);

    const diff = walk(['--- before: /etc/x']);
    expect(flushMode(diff.run, diff.mode, []).name).toBe('diff');
  });
});
