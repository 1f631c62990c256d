import type { SlackMessage, SlackPoster } from '../../src/bot/slack-poster.js';

/** A SlackPoster that keeps what was posted and updated, for tests of what the bot would say. */
export function createRecordingPoster() {
  const posts: SlackMessage[] = [];
  const updates: (SlackMessage & { ts: string })[] = [];
  const poster: SlackPoster = {
    async post(message) {
      posts.push(message);
      return `${posts.length}.0`;
    },
    async update(message) {
      updates.push(message);
    },
    async upload() {},
    permalink: () => '',
  };
  return { poster, posts, updates, texts: () => posts.map((message) => message.text) };
}
