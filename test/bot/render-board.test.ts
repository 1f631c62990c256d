import { describe, expect, it } from 'vitest';
import { renderBoard } from '../../src/bot/render-board.js';

const board = { title: 'packages k3s-dev-1', jobNumber: 7, requestedBy: 'U0ALICE', steps: [] };

describe('the board', () => {
  it("links the job's page when it has one, with the link's & escaped as Slack reads it", () => {
    const { text } = renderBoard(board, 'https://bot.example.org/jobs/job-7?exp=1&sig=abc');
    expect(text).toContain(
      '<https://bot.example.org/jobs/job-7?exp=1&amp;sig=abc|job page: whole log and timeline>',
    );
  });

  it('says the job waits, not runs, while a step waits for approval', () => {
    const step = { id: '5-cilium', title: 'cilium.yml', target: 'dev', disruptive: true };
    const waiting = { ...board, steps: [{ ...step, status: 'waiting' as const }] };
    const running = { ...board, steps: [{ ...step, status: 'running' as const }] };
    expect(renderBoard(waiting).text).toContain('Status: ⏸ waiting for approval\n');
    expect(renderBoard(running).text).toContain('Status: running\n');
  });

  it('has no link without PUBLIC_URL', () => {
    expect(renderBoard(board).text).not.toContain('job page');
  });
});
