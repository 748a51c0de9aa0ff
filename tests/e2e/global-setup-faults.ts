// The faults project's addresses: the stack itself is started (and its processes killed and restarted) by the test
// file, in the worker, on this port; the clustered engines are the test profile's (scripts/lib/infra.mjs).
import type { TestProject } from 'vitest/node';

export const faultsPort = 18100;

export function setup(project: TestProject) {
  project.provide('baseUrl', `http://localhost:${faultsPort}`);
  project.provide('mailUrl', process.env.MAILDEV_API_URL ?? 'http://127.0.0.1:11080');
  project.provide('stackEnv', undefined);
  project.provide('gateways', undefined);
}
