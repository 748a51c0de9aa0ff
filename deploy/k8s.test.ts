// The Kubernetes manifests. No YAML parser is in the dependency tree, so these checks read the documents as text
// (split on ---, fields found by their indentation); they catch a missing probe, limit, worker, autoscaler or a
// real value in the Secret template, not every YAML syntax error.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { clientPlaces, gatewayClientAddress } from './client-address';

const dir = join(resolve(dirname(fileURLToPath(import.meta.url))), 'k8s');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

interface Doc {
  file: string;
  kind: string;
  name: string;
  text: string;
}

const docs: Doc[] = files.flatMap((file) =>
  readFileSync(join(dir, file), 'utf8')
    .split(/^---\s*$/m)
    .filter((t) => /^kind:/m.test(t))
    .map((text) => ({
      file,
      text,
      kind: /^kind:\s*(\S+)/m.exec(text)?.[1] ?? '',
      name: /^metadata:\n(?:\s{2}.*\n)*?\s{2}name:\s*(\S+)/m.exec(text)?.[1] ?? '',
    })),
);
const find = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.name === name);
const nodeWorkloads = [
  'account',
  'file-conversion',
  'file-conversion-worker',
  'marketplace',
  'billing',
  'screens',
  'gateway',
];
const withService = [
  'account',
  'file-conversion',
  'marketplace',
  'billing',
  'screens',
  'gateway',
  'shell',
  'mf-files',
  'mf-marketplace',
  'mf-player',
];

/** The block of a key at a given indentation: its line and the more-indented lines after it. */
function block(text: string, key: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith(`${key}:`));
  if (start < 0) return '';
  const indent = (lines[start] ?? '').search(/\S/);
  const end = lines.findIndex((l, i) => i > start && l.trim() !== '' && l.search(/\S/) <= indent);
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('deploy/k8s', () => {
  it('is plain two-space YAML: no tabs, every document has apiVersion, kind and a name', () => {
    for (const file of files) expect(readFileSync(join(dir, file), 'utf8'), file).not.toContain('\t');
    for (const d of docs) {
      expect(d.text, `${d.file} ${d.kind}`).toMatch(/^apiVersion:\s*\S+/m);
      if (d.kind !== 'Kustomization') expect(d.name, `${d.file} ${d.kind}`).not.toBe('');
      if (!['Namespace', 'Kustomization'].includes(d.kind))
        expect(d.text, `${d.kind}/${d.name}`).toMatch(/^\s{2}namespace: pagecast$/m);
    }
  });

  it('lists every manifest in kustomization.yaml except the Secret template', () => {
    const listed = [
      ...block(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'), 'resources').matchAll(/^\s+- (\S+)$/gm),
    ].map((m) => m[1]);
    expect(listed.sort()).toEqual(
      files.filter((f) => f !== 'kustomization.yaml' && f !== 'secret.template.yaml').sort(),
    );
  });

  it.each(nodeWorkloads)('%s: Deployment with /readyz and /healthz probes, requests and limits, non-root', (name) => {
    const d = find('Deployment', name);
    expect(d, name).toBeDefined();
    const text = d?.text ?? '';
    expect(block(text, 'readinessProbe')).toMatch(/path: \/readyz/);
    expect(block(text, 'livenessProbe')).toMatch(/path: \/healthz/);
    const resources = block(text, 'resources');
    for (const key of ['requests', 'limits']) {
      expect(block(resources, key), `${name} ${key}`).toMatch(/cpu: \S+/);
      expect(block(resources, key), `${name} ${key}`).toMatch(/memory: \S+/);
    }
    expect(text).toMatch(/runAsNonRoot: true/);
    expect(text).toMatch(/readOnlyRootFilesystem: true/);
    expect(text).toMatch(/configMapRef:\n\s+name: pagecast-config/);
    expect(text).toMatch(/key: INTERNAL_SECRET/);
  });

  it('the pods listen beyond loopback; the gateway probes its internal port, which its Service does not expose', () => {
    expect(readFileSync(join(dir, 'configmap.yaml'), 'utf8')).toMatch(/^\s{2}HOST: 0\.0\.0\.0$/m);
    const gw = find('Deployment', 'gateway')?.text ?? '';
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
      expect(block(gw, probe), probe).toMatch(/port: internal/);
    expect(gw).toMatch(/- name: internal\n\s+containerPort: 9090/);
    expect(gw).toMatch(/name: INTERNAL_HOST\n\s+value: 0\.0\.0\.0/);
    expect(find('Service', 'gateway')?.text).not.toMatch(/9090|internal/);
  });

  it.each(withService)('%s: a Service selects its pods', (name) => {
    const svc = find('Service', name);
    expect(svc, name).toBeDefined();
    expect(block(svc?.text ?? '', 'selector')).toContain(`app.kubernetes.io/name: ${name}`);
    expect(find('Deployment', name)?.text).toContain(`app.kubernetes.io/name: ${name}`);
  });

  it('runs only images that compose.yaml builds from the Dockerfiles of deploy/docker', () => {
    const compose = readFileSync(join(dir, '../../compose.yaml'), 'utf8');
    const built = new Set([...compose.matchAll(/^\s+image: pagecast\/([a-z-]+):/gm)].map((m) => m[1]));
    const used = docs.flatMap((d) => [...d.text.matchAll(/image: pagecast\/([a-z-]+):/g)].map((m) => m[1]));
    expect(used.length).toBeGreaterThanOrEqual(9);
    for (const name of used) expect(built.has(name), `pagecast/${name} is not built by compose.yaml`).toBe(true);
    for (const name of built) expect(used, `pagecast/${name} is built but runs nowhere on Kubernetes`).toContain(name);
  });

  it('runs conversion workers as their own Deployment of the file-conversion image, in worker role', () => {
    const w = find('Deployment', 'file-conversion-worker')?.text ?? '';
    expect(w).toMatch(/image: pagecast\/file-conversion:/);
    expect(w).toMatch(/- name: CONVERSION_ROLE\n\s+value: "worker"/);
    expect(find('Deployment', 'file-conversion')?.text).not.toMatch(/CONVERSION_ROLE/);
  });

  it('autoscales the gateway and the workers', () => {
    for (const target of ['gateway', 'file-conversion-worker']) {
      const hpa = docs.find((d) => d.kind === 'HorizontalPodAutoscaler' && d.text.includes(`name: ${target}\n`));
      expect(hpa, target).toBeDefined();
      expect(block(hpa?.text ?? '', 'scaleTargetRef')).toMatch(new RegExp(`kind: Deployment\\n\\s+name: ${target}`));
      const min = Number(/minReplicas: (\d+)/.exec(hpa?.text ?? '')?.[1]);
      const max = Number(/maxReplicas: (\d+)/.exec(hpa?.text ?? '')?.[1]);
      expect(max).toBeGreaterThan(min);
      // A fixed replica count in the Deployment would fight the autoscaler on every apply.
      expect(find('Deployment', target)?.text).not.toMatch(/^\s{2}replicas:/m);
    }
  });

  it('puts the URLs of docs/platform.md in the ConfigMap, with REMOTES as valid JSON', () => {
    const cm = block(find('ConfigMap', 'pagecast-config')?.text ?? '', 'data');
    for (const key of [
      'MONGO_URL',
      'NATS_URL',
      'S3_ENDPOINT',
      'S3_BUCKET',
      'SMTP_URL',
      'PUBLIC_URL',
      'ACCOUNT_URL',
      'FILES_URL',
      'MARKETPLACE_URL',
      'BILLING_URL',
      'SCREENS_URL',
      'REMOTES',
    ]) {
      expect(cm, key).toMatch(new RegExp(`^\\s{2}${key}: \\S`, 'm'));
    }
    expect(cm).not.toMatch(/SECRET|PASSWORD|ACCESS_KEY/);
    const remotes = /^\s{2}REMOTES: '(.+)'$/m.exec(cm)?.[1] ?? '';
    expect(Object.keys(JSON.parse(remotes)).sort()).toEqual(['mf_files', 'mf_marketplace', 'mf_player']);
  });

  it('trusts the ingress controller alone for the client address: no entry a client wrote, whatever its network', () => {
    const gateway = find('Deployment', 'gateway')?.text ?? '';
    const trust = /- name: TRUST_PROXY\n\s+value: "?([^"\n]+)"?/.exec(gateway)?.[1] ?? '';
    expect(trust).toBe('1');
    // the services read no forwarding header (they count the address the gateway signs): nothing shared sets it
    expect(block(find('ConfigMap', 'pagecast-config')?.text ?? '', 'data')).not.toMatch(/^\s{2}TRUST_PROXY:/m);
    for (const name of nodeWorkloads.filter((n) => n !== 'gateway'))
      expect(find('Deployment', name)?.text, name).not.toMatch(/name: TRUST_PROXY/);
    const ingressPod = '10.244.1.7';
    for (const client of clientPlaces) {
      // ingress-nginx's default replaces the header with the address it saw; compute-full-forwarded-for appends it
      expect(gatewayClientAddress(trust, ingressPod, client), client).toBe(client);
      expect(gatewayClientAddress(trust, ingressPod, `198.51.100.66, ${client}`), client).toBe(client);
    }
  });

  it('has a Secret template with placeholders only', () => {
    const secrets = docs.filter((d) => d.kind === 'Secret');
    expect(secrets.map((d) => d.file)).toEqual(['secret.template.yaml']);
    const entries = [...block(secrets[0]?.text ?? '', 'stringData').matchAll(/^\s{2}(\w+): (.*)$/gm)];
    expect(entries.map((m) => m[1]).sort()).toEqual([
      'INTERNAL_SECRET',
      'S3_ACCESS_KEY',
      'S3_SECRET_KEY',
      'STRIPE_SECRET_KEY',
    ]);
    for (const [, key, value] of entries) expect(value, key).toMatch(/^"<[^>]+>"$/);
  });
});
