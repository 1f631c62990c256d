/**
 * The yardstick for the bot's ack: a bare Bolt app on an HTTPReceiver that only acks `/cluster`.
 * Plain JavaScript so node runs it as it runs the bot's compiled `dist/main.js`, with the same flags
 * (bench/start-bare-bolt.ts) and no loader in between. Prints `listening` once it takes requests.
 */
import bolt from '@slack/bolt';

const { App, HTTPReceiver, LogLevel } = bolt;
const receiver = new HTTPReceiver({ signingSecret: process.env.SLACK_SIGNING_SECRET ?? '' });
const app = new App({
  token: process.env.SLACK_BOT_TOKEN,
  receiver,
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL },
  logLevel: LogLevel.WARN,
});
app.command('/cluster', async ({ ack }) => {
  await ack();
});
await app.start(Number(process.env.PORT));
process.stdout.write('listening\n');
