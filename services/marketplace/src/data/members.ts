import type { MemberDoc, Models } from './models';

export function createMembers({ members }: Models) {
  return {
    tierOf: async (userId: string): Promise<string | undefined> =>
      (await members.findById(userId).lean<MemberDoc>())?.tier,
    /** Registration: the first tier, unless a later change is already known. */
    async setInitial(userId: string, tier: string, at: Date): Promise<void> {
      await members.updateOne({ _id: userId }, { $setOnInsert: { tier, version: at } }, { upsert: true });
    },
    /** A tier change at `at`; an older one (redelivered) does not overwrite a newer one. */
    async setTier(userId: string, tier: string, at: Date): Promise<void> {
      const stored = await members.findById(userId).lean<MemberDoc>();
      if (stored && stored.version.getTime() > at.getTime()) return;
      await members.replaceOne({ _id: userId }, { _id: userId, tier, version: at }, { upsert: true });
    },
  };
}
export type Members = ReturnType<typeof createMembers>;
