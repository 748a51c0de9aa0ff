// What goes into the host's one `shared` chunk (configs/host.ts): the code of the shared singletons.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sharedSingletons } from './shared-policy';
import { readPackageJson, repoRoot, workspaceDirs } from './workspace';

/**
 * Where the code of the shared singletons lives: each singleton's package and every npm package it depends on; for
 * workspace packages, their src/ and the npm packages they import. The host provides them all, and every start
 * loads them all.
 */
export function sharedCodeDirs(): string[] {
  const dirs = new Set<string>();
  const dependencies = (dir: string) => Object.keys(readPackageJson(dir).dependencies ?? {});
  const visit = (pkg: string) => {
    const dir = path.join(repoRoot, 'node_modules', pkg);
    if (dirs.has(dir) || !existsSync(path.join(dir, 'package.json'))) return;
    dirs.add(dir);
    for (const dep of dependencies(dir)) visit(dep);
  };
  for (const { pkg } of sharedSingletons) {
    const workspaceDir = workspaceDirs[pkg];
    if (!workspaceDir) {
      visit(pkg);
      continue;
    }
    dirs.add(path.join(workspaceDir, 'src'));
    // what it imports from npm (the router's react-router); other workspace packages are not shared
    for (const dep of dependencies(workspaceDir)) if (!dep.startsWith('@pagecast/')) visit(dep);
  }
  return [...dirs].sort();
}

/** @pagecast/i18n's catalogues, and the one of them it bundles (Japanese); the others are loaded on demand. */
const CATALOGUES = path.join(workspaceDirs['@pagecast/i18n'] ?? '', 'src', 'locales') + path.sep;
const BUNDLED_CATALOGUE = `${CATALOGUES}ja${path.sep}`;

/**
 * Whether a module (its file) is shared-singleton code, for the host's one `shared` chunk: not @pagecast/i18n's
 * catalogues other than the bundled one.
 */
export function isSharedCode(resource: string, dirs: readonly string[]): boolean {
  if (resource.startsWith(CATALOGUES) && !resource.startsWith(BUNDLED_CATALOGUE)) return false;
  return dirs.some((dir) => resource.startsWith(dir + path.sep));
}
