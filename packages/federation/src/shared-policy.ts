// The one shared-dependency policy of Pagecast's host and remotes (docs/platform.md, "Front end composition").
import { readPackageJson, workspaceDirs } from './workspace';

/** Shared singletons: package → the package.json whose version it takes (subpaths take their parent's). */
export const sharedSingletons: ReadonlyArray<{ key: string; pkg: string }> = [
  { key: 'react', pkg: 'react' },
  { key: 'react/jsx-runtime', pkg: 'react' },
  { key: 'react/jsx-dev-runtime', pkg: 'react' },
  { key: 'react-dom', pkg: 'react-dom' },
  { key: 'react-dom/client', pkg: 'react-dom' },
  { key: '@pagecast/router', pkg: '@pagecast/router' },
  { key: '@tanstack/react-query', pkg: '@tanstack/react-query' },
  { key: 'i18next', pkg: 'i18next' },
  { key: '@pagecast/ui', pkg: '@pagecast/ui' },
  { key: '@pagecast/i18n', pkg: '@pagecast/i18n' },
];

export interface SharedEntry {
  singleton: true;
  requiredVersion: string;
  version?: string;
}

/**
 * The shared map for one front end: every singleton with requiredVersion from that front end's package.json
 * (exact pins there, so host and remotes must agree), workspace packages at ^their version.
 */
export function sharedPolicy(appDir: string): Record<string, SharedEntry> {
  const app = readPackageJson(appDir);
  const deps = { ...app.devDependencies, ...app.dependencies };
  const shared: Record<string, SharedEntry> = {};
  for (const { key, pkg } of sharedSingletons) {
    const workspaceDir = workspaceDirs[pkg];
    if (workspaceDir) {
      const { version } = readPackageJson(workspaceDir);
      shared[key] = { singleton: true, requiredVersion: `^${version}`, version };
      continue;
    }
    const wanted = deps[pkg];
    if (!wanted) throw new Error(`${app.name}: shared singleton ${pkg} is missing from package.json dependencies`);
    shared[key] = { singleton: true, requiredVersion: wanted };
  }
  return shared;
}
