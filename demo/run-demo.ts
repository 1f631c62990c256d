/**
 * `npm run demo`: the test lab (loopback sshd as ops host and nodes, the miniature infra repo run by
 * the real ansible-playbook, kube-sim) and the console wired to it, with the job page on at a
 * loopback address. Nothing leaves 127.0.0.0/8.
 * Needs what the tests need: redis on 127.0.0.1:6379, sshd and ansible-playbook (see README).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { freePort } from '../test/support/free-port.js';
import { startLabWorld } from '../test/support/lab-world.js';

const lab = await startLabWorld();
const port = process.env.PORT ?? String(await freePort());
process.stdout.write(
  [
    'cluster-bot demo: a lab on loopback (sshd, infra repo + ansible, kube-sim) is up.',
    `Job pages on http://127.0.0.1:${port} (each job prints its link; the key is new each run).`,
    'Try: /cluster plan up dev   /cluster up dev   then approve 1, approve 2 …   /cluster status   quit',
    'Line editing and history (↑ ↓) as in a shell.',
    '',
  ].join('\n'),
);
const console = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  env: {
    ...process.env,
    ...lab.consoleEnv(),
    CONSOLE_USER: 'U0BOB',
    HOST: '127.0.0.1',
    PORT: port,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // A fresh key per run: links from an earlier demo stop opening, as they should.
    JOB_PAGE_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
  stdio: 'inherit',
});
const code = await new Promise<number | null>((resolve) => console.once('exit', resolve));
await lab.stop();
process.exit(code ?? 0);
