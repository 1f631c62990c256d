"""Lab-only action standing in for a real task (see ../README.md).

A real module costs about half a second per host on these machines, so most steps are
simulated on the controller while keeping ansible's own result shapes:
  lab_step: {run: "swapoff -a"}                 ok (skipped in check mode, like command);
                                                with sleep: S it takes S seconds
  lab_step: {write: /path, content: "..."}      changed/ok with a real diff, written on the
                                                controller (every lab host is local)
  lab_step: {module: ansible.builtin.uri, args: {...}}   runs the real module
  lab_step: {report: k3s.yml, summary: "..."}   the role's closing report (run_once) and the
                                                lab hooks

Every step first touches the host through its connection, so a host listed in
lab_unreachable (a real ssh connection to a closed loopback port) comes out UNREACHABLE.
lab_fail entries ({task, host?, item?, msg?, rc?, stderr?}) fail the matching step with a real
`fatal:` (with rc/stderr it is shaped like a failed command: msg "non-zero return code").
"""
import base64
import multiprocessing
import os
import time

from ansible.plugins.action import ActionBase
from ansible.utils.display import Display

display = Display()


def _jwt_part(text):
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip('=')


def _k3s_token(role, password):
    return 'K10' + 'ab' * 32 + '::' + role + ':' + password


def _fake_secret_lines():
    # Assembled from pieces so secret scanners do not flag this file; none of it is real.
    token = 'xox' + 'b-' + '1111111111-2222222222222-' + 'LabFakeSlackTokenNotReal'
    marker = 'OPENSSH PRIVATE' + ' KEY-----'
    pgp = 'PGP PRIVATE' + ' KEY BLOCK-----'
    pem = '-----BEGIN EC PRIVATE' + ' KEY-----\nLabFakeKubeconfigClientKey\n-----END EC PRIVATE' + ' KEY-----\n'
    jwt = '.'.join([_jwt_part('{"alg":"RS256"}'), _jwt_part('{"sub":"LabFakeServiceAccount"}'), 'LabFakeJwtSignature'])
    vault_line = 'LabFakeVaultPayload'.encode().hex()
    return [
        'slack_bot_token: ' + token,
        'password: hunter2-lab-not-a-real-password',
        '-----BEGIN ' + marker,
        'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW',
        'QyNTUxOQAAACBsYWJmYWtla2V5bGFiZmFrZWtleWxhYmZha2VrZXlsYWIAAAAAAAAAAAAA',
        '-----END ' + marker,
        'k3s agent --server https://127.0.0.1:6443 --token ' + _k3s_token('node', 'LabFakeK3sNodeToken'),
        _k3s_token('server', 'LabFakeK3sBareToken'),
        'service account token ' + jwt,
        '    client-key-data: ' + base64.b64encode(pem.encode()).decode(),
        'vault_become_password: !vault |',
        '          $ANSIBLE_VAULT;1.1;AES256',
        '          ' + vault_line,
        '          ' + vault_line,
        'refresh ' + 'xox' + 'e.xoxp-1-' + 'LabFakeSlackRefreshToken',
        'webhook https://hooks.slack.com/services/T0LAB/B0LAB/' + 'LabFakeWebhookSecret',
        'aws_access_key_id = ' + 'AKIA' + 'LABFAKEKEYID0001',
        'aws_secret_access_key = ' + 'LabFakeAwsSecretKey/000000000000000000000',
        'github ' + 'ghp_' + 'LabFakeGithubToken000000000000000000',
        'mysql --password LabFakeArgvPassword -h db',
        'redis://bot:LabFakeUrlPassword@127.0.0.1:6379/0',
        'password=abc"LabFakeBrokenQuote',
        '-----BEGIN ' + pgp,
        'lQdGBGVwLabFakePgpKeyBody',
        '-----END ' + pgp,
    ]


def _fake_secret_config():
    # What a diff of a written config shows (so in a `--check --diff` preview too): a join token.
    return 'k3s_token: ' + _k3s_token('server', 'LabFakeK3sDiffToken') + '\n'


def _stream_output(megabytes, host):
    # Through ansible's own display (proxied from this worker to the controller) in chunks, as a
    # verbose task's output streams, so a benchmark can push gigabytes without ansible holding them.
    remaining = int(megabytes * 1024 * 1024)
    number = 0
    while remaining > 0:
        lines = []
        size = 0
        while size < 256 * 1024 and size < remaining:
            number += 1
            line = 'lab stream line %d from %s: the quick brown fox jumps over the lazy dog' % (number, host)
            lines.append(line)
            size += len(line) + 1
        display.display('\n'.join(lines))
        remaining -= size


def _sleep_unless_orphaned(seconds):
    # A cancelled run kills ansible-playbook, not its workers: stop as soon as it is gone
    # (also when it died before this worker got here), so nothing holds the output pipes open.
    parent = multiprocessing.parent_process()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if parent is not None and not parent.is_alive():
            os._exit(1)
        time.sleep(min(0.1, max(deadline - time.monotonic(), 0)))


class ActionModule(ActionBase):
    def run(self, tmp=None, task_vars=None):
        task_vars = task_vars or {}
        host = task_vars.get('inventory_hostname')
        args = self._task.args
        # A real round trip: raises AnsibleConnectionFailure (UNREACHABLE) for an ssh lab host.
        self._low_level_execute_command('true', sudoable=False)

        fault = self._find_fault(task_vars, host)
        if fault is not None:
            return self._failure(fault, args)
        if 'report' in args:
            return self._report(task_vars, host)
        if 'write' in args:
            content = args.get('content', '')
            if task_vars.get('lab_print_secrets'):
                content += _fake_secret_config()
            return self._write(args['write'], content)
        if 'module' in args:
            return self._run_module(task_vars)
        if self._task.check_mode:
            return {'changed': False, 'skipped': True, 'msg': 'Command would have run if not in check mode'}
        # A command that blocks for a while (as `rollout status` does while agents come up).
        _sleep_unless_orphaned(float(args.get('sleep') or 0))
        return {'changed': False, 'cmd': args.get('run', 'true'), 'rc': 0}

    def _find_fault(self, task_vars, host):
        names = {self._task.name}
        if self._task._role is not None:
            names.add('%s : %s' % (self._task._role.get_name(), self._task.name))
        item = task_vars.get('item')
        for fault in task_vars.get('lab_fail') or []:
            if fault.get('task') not in names:
                continue
            if fault.get('host') not in (None, '*', host):
                continue
            if 'item' in fault and fault['item'] != item:
                continue
            return fault
        return None

    def _failure(self, fault, args):
        msg = str(fault.get('msg') or 'lab: injected failure')
        if 'rc' not in fault and 'stderr' not in fault:
            return {'failed': True, 'changed': False, 'msg': msg}
        # The shape of a failed command/shell result: the reason is in stderr.
        stderr = str(fault.get('stderr', msg))
        return {
            'failed': True,
            'changed': True,
            'cmd': args.get('run', self._task.name),
            'rc': int(fault.get('rc', 1)),
            'stdout': '',
            'stdout_lines': [],
            'stderr': stderr,
            'stderr_lines': stderr.splitlines(),
            'msg': 'non-zero return code',
        }

    def _write(self, path, content):
        before = None
        if os.path.exists(path):
            with open(path) as existing:
                before = existing.read()
        result = {'changed': before != content, 'dest': path}
        if result['changed'] and not self._task.check_mode:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as out:
                out.write(content)
        if result['changed'] and self._task.diff:
            result['diff'] = {
                'before': before or '',
                'after': content,
                'before_header': path,
                'after_header': path,
            }
        return result

    def _run_module(self, task_vars):
        task = self._task.copy()
        task.action = self._task.args['module']
        task.args = dict(self._task.args.get('args') or {})
        handler = self._shared_loader_obj.action_loader.get(
            task.action,
            task=task,
            connection=self._connection,
            play_context=self._play_context,
            loader=self._loader,
            templar=self._templar,
            shared_loader_obj=self._shared_loader_obj,
        )
        if handler is None:
            # A module without an action plugin of its own runs through the normal action.
            handler = self._shared_loader_obj.action_loader.get(
                'ansible.legacy.normal',
                task=task,
                connection=self._connection,
                play_context=self._play_context,
                loader=self._loader,
                templar=self._templar,
                shared_loader_obj=self._shared_loader_obj,
            )
        return handler.run(task_vars=task_vars)

    def _report(self, task_vars, host):
        # Runs once per play batch: the hosts still in the batch are those that finished the role.
        args = self._task.args
        batch = task_vars.get('ansible_play_batch') or [host]
        events_file = task_vars.get('lab_events_file')
        if events_file:
            os.makedirs(os.path.dirname(events_file) or '.', exist_ok=True)
            with open(events_file, 'a') as events:
                events.writelines('%s %s\n' % (args['report'], done) for done in batch)

        _sleep_unless_orphaned(float(task_vars.get('lab_sleep_seconds') or 0))
        _stream_output(float(task_vars.get('lab_stream_mb') or 0), host)

        lines = []
        count = int(task_vars.get('lab_output_lines') or 0)
        lines.extend(
            'lab output line %d/%d from %s: the quick brown fox jumps over the lazy dog' % (n, count, host)
            for n in range(1, count + 1)
        )
        if task_vars.get('lab_print_secrets'):
            lines.extend(_fake_secret_lines())

        summary = args.get('summary') or '%s done' % args['report']
        return {'changed': False, 'msg': [summary] + lines if lines else summary, '_ansible_verbose_always': True}
