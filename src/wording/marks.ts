/**
 * How a transport marks what the wording says: the wording (src/wording) decides the words, each
 * edge hands in its marks (Slack's mrkdwn in src/bot, a terminal's text in src/console), so both
 * say the same thing without either reading the other's markup back.
 */
export interface Marks {
  /** Text someone else wrote (a node's output, a typed word, a stored summary), made inert. */
  text(raw: string): string;
  /** Emphasis around what is already marked. */
  bold(marked: string): string;
  /** Inline code around what is already marked. */
  code(marked: string): string;
  /** Someone's text as a block on its own lines, shown as typed. */
  block(raw: string): string;
  /** A person (U…/W…) as the message names them. */
  user(id: string): string;
  /** A person or a user group (S…) as the message notifies them. */
  mention(id: string): string;
  channel(id: string): string;
  link(url: string, label: string): string;
  /** A moment in the reader's time zone where the transport knows it, else as `utc` says it. */
  date(at: number, utc: string): string;
}
