import { afterEach, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';

let lab: SlackLab | undefined;
afterEach(async () => {
  await lab?.stop();
  lab = undefined;
});

/** Whether something answers HTTP at this address (a refused connection is not an answer). */
const answers = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

describe('HOST: the one address every listener binds', { timeout: labMs(120_000) }, () => {
  it("serves Slack's port and the ops port on HOST, and nothing on another loopback address", async () => {
    lab = await startSlackLab({ env: { HOST: '127.0.0.2' } });
    const { port, opsPort } = lab.bot;
    expect(await answers(`http://127.0.0.2:${opsPort}/healthz`)).toBe(true);
    expect(await answers(`http://127.0.0.2:${port}/healthz`)).toBe(true);
    expect(await answers(`http://127.0.0.1:${opsPort}/healthz`)).toBe(false);
    expect(await answers(`http://127.0.0.1:${port}/healthz`)).toBe(false);
  });
});
