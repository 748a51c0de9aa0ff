// compose.yaml, checked by the real compose CLI (`config` needs no Docker engine): the services, ports,
// healthchecks and start order resolve as intended, and no secret is written in the file.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureGoTool } from '../scripts/lib/tools.mjs';
import { clientPlaces, gatewayClientAddress } from './client-address';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const composeFile = join(root, 'compose.yaml');

const secrets = {
  INTERNAL_SECRET: 'compose-test-internal-secret-0123456789abcdef',
  S3_ACCESS_KEY: 'compose-test-access-key',
  S3_SECRET_KEY: 'compose-test-s3-secret-key-0123',
} as const;
type SecretName = keyof typeof secrets;

const appServices = {
  account: 4101,
  'file-conversion': 4102,
  marketplace: 4103,
  billing: 4104,
  screens: 4105,
} as const;
const frontEnds = { shell: 3000, 'mf-files': 3001, 'mf-marketplace': 3002, 'mf-player': 3003 } as const;

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[] | null;
  environment?: Record<string, string | null>;
  ports?: { target: number; published: string }[];
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string; required: boolean }>;
}
interface ComposeConfig {
  services: Record<string, ComposeService>;
}

let composeBin = '';

/** Runs the compose CLI with only the given variables: neither the caller's environment nor a .env file leaks in. */
function compose(args: string[], vars: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
    execFile(
      composeBin,
      ['-f', composeFile, '--env-file', '/dev/null', ...args],
      { cwd: root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...vars } },
      (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function config(vars: Record<string, string>, extra: string[] = []): Promise<ComposeConfig> {
  const r = await compose(['config', '--format', 'json', ...extra], vars);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ComposeConfig;
}

function service(cfg: ComposeConfig, name: string): ComposeService {
  const s = cfg.services[name];
  if (!s) throw new Error(`compose.yaml has no service ${name}`);
  return s;
}

const published = (s: ComposeService) => (s.ports ?? []).map((p) => `${p.published}:${p.target}`);

beforeAll(async () => {
  composeBin = await ensureGoTool('docker-compose');
});

describe('compose.yaml with the secrets provided', () => {
  let cfg: ComposeConfig;
  beforeAll(async () => {
    cfg = await config({ ...secrets });
  });

  it('runs the infrastructure on the real images, the four services, the gateway and the front ends', () => {
    expect(Object.keys(cfg.services).sort()).toEqual(
      [
        'mongo',
        'nats',
        'minio',
        'minio-init',
        'maildev',
        'stripe-mock',
        ...Object.keys(appServices),
        'gateway',
        ...Object.keys(frontEnds),
      ].sort(),
    );
    expect(service(cfg, 'mongo').image).toBe('mongo:7');
    // A replica set, as the URL says: majority writes and retryable writes need one.
    expect(service(cfg, 'mongo').command).toEqual(['--replSet', 'rs0', '--bind_ip_all']);
    expect(service(cfg, 'maildev').image).toBe('maildev/maildev:2.2.1');
    const nats = service(cfg, 'nats');
    const [, minor] = /^nats:2\.(\d+)/.exec(nats.image ?? '') ?? [];
    expect(Number(minor), nats.image).toBeGreaterThanOrEqual(10);
    expect(nats.command).toContain('-js');
    expect(service(cfg, 'minio-init').image).toMatch(/^minio\/mc:/);
  });

  it('publishes the gateway on 8080, each front end on its dev port and the mail catcher; nothing else', () => {
    expect(published(service(cfg, 'gateway'))).toEqual(['8080:8080']);
    for (const [name, port] of Object.entries(frontEnds))
      expect(published(service(cfg, name))).toEqual([`${port}:8080`]);
    expect(published(service(cfg, 'maildev'))).toEqual(['1080:1080']);
    for (const name of ['mongo', 'nats', 'minio', ...Object.keys(appServices)]) {
      expect(service(cfg, name).ports ?? [], name).toEqual([]);
    }
  });

  it('gives every long-running container a healthcheck', () => {
    const oneShotOrDistroless = new Set(['minio-init', 'stripe-mock']);
    for (const [name, s] of Object.entries(cfg.services)) {
      if (oneShotOrDistroless.has(name)) continue;
      expect(s.healthcheck?.disable, name).not.toBe(true);
      expect(s.healthcheck?.test?.length ?? 0, `${name} has no healthcheck`).toBeGreaterThan(1);
    }
    for (const name of [...Object.keys(appServices), 'gateway', ...Object.keys(frontEnds)]) {
      expect(service(cfg, name).healthcheck?.test?.join(' '), name).toContain('/healthz');
    }
  });

  it('makes the processes listen beyond loopback (their default) and keeps the gateway probes on its internal port', () => {
    for (const name of [...Object.keys(appServices), 'gateway'])
      expect(service(cfg, name).environment?.HOST, name).toBe('0.0.0.0');
    const gw = service(cfg, 'gateway');
    expect(gw.environment?.INTERNAL_PORT).toBe('9090');
    expect(gw.healthcheck?.test?.join(' ')).toContain('INTERNAL_PORT');
    expect(published(gw)).not.toContain('9090:9090');
  });

  it('starts services after healthy infrastructure and the bucket job, and the gateway after healthy services', () => {
    for (const name of Object.keys(appServices)) {
      const deps = service(cfg, name).depends_on ?? {};
      for (const infra of ['mongo', 'nats', 'minio'])
        expect(deps[infra]?.condition, `${name} → ${infra}`).toBe('service_healthy');
      expect(deps['minio-init']?.condition).toBe('service_completed_successfully');
    }
    const gwDeps = service(cfg, 'gateway').depends_on ?? {};
    for (const name of [...Object.keys(appServices), 'nats'])
      expect(gwDeps[name]?.condition, name).toBe('service_healthy');
    expect(service(cfg, 'minio-init').depends_on?.minio?.condition).toBe('service_healthy');
  });

  it('configures the services and the gateway as docs/platform.md says', () => {
    for (const [name, port] of Object.entries(appServices)) {
      const env = service(cfg, name).environment ?? {};
      expect(env).toMatchObject({
        PORT: String(port),
        MONGO_URL: 'mongodb://mongo:27017/?replicaSet=rs0&w=majority&retryWrites=true&readPreference=primary',
        NATS_URL: 'nats://nats:4222',
        S3_ENDPOINT: 'http://minio:9000',
        S3_BUCKET: 'pagecast',
        SMTP_URL: 'smtp://maildev:1025',
        PUBLIC_URL: 'http://localhost:8080',
        ...secrets,
      });
    }
    const gw = service(cfg, 'gateway').environment ?? {};
    expect(gw).toMatchObject({
      PORT: '8080',
      INTERNAL_SECRET: secrets.INTERNAL_SECRET,
      NATS_URL: 'nats://nats:4222',
      ACCOUNT_URL: 'http://account:4101',
      FILES_URL: 'http://file-conversion:4102',
      MARKETPLACE_URL: 'http://marketplace:4103',
      BILLING_URL: 'http://billing:4104',
      SCREENS_URL: 'http://screens:4105',
    });
    // The gateway's secret set is the identity key only: it never needs the storage keys.
    expect(gw.S3_SECRET_KEY).toBeUndefined();
    expect(JSON.parse(gw.REMOTES ?? '')).toEqual({
      mf_files: 'http://localhost:3001/mf-manifest.json',
      mf_marketplace: 'http://localhost:3002/mf-manifest.json',
      mf_player: 'http://localhost:3003/mf-manifest.json',
    });
    expect(service(cfg, 'minio').environment).toMatchObject({
      MINIO_ROOT_USER: secrets.S3_ACCESS_KEY,
      MINIO_ROOT_PASSWORD: secrets.S3_SECRET_KEY,
    });
  });

  it("states the connection's address: the gateway, the edge here, trusts no hop a client could be", () => {
    const trust = service(cfg, 'gateway').environment?.TRUST_PROXY ?? '';
    expect(trust).toBe('loopback');
    for (const client of clientPlaces) {
      expect(gatewayClientAddress(trust, client, '198.51.100.66'), client).toBe(client);
      expect(gatewayClientAddress(trust, client, `198.51.100.66, ${client}`), client).toBe(client);
    }
    // the services read no forwarding header (they count the address the gateway signs)
    for (const name of Object.keys(appServices)) expect(service(cfg, name).environment?.TRUST_PROXY).toBeUndefined();
  });

  it('builds each deployable from the repository root with the Dockerfile of its kind and its own workspace', () => {
    const kindOf = (name: string) =>
      name === 'gateway' ? 'gateway' : name in appServices ? 'service' : ('frontend' as const);
    for (const name of [...Object.keys(appServices), 'gateway', ...Object.keys(frontEnds)]) {
      const build = service(cfg, name).build;
      expect(build?.context, name).toBe(root);
      expect(build?.dockerfile, name).toBe(`deploy/docker/${kindOf(name)}.Dockerfile`);
      expect(existsSync(join(root, build?.dockerfile ?? 'missing')), `${name}: ${build?.dockerfile}`).toBe(true);
      expect(service(cfg, name).image, name).toBe(`pagecast/${name}:local`);
      if (name === 'gateway') continue;
      const workspace = name in appServices ? `services/${name}` : name;
      expect(build?.args?.WORKSPACE, name).toBe(workspace);
      expect(existsSync(join(root, workspace, 'package.json')), workspace).toBe(true);
    }
    for (const [name, port] of Object.entries(appServices)) {
      expect(service(cfg, name).build?.args?.PORT, name).toBe(String(port));
      expect(service(cfg, name).environment?.PORT, name).toBe(String(port));
    }
    expect(service(cfg, 'file-conversion').build?.args?.APT_PACKAGES).toContain('libreoffice-impress-nogui');
    expect(service(cfg, 'file-conversion').build?.args?.APT_PACKAGES).toContain('mupdf-tools');
    expect(service(cfg, 'shell').build?.args?.NGINX_SITE).toBe('shell.conf');
  });

  it('follows the remotes to other origins when told to', async () => {
    const moved = await config({ ...secrets, MF_PLAYER_ORIGIN: 'https://player.example.test' });
    expect(JSON.parse(service(moved, 'gateway').environment?.REMOTES ?? '').mf_player).toBe(
      'https://player.example.test/mf-manifest.json',
    );
  });
});

describe('secrets in compose.yaml', () => {
  // A variable reference only, e.g. ${INTERNAL_SECRET:?message}; anything else would be a value in the file.
  const reference = /^\$\{[A-Z][A-Z0-9_]*(?::?[-?][^}]*)?\}$/;
  const secretName = /SECRET|PASSWORD|ACCESS_KEY|TOKEN|PRIVATE|API_KEY/i;

  it('holds no secret value: every secret-named setting is a variable reference', async () => {
    const raw = await config({}, ['--no-interpolate']);
    let checked = 0;
    for (const [name, s] of Object.entries(raw.services)) {
      for (const [key, value] of Object.entries(s.environment ?? {})) {
        if (!secretName.test(key)) continue;
        checked += 1;
        expect(value ?? '', `${name}.${key}`).toMatch(reference);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(15); // 3 per service + gateway + minio + minio-init + billing's card key
    for (const s of Object.values(raw.services)) {
      for (const key of ['INTERNAL_SECRET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY']) {
        const value = s.environment?.[key];
        if (value !== undefined) expect(value).toMatch(new RegExp(`^\\$\\{${key}:\\?`)); // required, no default
      }
    }
  });

  it('refuses to run without the secrets, naming the missing one', async () => {
    const none = await compose(['config', '--quiet'], {});
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/INTERNAL_SECRET|S3_ACCESS_KEY|S3_SECRET_KEY/);
    for (const missing of Object.keys(secrets) as SecretName[]) {
      const vars = Object.fromEntries(Object.entries(secrets).filter(([k]) => k !== missing));
      const r = await compose(['config', '--quiet'], vars);
      expect(r.code, `${missing} unset`).not.toBe(0);
      expect(r.stderr).toContain(`${missing} is required`);
      // An empty value is refused too (an empty .env line must not start the app with no key).
      const empty = await compose(['config', '--quiet'], { ...vars, [missing]: '' });
      expect(empty.code, `${missing} empty`).not.toBe(0);
    }
  });
});
