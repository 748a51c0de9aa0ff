// The scale project's stack: two gateways behind nginx and two of each service, on port 18090 (README, "Replicas").
import type { TestProject } from 'vitest/node';
import { startE2eStack } from './global-setup';

let stack: Awaited<ReturnType<typeof startE2eStack>>;

export async function setup(project: TestProject) {
  stack = await startE2eStack(project, { port: 18090, replicas: 2 });
}

export async function teardown() {
  await stack?.stop();
}
