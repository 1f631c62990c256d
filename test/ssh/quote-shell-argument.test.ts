import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isClusterBotError } from '../../src/errors.js';
import { quoteShellArgument } from '../../src/lifecycle/quote-argv.js';
import { buildRemoteCommand } from '../../src/ssh/build-remote-command.js';

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const shellWord = fc
  .string({ unit: 'binary' })
  .filter((value) => !value.includes('\0') && !LONE_SURROGATE.test(value));

/** What a real POSIX shell (dash) makes of the quoted words. */
function shellSees(words: readonly string[]): string[] {
  const script = `printf '%s\\000' ${words.map(quoteShellArgument).join(' ')}`;
  return execFileSync('/bin/sh', ['-c', script]).toString('utf8').split('\0').slice(0, -1);
}

describe('quoteShellArgument', () => {
  it('single-quotes and escapes embedded quotes', () => {
    expect(quoteShellArgument('plain')).toBe('plain');
    expect(quoteShellArgument('a b')).toBe("'a b'");
    expect(quoteShellArgument("it's")).toBe("'it'\\''s'");
    expect(quoteShellArgument('')).toBe("''");
  });

  it('gives the shell back every string byte for byte, one word each', () => {
    fc.assert(
      fc.property(fc.array(shellWord, { minLength: 1, maxLength: 5 }), (words) => {
        expect(shellSees(words)).toEqual(words);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses NUL bytes', () => {
    expect(() => quoteShellArgument('a\0b')).toThrow(expect.objectContaining({ code: 'COMMAND_INVALID' }));
  });
});

describe('buildRemoteCommand', () => {
  it('quotes argv, cwd and env values', () => {
    expect(
      buildRemoteCommand({
        argv: ['ansible-playbook', 'site.yml'],
        cwd: '/srv/infra repo',
        env: { ANSIBLE_NOCOLOR: '1' },
      }),
    ).toBe("cd -- '/srv/infra repo' && env ANSIBLE_NOCOLOR=1 ansible-playbook site.yml");
  });

  it.each(['lower', '1ABC', 'A-B', 'A B', '', 'PATH=x'])('refuses the environment name %j', (name) => {
    let thrown: unknown;
    try {
      buildRemoteCommand({ argv: ['true'], env: { [name]: 'v' } });
    } catch (error) {
      thrown = error;
    }
    expect(isClusterBotError(thrown, 'COMMAND_INVALID')).toBe(true);
  });

  it('refuses an empty argv', () => {
    expect(() => buildRemoteCommand({ argv: [] })).toThrow(
      expect.objectContaining({ code: 'COMMAND_INVALID' }),
    );
  });
});
