import { describe, expect, it } from 'vitest';
import { compareK3sVersions, parseK3sVersion } from '../../src/lifecycle/upgrade/k3s-version.js';
import { upgradeVersionVerdict } from '../../src/lifecycle/upgrade/upgrade-version-rule.js';

const servers = (...versions: (string | undefined)[]) =>
  versions.map((version, index) => ({ server: `k3s-dev-${index + 1}`, version }));

describe('k3s versions', () => {
  it('reads the form k3s_version and kubeletVersion share, k3s revision included', () => {
    expect(parseK3sVersion('v1.36.4+k3s1')).toEqual({
      text: 'v1.36.4+k3s1',
      major: 1,
      minor: 36,
      patch: 4,
      revision: 1,
    });
    expect(parseK3sVersion('stable')).toBeUndefined();
    expect(parseK3sVersion('v1.36.4-rc1+k3s1')).toBeUndefined();
    // Kubernetes' version alone names no k3s release: v1.36.4+k3s1 and +k3s2 are different builds.
    expect(parseK3sVersion('v1.36.4')).toBeUndefined();
    const order = (a: string, b: string) =>
      Math.sign(compareK3sVersions(parseK3sVersion(a)!, parseK3sVersion(b)!));
    expect(order('v1.36.4+k3s2', 'v1.36.4+k3s1')).toBe(1);
    expect(order('v1.36.10+k3s1', 'v1.36.9+k3s1')).toBe(1);
    expect(order('v1.35.9+k3s1', 'v1.36.0+k3s1')).toBe(-1);
  });
});

describe('the upgrade version rule', () => {
  it('upgrades, in order, each server one minor version (or a patch) below the target, skipping those already there', () => {
    expect(
      upgradeVersionVerdict('v1.37.1+k3s1', servers('v1.36.4+k3s1', 'v1.37.1+k3s1', 'v1.37.0+k3s1')),
    ).toEqual({
      problems: [],
      upgrades: [
        { server: 'k3s-dev-1', from: 'v1.36.4+k3s1' },
        { server: 'k3s-dev-3', from: 'v1.37.0+k3s1' },
      ],
    });
  });

  it('refuses a downgrade and a jump of more than one minor version, naming every server and the target at once', () => {
    expect(
      upgradeVersionVerdict(
        'v1.37.1+k3s1',
        servers('v1.38.0+k3s1', 'v1.35.2+k3s1', 'v1.36.4+k3s1', undefined),
      ),
    ).toEqual({
      problems: [
        'k3s-dev-1 runs v1.38.0+k3s1, newer than v1.37.1+k3s1: a downgrade is refused',
        'k3s-dev-2 runs v1.35.2+k3s1, more than one minor version below v1.37.1+k3s1: upgrade one minor version at a time',
        'k3s-dev-4 has no Node: its running version is unknown',
      ],
      upgrades: [],
    });
  });

  it('a k3s revision back is a downgrade; a target that is no release is refused', () => {
    expect(upgradeVersionVerdict('v1.36.4+k3s1', servers('v1.36.4+k3s2')).problems).toEqual([
      'k3s-dev-1 runs v1.36.4+k3s2, newer than v1.36.4+k3s1: a downgrade is refused',
    ]);
    expect(upgradeVersionVerdict('v2.0.0+k3s1', servers('v1.36.4+k3s1')).problems).toEqual([
      'k3s-dev-1 runs v1.36.4+k3s1, more than one minor version below v2.0.0+k3s1: upgrade one minor version at a time',
    ]);
    expect(upgradeVersionVerdict('latest', servers('v1.36.4+k3s1')).problems).toEqual([
      'k3s_version "latest" is not a k3s release such as v1.36.4+k3s1',
    ]);
  });
});
