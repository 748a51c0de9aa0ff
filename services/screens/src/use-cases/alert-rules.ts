// A member's disaster alert rules: one document, the defaults until they save theirs.
import { type AlertRules, defaultAlertRules } from '@pagecast/contracts';
import type { AuditActor } from '@pagecast/service-kit';
import type { ServiceContext } from '../context';
import { auditScreensChange } from '../events/audit';
import { checkFile } from './fleet-common';

export async function getAlertRules(ctx: ServiceContext, ownerId: string): Promise<AlertRules> {
  return (await ctx.data.alerts.rules.get(ownerId)) ?? defaultAlertRules;
}

/**
 * Replaced whole (the page sends every rule): the next report is judged by them. A rule's file is checked as a file
 * takeover's (the member's own not deleted, or licensed now), all before anything is saved.
 */
export async function setAlertRules(
  ctx: ServiceContext,
  ownerId: string,
  rules: AlertRules,
  actor: AuditActor,
): Promise<AlertRules> {
  const now = ctx.clock.ms();
  for (const rule of [rules.earthquake, rules.tsunami, rules.emergencyWarning]) {
    if (rule.fileId) await checkFile(ctx, ownerId, rule.fileId, now);
  }
  const before = await getAlertRules(ctx, ownerId);
  await ctx.data.alerts.rules.set(ownerId, rules, new Date(now));
  // the same rules saved again change nothing: no entry
  if (JSON.stringify(before) !== JSON.stringify(rules)) {
    await auditScreensChange(ctx, actor, {
      workspaceId: ownerId,
      action: 'alert-rules.updated',
      object: { type: 'alert-rules', id: ownerId },
      before,
      after: rules,
    });
  }
  return rules;
}
