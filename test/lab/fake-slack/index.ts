export {
  type ClickOptions,
  createSlackDriver,
  type DriverResponse,
  type HomeClickOptions,
  type SlackDriver,
  type SlackDriverOptions,
  type SlashOptions,
} from './create-slack-driver.js';
export type { DeliverOptions, Delivery, EnvelopeType } from './create-socket-mode-server.js';
export type { RateLimitRule } from './default-rate-limits.js';
export type * from './fake-slack-types.js';
export {
  type ButtonSelector,
  type FoundButton,
  findButton,
  listButtons,
  visibleText,
} from './find-button.js';
export { signSlackRequest } from './sign-slack-request.js';
export { type FakeSlack, type FakeSlackOptions, startFakeSlack } from './start-fake-slack.js';
