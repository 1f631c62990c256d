import { describe, expect, it } from 'vitest';
import { describeProgress } from '../../../src/lifecycle/ansible/describe-progress.js';
import { parseListTasks } from '../../../src/lifecycle/ansible/parse-list-tasks.js';
import { loadFixture } from './load-fixture.js';

describe('parseListTasks', () => {
  it('reads the plays and tasks of site.yml on dev', () => {
    const { plays } = parseListTasks(loadFixture('site-list-tasks.txt').lines.join('\n'));
    expect(plays.map((play) => [play.index, play.hosts, play.tasks.length])).toEqual([
      [1, 'k3s_servers', 6],
      [2, 'k3s_primary', 4],
      [3, 'k3s_secondary', 4],
      [4, 'k3s_servers', 6],
      [5, 'k3s_servers', 5],
      [6, 'k3s_servers', 3],
    ]);
    expect(plays[1]).toMatchObject({ name: 'k3s primary (cluster-init)' });
    expect(plays[1]?.tasks).toContain('k3s_server : Install k3s');
    expect(plays[4]?.name).toBe('Verify cluster (gate #1)');
  });

  it('shows the prod host patterns when run with the prod extra vars', () => {
    const { plays } = parseListTasks(loadFixture('prod-site-list-tasks.txt').lines.join('\n'));
    expect(plays.map((play) => play.hosts)).toEqual([
      'k3s_prod',
      'k3s_prod_primary',
      'k3s_prod_secondary',
      'k3s_prod',
      'k3s_prod',
      'k3s_prod',
    ]);
  });

  it('reads nothing from text that is not a task list', () => {
    expect(parseListTasks('ERROR! the playbook: playbooks/nope.yml could not be found\n')).toEqual({
      plays: [],
    });
  });
});

describe('describeProgress', () => {
  const state = {
    playIndex: 2,
    playName: 'k3s primary (cluster-init)',
    taskIndex: 17,
    taskName: 'k3s_server : Install k3s',
  };

  it('says where the run is, with the play count when known', () => {
    expect(describeProgress({ ...state, playCount: 5 })).toBe('play 2/5, task 17: k3s_server : Install k3s');
    expect(describeProgress(state)).toBe('play 2, task 17: k3s_server : Install k3s');
  });

  it('names the play between its banner and its first task, and says when nothing ran yet', () => {
    expect(describeProgress({ ...state, taskName: null, playCount: 6 })).toBe(
      'play 2/6: k3s primary (cluster-init)',
    );
    expect(describeProgress({ playIndex: 0, playName: null, taskIndex: 0, taskName: null })).toBe('starting');
  });
});
