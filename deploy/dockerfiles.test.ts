// One Dockerfile per kind of deployable (deploy/docker: service, front end, gateway), chosen per deployable by build
// arguments in compose.yaml (compose.test.ts checks that every deployable builds from its kind). Each builds from the
// repository root, installs only its workspace, runs as a non-root user and reports its health. Checked by reading the
// files: no Docker engine runs on this machine.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ownNodeArgs as nodeArgs } from '../scripts/lib/node-args.mjs';

const ownNodeArgs = nodeArgs as Record<string, string[]>;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

const nodeDeployables = [
  'services/account',
  'services/file-conversion',
  'services/marketplace',
  'services/billing',
  'services/screens',
  'gateway',
];
const staticDeployables = ['shell', 'mf-files', 'mf-marketplace', 'mf-player'];

/** Workspace folders from the root package.json, with "dir/*" patterns expanded (what npm ci checks the lock against). */
function workspaces(): string[] {
  const patterns = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
  return patterns.flatMap((p) => {
    if (!p.endsWith('/*')) return [p];
    const dir = p.slice(0, -2);
    return readdirSync(join(root, dir), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, dir, d.name, 'package.json')))
      .map((d) => `${dir}/${d.name}`);
  });
}

interface Stage {
  from: string;
  name?: string;
  lines: string[];
}

/** Splits a Dockerfile into stages, joining continued lines and dropping comments. */
function stages(text: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const args: Record<string, string> = {};
  const out: Stage[] = [];
  for (const line of lines) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from?.[1]) {
      const image = from[1].replace(/^\$\{(\w+)\}$/, (_, name: string) => args[name] ?? name);
      out.push({ from: image, name: from[2], lines: [] });
      continue;
    }
    const arg = /^ARG\s+(\w+)=(\S+)/i.exec(line);
    if (arg?.[1] && arg[2] && out.length === 0) args[arg[1]] = arg[2];
    out.at(-1)?.lines.push(line);
  }
  return { args, stages: out };
}

const final = (f: { stages: Stage[] }) => f.stages.at(-1) as Stage;
const user = (s: Stage) =>
  s.lines
    .filter((l) => /^USER\s/i.test(l))
    .at(-1)
    ?.split(/\s+/)[1];

const kinds = {
  service: 'deploy/docker/service.Dockerfile',
  frontend: 'deploy/docker/frontend.Dockerfile',
  gateway: 'deploy/docker/gateway.Dockerfile',
} as const;
const allKinds = Object.values(kinds);

describe('deployable images', () => {
  it('has one Dockerfile per kind and none per folder: a copy per deployable cannot come back unnoticed', () => {
    for (const file of allKinds) expect(existsSync(join(root, file)), file).toBe(true);
    const serviceDirs = readdirSync(join(root, 'services')).map((d) => `services/${d}`);
    const frontDirs = readdirSync(root).filter((d) => d === 'shell' || d.startsWith('mf-'));
    expect([...serviceDirs, 'gateway', ...frontDirs].sort()).toEqual([...nodeDeployables, ...staticDeployables].sort());
    for (const dir of [...nodeDeployables, ...staticDeployables])
      expect(existsSync(join(root, dir, 'Dockerfile')), `${dir}/Dockerfile`).toBe(false);
  });

  it.each([
    [kinds.service, '${WORKSPACE}'],
    [kinds.frontend, '${WORKSPACE}'],
    [kinds.gateway, 'gateway'],
  ])('%s: multi-stage on node:24-bookworm-slim, npm ci of one workspace after every manifest', (file, ws) => {
    const f = stages(read(file));
    expect(f.stages.length).toBeGreaterThanOrEqual(2);
    expect(f.stages[0]?.from).toBe('node:24-bookworm-slim');
    const installs = f.stages.filter((s) => s.lines.some((l) => /\bnpm ci\b/.test(l)));
    expect(installs.length).toBeGreaterThanOrEqual(1);
    expect(
      installs.some((s) => s.lines.some((l) => l.includes(`npm ci -w ${ws} `))),
      `a stage runs npm ci -w ${ws}`,
    ).toBe(true);
    for (const stage of installs) {
      // npm ci compares the lock with every workspace manifest, so each must be there before it runs.
      const ciAt = stage.lines.findIndex((l) => /\bnpm ci\b/.test(l));
      const before = stage.lines.slice(0, ciAt);
      expect(before).toContain('COPY package.json package-lock.json ./');
      for (const w of workspaces()) expect(before, w).toContain(`COPY ${w}/package.json ${w}/`);
    }
    // Sources are copied after the install, so a source change does not redo npm ci.
    const text = read(file);
    expect(text.indexOf(`COPY ${ws}/ ${ws}/`)).toBeGreaterThan(text.indexOf(`npm ci -w ${ws}`));
  });

  it.each([
    [kinds.service, '${WORKSPACE}'],
    [kinds.gateway, 'gateway'],
  ])(
    '%s: production dependencies only, the compiled bundle run by node, non-root, HEALTHCHECK on /healthz',
    (file, ws) => {
      const f = stages(read(file));
      expect(read(file)).toContain(`npm ci -w ${ws} --omit=dev`);
      const run = final(f);
      expect(run.from).toBe('node:24-bookworm-slim');
      expect(user(run)).toBeDefined();
      expect(['root', '0']).not.toContain(user(run));
      expect(run.lines.find((l) => /^HEALTHCHECK\s/i.test(l))).toMatch(/\/healthz/);
      // the node flags the workspace runs with everywhere (the stack's launcher says the same: scripts/lib/stack.mjs)
      const flags = (ownNodeArgs[ws] ?? []).map((a) => `"${a}", `).join('');
      expect(run.lines.find((l) => /^CMD\s/i.test(l))).toBe(
        `CMD ["node", ${flags}"--enable-source-maps", "dist/main.mjs"]`,
      );
      // No TypeScript at run time: the bundle from the compile stage, no sources, no tsx.
      expect(run.lines).toContain(`COPY --from=compile /app/${ws}/dist ${ws}/dist`);
      expect(run.lines.some((l) => /tsx|COPY packages\//.test(l))).toBe(false);
      const compile = f.stages.find((s) => s.name === 'compile');
      expect(compile, 'a compile stage').toBeDefined();
      expect(compile?.lines.some((l) => l.includes(`node scripts/lib/compile.mjs ${ws}`))).toBe(true);
      // esbuild pinned to the repository's version
      const esbuild = JSON.parse(read('package.json')).devDependencies.esbuild;
      expect(compile?.lines.some((l) => l.includes(`esbuild@${esbuild}`))).toBe(true);
      expect(run.lines).toContain(`WORKDIR /app/${ws}`);
    },
  );

  it('the service kind requires its WORKSPACE argument and installs the Debian packages it is given', () => {
    const f = stages(read(kinds.service));
    expect(f.stages[0]?.lines.some((l) => l.startsWith('RUN test -n "${WORKSPACE}"'))).toBe(true);
    const run = final(f);
    expect(run.lines).toContain('ARG APT_PACKAGES=""');
    expect(run.lines.find((l) => l.includes('apt-get install')) ?? '').toContain('${APT_PACKAGES}');
  });

  it('front ends: rspack build, served by nginx as an unprivileged user with a health check', () => {
    const f = stages(read(kinds.frontend));
    const build = f.stages[0] as Stage;
    expect(build.lines).toContain('WORKDIR /app/${WORKSPACE}');
    expect(build.lines.some((l) => /^RUN npx (--no-install )?rspack build$/.test(l))).toBe(true);
    const run = final(f);
    expect(run.from).toBe('nginx:stable-alpine');
    expect(user(run)).toBe('nginx');
    expect(run.lines.find((l) => /^HEALTHCHECK\s/i.test(l))).toMatch(/\/healthz/);
    expect(run.lines).toContain('COPY --from=build /app/${WORKSPACE}/dist /usr/share/nginx/html');
    expect(run.lines).toContain('ARG NGINX_SITE=remote.conf');
    expect(run.lines).toContain('COPY deploy/nginx/${NGINX_SITE} /etc/nginx/conf.d/default.conf');
    expect(run.lines).toContain('COPY deploy/nginx/nginx.conf /etc/nginx/nginx.conf');
  });

  it('the gateway image holds the shell build (with its prerendered pages) and points REMOTES at the remotes', () => {
    const f = stages(read(kinds.gateway));
    // the shell's build script, not rspack alone: it also writes the visitor pages the gateway serves prerendered
    expect(f.stages.some((s) => s.lines.includes('RUN npm run build'))).toBe(true);
    expect(JSON.parse(read('shell/package.json')).scripts.build).toMatch(/^rspack build && npm run prerender$/);
    const run = final(f);
    expect(run.lines.some((l) => /^COPY --from=shell-build \/app\/shell\/dist shell\/dist$/.test(l))).toBe(true);
    const env = run.lines.find((l) => l.startsWith('ENV ') && l.includes('REMOTES=')) ?? '';
    const json = /REMOTES='([^']+)'/.exec(env)?.[1] ?? '';
    expect(Object.keys(JSON.parse(json)).sort()).toEqual(['mf_files', 'mf_marketplace', 'mf_player']);
  });

  it('no Dockerfile sets a secret', () => {
    for (const file of allKinds) {
      for (const line of read(file).split('\n')) {
        if (/^\s*(ENV|ARG)\s/i.test(line)) expect(line, file).not.toMatch(/SECRET|PASSWORD|ACCESS_KEY|TOKEN/i);
      }
    }
  });

  it('.dockerignore keeps dependencies, builds, local data and git out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['**/node_modules', '**/dist', '.data', '.git']) expect(ignored).toContain(entry);
  });

  it('the nginx configuration files the images copy exist', () => {
    for (const f of ['nginx.conf', 'remote.conf', 'shell.conf'])
      expect(existsSync(join(root, 'deploy/nginx', f)), f).toBe(true);
  });
});
