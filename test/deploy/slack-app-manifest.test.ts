import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { findObject } from './find-object.js';
import type { Workload } from './k8s-types.js';
import { parseYamlDocuments } from './parse-yaml-documents.js';
import { readCompose } from './read-compose.js';
import { renderKustomization } from './render-kustomization.js';
import { repoPath } from './repo-path.js';

interface SlackManifest {
  features: {
    slash_commands: { command: string; url?: string }[];
    bot_user: { display_name: string };
    app_home?: { home_tab_enabled?: boolean };
  };
  oauth_config: { scopes: { bot: string[]; user?: string[] } };
  settings: {
    interactivity: { is_enabled: boolean; request_url?: string };
    event_subscriptions?: { bot_events?: string[]; request_url?: string };
    socket_mode_enabled: boolean;
  };
}

const path = repoPath('deploy/slack-app-manifest.yaml');
const [manifest] = parseYamlDocuments(await readFile(path, 'utf8'), path) as SlackManifest[];

describe('Slack app manifest', () => {
  it('declares the /cluster slash command and interactivity (approval buttons)', () => {
    expect(manifest!.features.slash_commands.map((c) => c.command)).toEqual(['/cluster']);
    expect(manifest!.settings.interactivity.is_enabled).toBe(true);
    expect(manifest!.features.bot_user.display_name).toBeTruthy();
  });

  it('enables the Home tab and subscribes to app_home_opened, the one event the bot handles', () => {
    expect(manifest!.features.app_home?.home_tab_enabled).toBe(true);
    expect(manifest!.settings.event_subscriptions?.bot_events).toEqual(['app_home_opened']);
    expect(manifest!.settings.event_subscriptions?.request_url).toBeUndefined();
  });

  it('asks for exactly the bot scopes the bot uses, and no user scopes', () => {
    expect([...manifest!.oauth_config.scopes.bot].sort()).toEqual(
      ['chat:write', 'commands', 'files:write', 'usergroups:read', 'users:read'].sort(),
    );
    expect(manifest!.oauth_config.scopes.user ?? []).toEqual([]);
  });

  it('uses Socket Mode, so no request URL is needed and the bot (never the worker) gets SLACK_APP_TOKEN', async () => {
    const { settings, features } = manifest!;
    expect(settings.socket_mode_enabled).toBe(true);
    expect(settings.interactivity.request_url).toBeUndefined();
    expect(features.slash_commands.map((c) => c.url)).toEqual([undefined]);
    const { objects } = await renderKustomization(repoPath('deploy/overlays/homelab'));
    const envNames = (name: string) =>
      (findObject<Workload>(objects, 'Deployment', name).spec.template.spec.containers[0]!.env ?? []).map(
        (v) => v.name,
      );
    expect(envNames('cluster-bot-bot')).toContain('SLACK_APP_TOKEN');
    expect(envNames('cluster-bot-worker')).not.toContain('SLACK_APP_TOKEN');
    expect(envNames('cluster-bot-worker')).not.toContain('SLACK_SIGNING_SECRET');
    const compose = await readCompose();
    expect(Object.keys(compose.services.bot?.environment ?? {})).toContain('SLACK_APP_TOKEN');
    expect(Object.keys(compose.services.worker?.environment ?? {})).not.toContain('SLACK_APP_TOKEN');
  });
});
