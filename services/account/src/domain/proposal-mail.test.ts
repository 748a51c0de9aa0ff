import { describe, expect, it } from 'vitest';
import { proposalCreatedMail, proposalDecidedMail, proposalLink } from './proposal-mail';

const to = { email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee' };
const proposer = { email: 'bo@example.com', firstName: 'Bo', lastName: 'Park' };
const created = (screensTotal: number) => ({
  proposalId: 'p 1',
  workspaceId: 'w1',
  proposedBy: 'u2',
  kind: 'create-group' as const,
  screensTotal,
  createdAt: '2026-12-06T09:00:00.000Z',
});

describe('proposal mails', () => {
  it('count screens with plural forms, and say so when no screen changes', () => {
    const en = (n: number) =>
      proposalCreatedMail('en', {
        to,
        publicUrl: 'https://p.test',
        proposer,
        workspaceName: 'Shop',
        proposal: created(n),
      });
    expect(en(1).subject).toBe('[Pagecast] Bo Park proposed a change to 1 screen');
    expect(en(1).text).toContain('If it is approved, what 1 screen plays will change.');
    expect(en(200).subject).toBe('[Pagecast] Bo Park proposed a change to 200 screens');
    expect(en(0).subject).toBe('[Pagecast] Bo Park proposed a change');
    expect(en(0).text).toContain('If it is approved, no screen will play anything different.');
    const it_ = (n: number) =>
      proposalCreatedMail('it', {
        to,
        publicUrl: 'https://p.test',
        proposer,
        workspaceName: 'Shop',
        proposal: created(n),
      });
    expect(it_(1).text).toContain('ciò che riproduce 1 schermo');
    expect(it_(2).text).toContain('ciò che riproducono 2 schermi');
  });

  it('quote the reason of a rejection in the language’s marks, escaped in the HTML', () => {
    const mail = (locale: 'ja' | 'it') =>
      proposalDecidedMail(locale, {
        to,
        publicUrl: 'https://p.test',
        decider: proposer,
        workspaceName: 'Shop',
        decision: {
          ...created(2),
          decidedBy: 'u3',
          outcome: 'rejected',
          reason: 'Logo <b>blurry</b>',
          kind: 'bulk',
          decidedAt: '2026-12-06T10:00:00.000Z',
        },
      });
    expect(mail('ja').text).toContain('理由：「Logo <b>blurry</b>」');
    expect(mail('it').text).toContain('Motivo: «Logo <b>blurry</b>»');
    expect(mail('it').html).toContain('Logo &#60;b&#62;blurry&#60;/b&#62;');
    expect(mail('it').html).not.toContain('<b>blurry');
  });

  it('link to the proposal in its workspace', () => {
    expect(proposalLink('https://p.test', 'p 1', 'w1')).toBe('https://p.test/screens/proposals/p%201?w=w1');
  });
});
