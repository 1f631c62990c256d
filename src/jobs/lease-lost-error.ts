/**
 * Another start of the same job (a stalled job BullMQ handed out again while its first worker was
 * slow, or a second replica) took its cluster's lease over: this start may no longer write or speak.
 */
export class LeaseLostError extends Error {
  constructor(readonly jobId: string) {
    super(`job ${jobId} lost its cluster's lease to another start of it`);
    this.name = 'LeaseLostError';
  }
}
