import { describe, expect, it } from 'vitest';
import { allInOrder } from '../../src/lifecycle/all-in-order.js';

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(resolve, ms, value));
const failLater = (message: string, ms: number) =>
  new Promise<never>((_, reject) => setTimeout(reject, ms, new Error(message)));

describe('checks run at once, answered in their order', () => {
  it('gives every value in the list order', async () => {
    expect(await allInOrder([later('config', 20), later(2, 1), Promise.resolve(undefined)])).toEqual([
      'config',
      2,
      undefined,
    ]);
  });

  it('refuses with the first check in the list that failed, not the first to fail', async () => {
    const settledAt: string[] = [];
    const config = failLater('Ansible reads no config file', 30).finally(() => settledAt.push('config'));
    const targets = failLater('--list-hosts names node-9', 1).finally(() => settledAt.push('targets'));
    await expect(allInOrder([config, later('repo', 5), targets])).rejects.toThrow(
      'Ansible reads no config file',
    );
    expect(settledAt).toEqual(['targets', 'config']);
  });
});
