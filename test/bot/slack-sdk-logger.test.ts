import { LogLevel } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { slackSdkLogger } from '../../src/bot/slack-sdk-logger.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { captureLogger } from '../support/capture-logger.js';

describe('the Slack SDKs’ logger', () => {
  it('writes through the redacting process logger at the level the SDK asked for', () => {
    const { logger, lines } = captureLogger(createRedactor(), 'debug');
    const sdk = slackSdkLogger(logger);
    sdk.setLevel(LogLevel.WARN);
    sdk.setName('bolt-app');
    sdk.info('not written');
    sdk.warn('http request failed', { headers: { authorization: 'Bearer xoxb-1111-2222-sdklogsecret' } });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ level: 40, component: 'bolt-app' });
    expect(line.msg).toContain('http request failed');
    expect(lines[0]).not.toContain('sdklogsecret');
  });
});
