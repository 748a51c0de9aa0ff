// Where the repository is, and what its package.json files say: the versions the shared policy pins.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

export function readPackageJson(dir: string): PackageJson {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
}

/** Workspace packages: their version comes from their own package.json (dependents say "*"). */
export const workspaceDirs: Record<string, string> = {
  '@pagecast/ui': path.join(repoRoot, 'packages/ui'),
  '@pagecast/i18n': path.join(repoRoot, 'packages/i18n'),
  '@pagecast/router': path.join(repoRoot, 'packages/router'),
};
