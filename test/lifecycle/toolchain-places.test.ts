import { describe, expect, it } from 'vitest';
import { toolchainPlaces } from '../../src/lifecycle/playbook/toolchain-places.js';
import { debianAnsibleVersion } from '../support/scripted-shell.js';

const VERSION = debianAnsibleVersion('/home/ops/homelab/infra/ansible/ansible.cfg').join('\n');
const COLLECTIONS = [
  '',
  '# /usr/lib/python3/dist-packages/ansible_collections',
  'Collection                    Version',
  '----------------------------- -------',
  'kubernetes.core               2.3.2  ',
].join('\n');
const IMPORT_PATH =
  '/usr/lib/python3.11\n/usr/lib/python3/dist-packages\n/home/ops/.local/lib/python3.11/site-packages';

describe('the places a toolchain stamp looks at, as Ansible names them', () => {
  it('takes the executables, the package, every collections folder Ansible looks in or found, and the import path', () => {
    expect(toolchainPlaces(VERSION, COLLECTIONS, IMPORT_PATH)).toEqual({
      files: ['/usr/bin/ansible', '/usr/bin/python3', '/home/ops/homelab/infra/ansible/ansible.cfg'],
      packages: ['/usr/lib/python3/dist-packages/ansible'],
      collections: [
        '/home/ops/.ansible/collections/ansible_collections',
        '/usr/share/ansible/collections/ansible_collections',
        '/usr/lib/python3/dist-packages/ansible_collections',
      ],
      importPath: [
        '/usr/lib/python3.11',
        '/usr/lib/python3/dist-packages',
        '/home/ops/.local/lib/python3.11/site-packages',
      ],
    });
  });

  it('watches a configured location that is itself an ansible_collections folder there, as Ansible looks', () => {
    const version = VERSION.replace(
      'ansible collection location = /home/ops/.ansible/collections:',
      'ansible collection location = /srv/shared/ansible_collections/:',
    );
    expect(toolchainPlaces(version, COLLECTIONS, IMPORT_PATH)?.collections).toEqual([
      '/srv/shared/ansible_collections',
      '/usr/share/ansible/collections/ansible_collections',
      '/usr/lib/python3/dist-packages/ansible_collections',
    ]);
  });

  it('names none when a path is not absolute (find would take "-delete" for an action), or an answer lacks one', () => {
    expect(
      toolchainPlaces(VERSION.replace('= /usr/bin/ansible', '= -delete'), COLLECTIONS, IMPORT_PATH),
    ).toBeUndefined();
    expect(toolchainPlaces(VERSION, COLLECTIONS, `${IMPORT_PATH}\n-fprint /tmp/x`)).toBeUndefined();
    expect(toolchainPlaces(VERSION, '# -delete\n', IMPORT_PATH)).toBeDefined();
    expect(toolchainPlaces(VERSION, COLLECTIONS, '')).toBeUndefined();
    expect(toolchainPlaces('ERROR! Unexpected Exception', COLLECTIONS, IMPORT_PATH)).toBeUndefined();
  });
});
