import { subjects } from '@pagecast/contracts';
import { AppError } from '@pagecast/service-kit';
import { hashToken, VERIFICATION_TOKEN_TTL_MS } from '../domain';
import type { AccountDeps } from './deps';
import { useToken } from './shared';

export async function verifyEmail(deps: AccountDeps, token: string) {
  const { data, outbox } = deps;
  const hash = hashToken(token);
  const holder = await data.users.findByVerificationToken(hash, deps.clock.now());
  if (!holder || !(await useToken(deps, hash, VERIFICATION_TOKEN_TTL_MS))) throw new AppError('TOKEN_INVALID');
  const user = await data.users.consumeVerificationToken(holder._id, hash, deps.clock.now());
  if (!user) throw new AppError('TOKEN_INVALID');
  await outbox.add(subjects.userVerified, {
    userId: user._id,
    email: user.email,
    verifiedAt: deps.clock.now().toISOString(),
  });
  return { email: user.email };
}
