// A member's document has several writers that can meet: the member's own calls (profile, password, the welcome
// page), their first login, and calls anyone can make for the address (a password reset's request). FerretDB runs
// each update as read-then-write of the whole document, so two updates of different fields at once could write one of
// them back to its old value. Each pair here runs together many times against the real FerretDB; both must hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, uniqueEmail } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness('account_user_writes');
});
afterAll(async () => {
  await h?.close();
});

const newMember = () =>
  h.server.context.data.users.create({
    email: uniqueEmail('writes'),
    firstName: '花子',
    lastName: '佐藤',
    passwordHash: 'not-a-hash',
    authProvider: 'local',
    emailVerified: true,
    locale: 'ja',
  });

describe("a member's document under two writers", () => {
  it('a profile edit beside a password reset request: both are kept, every round', async () => {
    const { users } = h.server.context.data;
    const member = await newMember();
    const lost: string[] = [];
    for (let round = 0; round < 60; round++) {
      const hash = `reset-${round}`;
      const firstName = `名前${round}`;
      await Promise.all([
        users.setResetToken(member._id, hash, new Date(Date.now() + 3_600_000)),
        users.updateProfile(member._id, { firstName, lastName: '佐藤' }),
      ]);
      const stored = await users.findById(member._id);
      if (stored?.passwordResetTokenHash !== hash) lost.push(`round ${round}: the reset token`);
      if (stored?.firstName !== firstName) lost.push(`round ${round}: the profile`);
    }
    expect(lost).toEqual([]);
  });

  it('the welcome page marked seen beside a password change and the first login: all three kept', async () => {
    const { users } = h.server.context.data;
    const lost: string[] = [];
    for (let round = 0; round < 30; round++) {
      const member = await newMember();
      const passwordHash = `hash-${round}`;
      const at = new Date();
      await Promise.all([
        users.markWelcomeSeen(member._id),
        users.setPassword(member._id, passwordHash),
        users.recordFirstLogin(member._id, at),
      ]);
      const stored = await users.findById(member._id);
      if (stored?.hasSeenWelcome !== true) lost.push(`round ${round}: welcome seen`);
      if (stored?.passwordHash !== passwordHash) lost.push(`round ${round}: the password`);
      if (stored?.firstLoginAt?.getTime() !== at.getTime()) lost.push(`round ${round}: the first login`);
    }
    expect(lost).toEqual([]);
  });

  it('a verification by link beside a new link asked for: the address stays verified', async () => {
    const { users } = h.server.context.data;
    const lost: string[] = [];
    for (let round = 0; round < 30; round++) {
      const member = await users.create({
        email: uniqueEmail('writes-verify'),
        firstName: '花子',
        lastName: '佐藤',
        passwordHash: 'not-a-hash',
        authProvider: 'local',
        emailVerified: false,
        locale: 'ja',
        verificationTokenHash: `first-${round}`,
        verificationExpires: new Date(Date.now() + 3_600_000),
      });
      const [verified, replaced] = await Promise.all([
        users.consumeVerificationToken(member._id, `first-${round}`, new Date()),
        users.replaceVerificationToken(member._id, `second-${round}`, new Date(Date.now() + 3_600_000)),
      ]);
      const stored = await users.findById(member._id);
      // the verification counted (it answered the member) whatever the new link did
      if (verified && stored?.emailVerified !== true) lost.push(`round ${round}: verified, then unverified`);
      if (!verified && !replaced) lost.push(`round ${round}: neither happened`);
    }
    expect(lost).toEqual([]);
  });
});
