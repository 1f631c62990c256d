import { JOB_ID_SOURCE } from './ports/job-id.js';

/** An approval's id names its job and step, so a click finds the record; the time makes it unique. */
export function approvalId(jobId: string, stepId: string, at: number): string {
  return `${jobId}.${stepId}.${at.toString(36)}`;
}

const APPROVAL_ID = new RegExp(`^(${JOB_ID_SOURCE})\\.([a-z0-9-]+)\\.[a-z0-9]+$`);

export function parseApprovalId(id: string): { jobId: string; stepId: string } | undefined {
  const match = APPROVAL_ID.exec(id);
  return match ? { jobId: match[1]!, stepId: match[2]! } : undefined;
}
