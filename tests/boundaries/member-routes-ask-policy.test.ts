// Every member route of every service asks the policy first (service-kit's requireActor, with the route's action):
// a handler that took the caller's identity alone would let any role of a workspace do anything there. Only a
// service-to-service check, where no member and no workspace is involved, reads the identity without an action.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** file → how many requireIdentity calls it may keep, and why */
const serviceIdentityOnly: Record<string, number> = {
  // internal transfers: only another service's identity may call (no member, no workspace)
  'services/billing/src/http/index.ts': 1,
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('member routes ask the policy', () => {
  it('no service source calls requireIdentity but the service-to-service checks listed here', () => {
    const found: Record<string, number> = {};
    for (const service of readdirSync(join(root, 'services'))) {
      for (const file of sources(join(root, 'services', service, 'src'))) {
        const count = readFileSync(file, 'utf8').match(/\brequireIdentity\(/g)?.length ?? 0;
        if (count > 0) found[relative(root, file)] = count;
      }
    }
    expect(found).toEqual(serviceIdentityOnly);
  });
});
