import { createInstance } from '@module-federation/runtime';
import { describe, expect, it } from 'vitest';
import { toRemoteEntries } from '../src/federation/remote-list';
import { fallbackPlugin, isFallbackModule } from '../src/federation/remotes';

const gatewayAnswer = {
  mf_files: '/remotes/files/mf-manifest.json',
  mf_marketplace: '/remotes/marketplace/mf-manifest.json',
  mf_player: 'http://localhost:3003/mf-manifest.json',
};

describe('/remotes.json → registerRemotes', () => {
  it('maps each federation name to its manifest URL, relative ones against the page', () => {
    expect(toRemoteEntries(gatewayAnswer, 'https://app.example/files?x=1')).toEqual([
      { name: 'mf_files', entry: 'https://app.example/remotes/files/mf-manifest.json' },
      { name: 'mf_marketplace', entry: 'https://app.example/remotes/marketplace/mf-manifest.json' },
      { name: 'mf_player', entry: 'http://localhost:3003/mf-manifest.json' },
    ]);
  });

  it('skips entries that are not a name with an http(s) URL, and rejects a non-object', () => {
    const entries = toRemoteEntries(
      { mf_files: '', 'bad name': '/x.json', mf_player: 42, mf_js: 'javascript:alert(1)', mf_ok: '/ok.json' },
      'http://localhost:8080/',
    );
    expect(entries).toEqual([{ name: 'mf_ok', entry: 'http://localhost:8080/ok.json' }]);
    expect(() => toRemoteEntries(['mf_files'], 'http://localhost/')).toThrow();
    expect(() => toRemoteEntries(null, 'http://localhost/')).toThrow();
  });

  it('registers them in a federation runtime, replacing an earlier registration', () => {
    const runtime = createInstance({ name: 'shell_test', remotes: [] });
    runtime.registerRemotes(toRemoteEntries(gatewayAnswer, 'http://localhost:8080/'));
    expect(runtime.options.remotes.map((r) => [r.name, 'entry' in r ? r.entry : ''])).toEqual([
      ['mf_files', 'http://localhost:8080/remotes/files/mf-manifest.json'],
      ['mf_marketplace', 'http://localhost:8080/remotes/marketplace/mf-manifest.json'],
      ['mf_player', 'http://localhost:3003/mf-manifest.json'],
    ]);
    runtime.registerRemotes([{ name: 'mf_player', entry: 'http://localhost:8080/remotes/player/mf-manifest.json' }], {
      force: true,
    });
    const player = runtime.options.remotes.find((r) => r.name === 'mf_player');
    expect(player && 'entry' in player ? player.entry : '').toBe(
      'http://localhost:8080/remotes/player/mf-manifest.json',
    );
  });

  it('the fallback plugin answers a marked module when a remote cannot be loaded, and nothing for a manifest', () => {
    const plugin = fallbackPlugin();
    const mod = plugin.errorLoadRemote({ id: 'mf_files/routes', error: new Error('down'), lifecycle: 'onLoad' });
    expect(isFallbackModule(mod)).toBe(true);
    expect(mod?.default).toEqual({});
    expect(plugin.errorLoadRemote({ id: 'x', error: new Error('down'), lifecycle: 'afterResolve' })).toBeUndefined();
    expect(isFallbackModule({ default: {} })).toBe(false);
  });
});
