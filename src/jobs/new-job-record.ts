import { randomBytes } from 'node:crypto';
import type { JobRecord } from './job-record.js';

/** A new job's record before its store gives it an id and a number. */
export type NewJobRecord = Omit<JobRecord, 'id' | 'number'> & {
  readonly pageNonce: string;
  readonly folderTag: string;
};

/**
 * The record of a command's job about to be queued, made one way wherever it is queued (Redis's
 * queue, the unit tests' memory one): the store numbers it, `{ id, number, ...newJobRecord(…) }`.
 */
export function newJobRecord(
  request: Pick<JobRecord, 'command' | 'requestedBy' | 'channel' | 'rerunOf'>,
  createdAt: number,
): NewJobRecord {
  const { command, requestedBy, channel, rerunOf } = request;
  return {
    command,
    requestedBy,
    channel,
    createdAt,
    pageNonce: randomBytes(16).toString('base64url'),
    // Its own random value, not a hash of the page nonce: a record of an older version has a page
    // nonce and must keep its legacy folder names (no tag), and nothing written on hosts others
    // read is then tied to the page's secret. 6 bytes: only jobs of one id on one host must differ.
    folderTag: randomBytes(6).toString('hex'),
    ...(rerunOf && { rerunOf }),
  };
}
