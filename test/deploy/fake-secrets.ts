/** Fake values for the Secrets the Deployments reference (`<secret>/<key>`), to read their environment. */
export const FAKE_SECRETS = {
  'cluster-bot-slack/bot-token': 'xoxb-0-fake',
  'cluster-bot-slack/app-token': 'xapp-0-fake',
  'cluster-bot-slack/signing-secret': 'fake-signing-secret',
  'cluster-bot-slack/job-page-secret': 'fake-job-page-secret-0123456789abcdef',
  'cluster-bot-redis/password': '0123456789abcdef0123456789abcdef',
};
