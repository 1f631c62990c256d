import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../src/lifecycle/repo/render-template.js';

const vars: Record<string, string | null> = { playbook_dir: '/repo/infra/ansible/playbooks', empty: '' };
const lookup = (name: string) => (name in vars ? vars[name] : null);

describe('renderTemplate: the Jinja a vars file ordinarily uses, as Ansible renders it', () => {
  it('renders names, quoted literals and | default() only when the value is undefined', () => {
    expect(renderTemplate('{{ playbook_dir }}/../x.sh', lookup)).toBe(
      '/repo/infra/ansible/playbooks/../x.sh',
    );
    expect(renderTemplate("{{ missing | default('clusters/dev') }}", lookup)).toBe('clusters/dev');
    expect(renderTemplate('{{ missing | default(playbook_dir) }}', lookup)).toBe(
      '/repo/infra/ansible/playbooks',
    );
    // An empty string is defined: default() leaves it, as Jinja does without its second argument.
    expect(renderTemplate("{{ empty | default('x') }}", lookup)).toBe('');
  });

  it('leaves what it cannot tell undefined instead of guessing', () => {
    expect(renderTemplate('{{ missing }}', lookup)).toBeUndefined();
    expect(renderTemplate('{{ playbook_dir | dirname }}', lookup)).toBeUndefined();
    expect(renderTemplate("{{ missing | default('a', true) }}", lookup)).toBeUndefined();
    expect(renderTemplate("{{ missing | default('a|b') }}", lookup)).toBeUndefined();
    expect(renderTemplate('{% if x %}a{% endif %}', lookup)).toBeUndefined();
    expect(renderTemplate('{{ (a ~ b) }}', lookup)).toBeUndefined();
  });
});
