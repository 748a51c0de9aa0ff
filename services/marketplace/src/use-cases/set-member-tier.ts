import type { ServiceContext } from '../context';

/** The member's tier, as account (registration) and billing (membership changes) announce it. */
export async function setMemberTier(
  ctx: Pick<ServiceContext, 'data'>,
  input: { userId: string; tier: string; at: Date; initial: boolean },
): Promise<void> {
  if (input.initial) await ctx.data.members.setInitial(input.userId, input.tier, input.at);
  else await ctx.data.members.setTier(input.userId, input.tier, input.at);
}
