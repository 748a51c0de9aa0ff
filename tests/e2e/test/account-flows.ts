// Helpers of the account journeys: links from maildev, the form fields, an old-provider account by the operator
// command (run against the test stack's environment).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';

const run = promisify(execFile);
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const screenshots = path.join(repoRoot, '.data/screenshots');

export const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

export interface Mail {
  id: string;
  subject?: string;
  text?: string;
  time?: string;
  headers?: { to?: string };
}

/** The mails the catcher holds for `email`, oldest first. */
export async function mailsTo(email: string): Promise<Mail[]> {
  const res = await fetch(`${inject('mailUrl')}/email`);
  const mails = (await res.json()) as Mail[];
  return mails.filter((m) => m.headers?.to?.includes(email));
}

/** The path and query of the newest link to `page` mailed to `email`, skipping the mails in `seen`. */
export async function mailedLink(
  email: string,
  page: 'verify-email' | 'reset-password',
  seen: ReadonlySet<string> = new Set(),
): Promise<{ link: string; id: string }> {
  const pattern = new RegExp(`https?://[^\\s/]+(/${page}\\?[^\\s]+)`);
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = (await mailsTo(email))
      .filter((m) => !seen.has(m.id))
      .map((m) => ({ id: m.id, link: m.text?.match(pattern)?.[1] }))
      .filter((m): m is { id: string; link: string } => Boolean(m.link));
    const last = found.at(-1);
    if (last) return last;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no ${page} e-mail for ${email}`);
}

/** The path of the newest invitation link (/invitations/<token>) mailed to `email`. */
export async function mailedInvitation(email: string): Promise<string> {
  const pattern = /https?:\/\/[^\s/]+(\/invitations\/[\w-]+)/;
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const link = (await mailsTo(email))
      .map((m) => m.text?.match(pattern)?.[1])
      .filter(Boolean)
      .at(-1);
    if (link) return link;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no invitation e-mail for ${email}`);
}

/** The texts of the field errors shown in the page, in order. */
export async function fieldErrors(page: Page): Promise<string[]> {
  return page.locator('.pc-field-error').allTextContents();
}

/** Waits for the (one) toast to contain `text` and returns its whole text. */
export async function toastText(page: Page, text: string): Promise<string> {
  const toast = page.getByTestId('toast').filter({ hasText: text });
  await toast.waitFor({ timeout: 10_000 });
  return (await toast.textContent()) ?? '';
}

export async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード', { exact: true }).fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * The environment the test stack gives its services (same secrets and servers, and what keeps its data apart: its
 * database prefix and its own NATS, given by the stack).
 */
async function stackEnv(): Promise<Record<string, string>> {
  const node = path.join(repoRoot, 'node_modules/.bin/node');
  const { stdout } = await run(node, ['scripts/infra.mjs', 'env', '--profile', 'test'], { cwd: repoRoot });
  const env: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const at = line.indexOf('=');
    if (/^[A-Z0-9_]+=/.test(line)) env[line.slice(0, at)] = line.slice(at + 1);
  }
  return { ...env, ...inject('stackEnv') };
}

/** An account of the old external login with an open session: the operator command of services/account. */
export async function createLegacyUser(opts: { email: string; firstName: string; lastName: string }) {
  const env = await stackEnv();
  const bin = path.join(repoRoot, 'node_modules/.bin');
  const { stdout } = await run(
    'npm',
    [
      '-w',
      'services/account',
      'run',
      'create-legacy-user',
      '--',
      '--email',
      opts.email,
      '--first-name',
      opts.firstName,
      '--last-name',
      opts.lastName,
      '--session',
    ],
    { cwd: repoRoot, env: { ...process.env, ...env, PATH: `${bin}:${process.env.PATH ?? ''}`, LOG_LEVEL: 'warn' } },
  );
  const cookie = stdout.match(/pc_session=(\S+)/)?.[1];
  if (!cookie) throw new Error(`create-legacy-user printed no session:\n${stdout}`);
  return { cookie };
}
