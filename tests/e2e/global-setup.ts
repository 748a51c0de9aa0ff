// Starts the whole product once (infra, services, gateway; builds the front ends if needed) on port 18080 (E2E_PORT).
// E2E_BASE_URL points the tests at a stack that is already running instead. PAGECAST_REPLICAS=N starts N gateways
// behind nginx and N of each service (README, "Replicas"); tests/scale starts two that way on its own port.
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** maildev's HTTP API (the verification e-mails) */
    mailUrl: string;
    /**
     * What the stack set in its processes' environment (service URLs, infrastructure, secrets), so that a test can
     * start another gateway in front of the same services (remote-origin.test.ts); absent with E2E_BASE_URL.
     */
    stackEnv: Record<string, string> | undefined;
    /**
     * Each gateway's own address, for a test that must reach one gateway and not the other (baseUrl is nginx's
     * when there are several); absent with E2E_BASE_URL.
     */
    gateways: string[] | undefined;
  }
}

interface Stack {
  url: string;
  mailUrl?: string;
  gateways?: Array<{ url: string }>;
  stop(): Promise<void>;
}

let stack: Stack | undefined;

export async function setup(project: TestProject) {
  // E2E_PORT: npm test runs the browser tests in two shards at once, each on a stack of its own (scripts/test.mjs)
  stack = await startE2eStack(project, { port: Number(process.env.E2E_PORT) || 18080 });
}

export async function teardown() {
  await stack?.stop();
}

/** Starts the stack the browser tests run against and provides its addresses; undefined with E2E_BASE_URL. */
export async function startE2eStack(
  project: TestProject,
  { port, replicas }: { port: number; replicas?: number },
): Promise<Stack | undefined> {
  const given = process.env.E2E_BASE_URL;
  const defaultMail = process.env.MAILDEV_API_URL ?? 'http://127.0.0.1:11080';
  if (given) {
    project.provide('baseUrl', given.replace(/\/$/, ''));
    project.provide('mailUrl', defaultMail);
    project.provide('stackEnv', undefined);
    project.provide('gateways', undefined);
    return undefined;
  }
  // @ts-expect-error: plain JavaScript module without types
  const { startStack } = (await import('../../scripts/lib/stack.mjs')) as {
    startStack(opts: {
      profile: string;
      port: number;
      quiet?: boolean;
      env?: Record<string, string>;
      replicas?: number;
    }): Promise<Stack & { env: Record<string, string> }>;
  };
  // The account journeys make more auth calls from one address than the default limit of 20 per minute allows, and
  // the ownership probe (workspace-probe.test.ts) more API calls than the default 600 per minute.
  const stack = await startStack({
    profile: 'test',
    port,
    replicas,
    quiet: true,
    // marketplace.clock: the marketplace's test-only clock (a failpoint), so marketplace.test.ts sees a 30-day licence end;
    // screens.clock: the screens service's, so screens-health.test.ts sees an alert e-mail past a screen's threshold
    env: {
      RATE_LIMIT_AUTH_MAX: '1000',
      RATE_LIMIT_API_MAX: '5000',
      LOGIN_FAILURES_PER_ADDRESS: '1000',
      PAGECAST_FAILPOINTS: 'marketplace.clock,screens.clock',
    },
  });
  const started = stack as Stack & { env: Record<string, string> };
  project.provide(
    'stackEnv',
    Object.fromEntries(Object.entries(started.env).filter(([key, value]) => process.env[key] !== value)),
  );
  project.provide('baseUrl', stack.url);
  project.provide('mailUrl', stack.mailUrl ?? defaultMail);
  project.provide(
    'gateways',
    (stack.gateways ?? []).map((g) => g.url),
  );
  return stack;
}
