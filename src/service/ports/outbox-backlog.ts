/** How much of the threads' Slack calls waits to be sent, for /metrics. */
export interface OutboxBacklog {
  read(): Promise<{ readonly jobs: number; readonly operations: number }>;
}
