import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The components the shell's routes ask a remote for (`<RemoteRoute remote="mf_files" component="FilesPage" />`),
 * read from the shell's route table: what each remote's './routes' expose must provide (the remotes' tests check it,
 * so a renamed page or a new route without its component fails there, not on a screen).
 */
export function routedComponents(routesSource: string, remote: string): string[] {
  const names = new Set<string>();
  for (const m of routesSource.matchAll(/<RemoteRoute\s+remote="([\w-]+)"\s+component="(\w+)"/g)) {
    if (m[1] === remote) names.add(m[2] as string);
  }
  return [...names].sort();
}

/** The shell's route table, found from a remote's folder or the repository's (tests run from either). */
export function shellRoutesSource(cwd = process.cwd()): string {
  const path = [join(cwd, 'shell/src/app/routes.tsx'), join(cwd, '../shell/src/app/routes.tsx')].find(existsSync);
  if (!path) throw new Error(`the shell's routes.tsx is not found from ${cwd}`);
  return readFileSync(path, 'utf8');
}

/**
 * How a remote's './routes' module differs from what the shell asks of it: components asked for but missing, exposed
 * but never routed, and exposed values that are no React component (a function, or a lazy/memo object).
 */
export function exposeMismatch(
  routes: Record<string, unknown>,
  remote: string,
  routesSource = shellRoutesSource(),
): { asked: number; missing: string[]; extra: string[]; notComponents: string[] } {
  const asked = routedComponents(routesSource, remote);
  const exposed = Object.keys(routes);
  const isComponent = (v: unknown) =>
    typeof v === 'function' || (typeof v === 'object' && v !== null && '$$typeof' in v);
  return {
    asked: asked.length,
    missing: asked.filter((n) => !exposed.includes(n)),
    extra: exposed.filter((n) => !asked.includes(n)),
    notComponents: exposed.filter((n) => !isComponent(routes[n])),
  };
}
