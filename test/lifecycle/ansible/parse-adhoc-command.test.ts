import { describe, expect, it } from 'vitest';
import { parseAdhocCommand } from '../../../src/lifecycle/ansible/parse-adhoc-command.js';

// What ansible-core 2.14's minimal callback printed here for `-m command` with strip_empty_ends: false.
describe('parseAdhocCommand', () => {
  it('a command that ran: its exit code, then stdout and stderr on lines of their own', () => {
    expect(
      parseAdhocCommand('k3s-prod-1', [
        'k3s-prod-1 | CHANGED | rc=0 >>',
        'time="2026-12-02T02:00:00Z" level=info msg="Snapshot cluster-bot-7-k3s-prod-1-1 saved."',
        '',
      ]),
    ).toEqual({
      exitCode: 0,
      lines: ['time="2026-12-02T02:00:00Z" level=info msg="Snapshot cluster-bot-7-k3s-prod-1-1 saved."'],
    });
  });

  it('a non-zero exit keeps the output and drops the module’s own "non-zero return code"', () => {
    expect(
      parseAdhocCommand('h1', ['h1 | FAILED | rc=3 >>', 'out', 'out2', 'err', 'non-zero return code']),
    ).toEqual({ exitCode: 3, lines: ['out', 'out2', 'err'] });
  });

  it('become refused (rc -1): the command never ran, and Ansible says why', () => {
    expect(parseAdhocCommand('h1', ['h1 | FAILED | rc=-1 >>', 'Incorrect sudo password'])).toEqual({
      exitCode: null,
      lines: [],
      failure: 'Incorrect sudo password',
    });
  });

  it('a module failure names sudo’s own complaint, not "MODULE FAILURE"', () => {
    const parsed = parseAdhocCommand('h1', [
      'h1 | FAILED! => {',
      '    "changed": false,',
      '    "module_stderr": "sudo: a password is required\\n",',
      '    "module_stdout": "",',
      '    "msg": "MODULE FAILURE\\nSee stdout/stderr for the exact error",',
      '    "rc": 1',
      '}',
    ]);
    expect(parsed).toEqual({
      exitCode: null,
      lines: [],
      failure: 'sudo: a password is required',
      unreachable: false,
    });
  });

  it('an unreachable host is told apart', () => {
    const parsed = parseAdhocCommand('h1', [
      'h1 | UNREACHABLE! => {',
      '    "changed": false,',
      '    "msg": "Failed to connect to the host via ssh: ssh: connect to host 127.0.0.1 port 1: Connection refused",',
      '    "unreachable": true',
      '}',
    ]);
    expect(parsed).toMatchObject({ exitCode: null, unreachable: true });
    expect(parsed?.failure).toContain('Connection refused');
  });

  it('another host’s header, or none, is no result for this host', () => {
    expect(parseAdhocCommand('h1', ['h2 | CHANGED | rc=0 >>', 'x'])).toBeUndefined();
    expect(parseAdhocCommand('h1', [])).toBeUndefined();
  });
});
