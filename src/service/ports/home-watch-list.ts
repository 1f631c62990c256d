/** Who watches the App Home, shared by every bot process, and the version of it each was last shown. */
export interface HomeWatchList {
  watch(userId: string, at: number): Promise<void>;
  /** Who watched at or after `since`; those who did not are forgotten, with what they were shown. */
  watchersSince(since: number): Promise<string[]>;
  /** Sets the user's shown version to `hash` and answers whether it differed, in one step. */
  markShown(userId: string, hash: string): Promise<boolean>;
}
