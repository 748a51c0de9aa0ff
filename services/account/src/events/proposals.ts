import { subjects } from '@pagecast/contracts';
import { consume, type JetStreamClient } from '@pagecast/service-kit';
import { mailProposalCreated, mailProposalDecided, type ProposalMailDeps } from '../use-cases/mail-proposals';

/**
 * The screens service's proposals (screens.proposal.created.v1, screens.proposal.decided.v1) become e-mails: to those
 * who may decide, then to the editor (use-cases/mail-proposals.ts). One mail per proposal and person, whatever the
 * redeliveries.
 */
export function consumeProposals(opts: ProposalMailDeps & { js: JetStreamClient; durable: string }) {
  return consume(opts.js, {
    stream: 'SCREENS',
    durable: opts.durable,
    // news: a new deployment does not mail the stream's past proposals
    deliver: 'new',
    subjects: [subjects.proposalCreated, subjects.proposalDecided],
    logger: opts.logger,
    handler: async (envelope) => {
      if (envelope.type === subjects.proposalCreated)
        await mailProposalCreated(opts, envelope.data as Parameters<typeof mailProposalCreated>[1]);
      else await mailProposalDecided(opts, envelope.data as Parameters<typeof mailProposalDecided>[1]);
    },
  });
}
