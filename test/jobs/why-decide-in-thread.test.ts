import { describe, expect, it } from 'vitest';
import { whyDecideInThread } from '../../src/jobs/why-decide-in-thread.js';
import { CILIUM_REQUEST } from '../support/cilium-approval-request.js';

const request = CILIUM_REQUEST;

describe('whyDecideInThread', () => {
  it('a plain request may be decided from a summary and a confirm dialog', () => {
    expect(whyDecideInThread(request)).toBeUndefined();
  });

  it('names everything that needs the request read whole', () => {
    expect(whyDecideInThread({ ...request, compare: 'a host key to compare' })).toBe('a host key to compare');
    expect(whyDecideInThread({ ...request, warning: 'This step was interrupted while running' })).toBe(
      'it carries a warning',
    );
    expect(
      whyDecideInThread({
        ...request,
        binding: { ...request.binding, consequence: 'everything written since the snapshot' },
      }),
    ).toBe('it says what is lost');
    expect(
      whyDecideInThread({
        ...request,
        warning: 'The approved run is not what would run now',
        previousCommit: 'a'.repeat(40),
      }),
    ).toBe('it carries a warning, the infra repo moved since the last approval');
    expect(whyDecideInThread(undefined)).toBe('its request could not be read');
  });
});
