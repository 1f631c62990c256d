import { type FakeSlack, type HomeViewRecord, visibleText } from '../lab/fake-slack/index.js';

/** A published Home view's text, as a person reads the tab. */
export const homeText = (view: HomeViewRecord | undefined) =>
  view ? visibleText({ blocks: view.blocks }) : '';

/** The person's Home once its text matches, as a person looking at the tab would notice. */
export function homeShowing(slack: FakeSlack, user: string, pattern: RegExp, timeoutMs = 60_000) {
  return slack.waitFor(
    () => {
      const view = slack.homeViews(user).at(-1);
      return view && pattern.test(homeText(view)) ? view : undefined;
    },
    { timeoutMs, description: `${user}'s Home showing ${pattern}` },
  );
}
