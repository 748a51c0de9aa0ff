// A verified member made through the real account service: register, read the e-mail from maildev, verify.
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { baseUrl } from './browser';

export interface Member {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function verificationToken(email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${inject('mailUrl')}/email`);
    const mails = (await res.json()) as Array<{ text?: string; headers?: { to?: string } }>;
    const mail = mails.find((m) => m.headers?.to?.includes(email));
    const token = mail?.text?.match(/verify-email\?token=([A-Za-z0-9_-]+)/)?.[1];
    if (token) return token;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no verification e-mail for ${email}`);
}

/** `locale`: the account's language (its mails'), else the service's default. */
export async function createVerifiedMember(options: { locale?: string } = {}): Promise<Member> {
  const member = {
    email: `e2e-${randomUUID().slice(0, 8)}@example.com`,
    password: 'correct horse battery staple',
    firstName: 'Taro',
    lastName: 'Yamada',
  };
  const registered = await post('/api/auth/register', { ...member, ...options });
  if (!registered.ok) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const verified = await post('/api/auth/verify-email', { token: await verificationToken(member.email) });
  if (!verified.ok) throw new Error(`verify: ${verified.status} ${await verified.text()}`);
  return member;
}
