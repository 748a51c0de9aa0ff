import type { EventData } from '@pagecast/contracts';
import { can } from '@pagecast/policy';
import type { Logger } from '@pagecast/service-kit';
import type { Mailer, Repositories } from '../data';
import { chooseLocale, proposalCreatedMail, proposalDecidedMail, type UserRecord } from '../domain';

/** What the proposal mails need (the consumer builds it from the service's context). */
export interface ProposalMailDeps {
  data: Pick<Repositories, 'users' | 'workspaces' | 'claims'>;
  mailer: Mailer;
  publicUrl: string;
  logger: Logger;
}

const recipient = (u: UserRecord) => ({ email: u.email, firstName: u.firstName, lastName: u.lastName });

/**
 * Sends `mail` once per `key`: skipped when the claim exists, claimed after the send (as the screen alerts: a crash
 * between the two sends it again on redelivery, never zero times).
 */
async function once(deps: ProposalMailDeps, key: string, send: () => Promise<void>): Promise<void> {
  if (await deps.data.claims.get(key)) return;
  await send();
  await deps.data.claims.claim(key);
}

/**
 * A proposal waits: one mail to each member who may decide it (the policy's approvals.decide: owner, admins,
 * publishers) but its editor, in each one's own language, naming the editor and the workspace as they are now.
 * Each recipient is recorded apart, so a redelivery after a failed send mails only those not mailed yet.
 */
export async function mailProposalCreated(
  deps: ProposalMailDeps,
  proposal: EventData<'screens.proposal.created.v1'>,
): Promise<void> {
  const { users, workspaces } = deps.data;
  const workspace = await workspaces.find(proposal.workspaceId);
  if (!workspace) {
    deps.logger.info({ proposalId: proposal.proposalId }, 'proposal in a workspace this service does not know');
    return;
  }
  const deciders = (await workspaces.membersOf(proposal.workspaceId)).filter(
    (m) => m.userId !== proposal.proposedBy && can(m.role, 'approvals.decide'),
  );
  const people = await users.findMany([proposal.proposedBy, ...deciders.map((m) => m.userId)]);
  const proposer = people.get(proposal.proposedBy) ?? null;
  for (const m of deciders) {
    const to = people.get(m.userId);
    if (!to) continue;
    await once(deps, `proposal-created:${proposal.proposalId}:${m.userId}`, async () => {
      const locale = chooseLocale({ account: to.locale });
      await deps.mailer.send(
        to.email,
        proposalCreatedMail(locale, {
          to: recipient(to),
          publicUrl: deps.publicUrl,
          proposer,
          workspaceName: workspace.name,
          proposal,
        }),
      );
    });
  }
}

/**
 * A proposal was decided: one mail to its editor, in their language (approved, or rejected with the reason), while
 * they are still a member of the workspace (someone removed meanwhile is told nothing more of it).
 */
export async function mailProposalDecided(
  deps: ProposalMailDeps,
  decision: EventData<'screens.proposal.decided.v1'>,
): Promise<void> {
  const { users, workspaces } = deps.data;
  const [workspace, membership] = await Promise.all([
    workspaces.find(decision.workspaceId),
    workspaces.member(decision.workspaceId, decision.proposedBy),
  ]);
  const people = await users.findMany([decision.proposedBy, decision.decidedBy]);
  const to = people.get(decision.proposedBy);
  if (!workspace || !membership || !to) {
    deps.logger.info({ proposalId: decision.proposalId }, 'decision for an editor no longer in the workspace: no mail');
    return;
  }
  await once(deps, `proposal-decided:${decision.proposalId}`, async () => {
    const locale = chooseLocale({ account: to.locale });
    await deps.mailer.send(
      to.email,
      proposalDecidedMail(locale, {
        to: recipient(to),
        publicUrl: deps.publicUrl,
        decider: people.get(decision.decidedBy) ?? null,
        workspaceName: workspace.name,
        decision,
      }),
    );
  });
}
