import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { FakeSlack } from '../test/lab/fake-slack/index.js';
import { freePort } from '../test/support/free-port.js';
import { START_FLAGS } from '../test/support/start-flags.js';

const SCRIPT = fileURLToPath(new URL('./bare-bolt-app.mjs', import.meta.url));

export interface BareBolt {
  readonly eventsUrl: string;
  stop(): Promise<void>;
}

/** bench/bare-bolt-app.mjs in its own process, node flags as `npm start`, signed as the lab's bot. */
export async function startBareBolt(
  slack: FakeSlack,
  secrets: { readonly botToken: string; readonly signingSecret: string },
): Promise<BareBolt> {
  const port = await freePort();
  const child = spawn(process.execPath, [...START_FLAGS, SCRIPT], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      SLACK_BOT_TOKEN: secrets.botToken,
      SLACK_SIGNING_SECRET: secrets.signingSecret,
      SLACK_API_URL: slack.apiUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  };
  let output = '';
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('did not listen within 30 s')), 30_000);
      child.stdout.on('data', (chunk) => {
        if (String(chunk).includes('listening')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited ${code}`));
      });
    });
  } catch (error) {
    await stop();
    throw new Error(`the bare Bolt app ${(error as Error).message}: ${output}`);
  }
  return { eventsUrl: `http://127.0.0.1:${port}/slack/events`, stop };
}
