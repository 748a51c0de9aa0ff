import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { devAllowedHosts } from '../src/configs/base';
import { hostConfig } from '../src/configs/host';
import { LEAN_ENTRY, LEAN_MANIFEST, remoteConfig, remoteConfigs } from '../src/configs/remote';
import { catalogueFiles } from '../src/plugins/catalogue-list';
import { startupFiles } from '../src/plugins/startup-preload';
import { isSharedCode, sharedCodeDirs } from '../src/shared-code';
import { sharedPolicy, sharedSingletons } from '../src/shared-policy';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const frontEnds = ['shell', 'mf-files', 'mf-marketplace', 'mf-player'];

describe('shared-dependency policy', () => {
  it('gives the host and every remote the same singletons with the same required versions', () => {
    const policies = frontEnds.map((fe) => sharedPolicy(path.join(root, fe)));
    for (const policy of policies) expect(policy).toEqual(policies[0]);
    const shell = policies[0] ?? {};
    expect(Object.keys(shell).sort()).toEqual(sharedSingletons.map((s) => s.key).sort());
    for (const entry of Object.values(shell)) expect(entry.singleton).toBe(true);
  });

  it('takes required versions from package.json, subpaths from their parent package', () => {
    const shell = sharedPolicy(path.join(root, 'shell'));
    expect(shell.react?.requiredVersion).toBe('19.3.1');
    expect(shell['react-dom/client']?.requiredVersion).toBe(shell['react-dom']?.requiredVersion);
    expect(shell['react/jsx-runtime']?.requiredVersion).toBe('19.3.1');
    expect(shell['@tanstack/react-query']?.requiredVersion).toBe('5.108.0');
    expect(shell['@pagecast/ui']).toEqual({ singleton: true, requiredVersion: '^0.1.0', version: '0.1.0' });
  });

  it('pins the same rspack and federation versions in all four front ends', () => {
    const pins = [
      '@rspack/core',
      '@rspack/cli',
      '@rspack/dev-server',
      '@module-federation/enhanced',
      '@module-federation/runtime',
    ];
    const seen = frontEnds.map(async (fe) => {
      const pkg = (await import(path.join(root, fe, 'package.json'), { with: { type: 'json' } })).default as {
        dependencies: Record<string, string>;
        devDependencies: Record<string, string>;
      };
      const all = { ...pkg.dependencies, ...pkg.devDependencies };
      return pins.map((name) => all[name]);
    });
    return Promise.all(seen).then((versions) => {
      for (const v of versions) expect(v).toEqual(versions[0]);
      expect(versions[0]).toEqual(['2.3.2', '2.2.8', '2.2.2', '2.9.2', '2.9.2']);
    });
  });
});

describe('rspack configurations', () => {
  it('builds remotes with a manifest at publicPath auto and the host with no remotes', () => {
    const remote = remoteConfig({
      name: 'mf_player',
      dir: path.join(root, 'mf-player'),
      port: 3003,
      exposes: { './routes': './src/routes/index.tsx' },
      mode: 'production',
    });
    expect(remote.output?.publicPath).toBe('auto');
    expect(remote.output?.filename).toMatch(/\[contenthash/);
    const mf = remote.plugins?.find((p) => p?.constructor.name === 'ModuleFederationPlugin') as unknown as {
      _options: Record<string, unknown>;
    };
    expect(mf._options).toMatchObject({ name: 'mf_player', manifest: true, dts: false, filename: 'remoteEntry.js' });

    const host = hostConfig({ dir: path.join(root, 'shell'), port: 3000, mode: 'production' });
    const hostMf = host.plugins?.find((p) => p?.constructor.name === 'ModuleFederationPlugin') as unknown as {
      _options: Record<string, unknown>;
    };
    expect(hostMf._options).toMatchObject({ name: 'shell', remotes: {}, dts: false });
    expect(host.plugins?.some((p) => p?.constructor.name === 'HtmlRspackPlugin')).toBe(true);
  });
});

describe('lean containers', () => {
  const federationOf = (config: { plugins?: unknown[] }): Record<string, unknown> => {
    const plugin = config.plugins?.find(
      (p) => (p as object | undefined)?.constructor.name === 'ModuleFederationPlugin',
    );
    if (!plugin) throw new Error('no ModuleFederationPlugin');
    return (plugin as { _options: Record<string, unknown> })._options;
  };
  const player = (mode: 'production' | 'development') =>
    remoteConfigs({
      name: 'mf_player',
      dir: path.join(root, 'mf-player'),
      port: 3003,
      exposes: { './routes': './src/routes/index.ts' },
      mode,
    });

  it("a production build of a remote also writes a container that takes the host's runtime, in the same folder", () => {
    const [full, lean, ...more] = player('production');
    expect(more).toEqual([]);
    expect(full?.name).toBe('mf_player');
    expect(federationOf(full ?? {})).toMatchObject({ filename: 'remoteEntry.js', manifest: true });
    expect(federationOf(full ?? {}).experiments).not.toHaveProperty('externalRuntime');
    expect(lean?.name).toBe('mf_player-lean');
    // after the full build (whose cleaning would remove its files), at the same path: the chunks are shared
    expect(lean?.dependencies).toEqual(['mf_player']);
    expect(lean?.output?.path).toBe(full?.output?.path);
    expect(lean?.output?.publicPath).toBe('auto');
    expect(lean?.output?.clean).toBe(false);
    expect(lean?.entry).toEqual({});
    expect(federationOf(lean ?? {})).toMatchObject({
      name: 'mf_player',
      filename: LEAN_ENTRY,
      manifest: { fileName: LEAN_MANIFEST },
      exposes: { './routes': './src/routes/index.ts' },
      experiments: { externalRuntime: true },
    });
    expect(federationOf(lean ?? {}).shared).toEqual(federationOf(full ?? {}).shared);
    // a development build (the remote's dev server) stays one self-contained container
    expect(player('development').map((c) => c.name)).toEqual(['mf_player']);
  });

  it('the host provides its runtime to them', () => {
    const host = hostConfig({ dir: path.join(root, 'shell'), port: 3000, mode: 'production' });
    expect(federationOf(host).experiments).toMatchObject({ provideExternalRuntime: true });
  });
});

describe('dev servers of remotes', () => {
  it('serve their chunks to the app on another origin: loopback host names allowed, plus DEV_ALLOWED_HOSTS', () => {
    expect(devAllowedHosts({})).toEqual(['localhost', '127.0.0.1', '.localhost']);
    expect(devAllowedHosts({ DEV_ALLOWED_HOSTS: ' signage.lan , .example.test,localhost' })).toEqual([
      'localhost',
      '127.0.0.1',
      '.localhost',
      'signage.lan',
      '.example.test',
    ]);
    const config = remoteConfig({
      name: 'mf_marketplace',
      dir: path.join(root, 'mf-marketplace'),
      port: 3002,
      exposes: { './routes': './src/routes/index.ts' },
    });
    const devServer = config.devServer as { allowedHosts?: unknown; headers?: Record<string, string> };
    expect(devServer.allowedHosts).toEqual(devAllowedHosts());
    expect(devServer.headers?.['Access-Control-Allow-Origin']).toBe('*');
  });
});

describe('startupFiles (the host page preloads them)', () => {
  const group = (origin: { request?: string; module?: string }, ...files: string[][]) => ({
    origins: [
      { request: origin.request ?? null, module: origin.module ? { identifier: () => origin.module ?? '' } : null },
    ],
    chunks: files.map((f) => ({ files: f })),
  });

  it('lists the async boundary and the shared modules the host provides, not their fallbacks, pages or catalogues', () => {
    const files = startupFiles([
      group({ request: './src/index.ts' }, ['main.1.js']),
      group({ request: './bootstrap', module: 'swc!/app/src/index.ts' }, ['10.a.js', '10.a.css', '10.a.js.map']),
      group({ module: 'provide shared module (default) react@19.3.1 = /nm/react/index.js' }, ['20.b.js']),
      group({ module: 'consume shared module (default) react@19.3.1 (strict) (fallback: /nm/react/index.js)' }, [
        '21.c.js',
      ]),
      group({ request: '../features/auth/components/login-page', module: 'swc!/app/src/app/pages.ts' }, ['30.d.js']),
      group({ request: './locales/en/index', module: 'swc!/packages/i18n/src/catalogues.ts' }, ['40.e.js']),
    ]);
    expect(files).toEqual(['10.a.css', '10.a.js', '20.b.js']);
  });
});

describe("catalogueFiles (the gateway preloads a page's catalogue)", () => {
  it("lists each language's catalogue chunk by its name, scripts only, and nothing else", () => {
    const named = (name: string | null, ...files: string[]) => ({ name, chunks: [{ files }] });
    expect(
      catalogueFiles([
        named('catalogue-en', 'catalogue-en.0a1b2c3d4e.js', 'catalogue-en.0a1b2c3d4e.js.map'),
        named('catalogue-fr', 'catalogue-fr.5f6a7b8c9d.js'),
        named('main', 'main.1.js'),
        named(null, '30.d.js'),
        named('catalogue-english', 'x.js'),
      ]),
    ).toEqual({ en: ['catalogue-en.0a1b2c3d4e.js'], fr: ['catalogue-fr.5f6a7b8c9d.js'] });
  });
});

describe("the host's shared chunk", () => {
  const dirs = sharedCodeDirs();
  const file = (...parts: string[]) => path.join(root, ...parts);

  it('takes the shared singletons and what they depend on, from npm and from the workspace', () => {
    for (const f of [
      file('node_modules/react-dom/cjs/react-dom-client.production.js'),
      file('node_modules/scheduler/index.js'), // react-dom's dependency
      file('node_modules/@tanstack/query-core/build/modern/index.js'), // react-query's
      file('node_modules/react-router/package.json'), // @pagecast/router's
      file('packages/ui/src/index.ts'),
      file('packages/i18n/src/locales/ja/common.json'), // the bundled catalogue
    ])
      expect(isSharedCode(f, dirs), f).toBe(true);
  });

  it('leaves out what only some pages load: zod, forms, the other catalogues, the contracts, the app', () => {
    for (const f of [
      file('node_modules/zod/index.js'),
      file('node_modules/react-hook-form/dist/index.esm.mjs'),
      file('packages/i18n/src/locales/en/index.ts'),
      file('packages/i18n/src/locales/fr/common.json'),
      file('packages/contracts/src/index.ts'),
      file('shell/src/bootstrap.tsx'),
      file('node_modules/react-dom-extra/index.js'), // a name that starts like a shared one
    ])
      expect(isSharedCode(f, dirs), f).toBe(false);
  });
});
