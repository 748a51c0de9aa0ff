// A member's disaster alert rules: one document, the defaults until they save theirs.
import { type AlertRules, defaultAlertRules } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { checkFile } from './fleet-common';

export async function getAlertRules(ctx: ServiceContext, ownerId: string): Promise<AlertRules> {
  return (await ctx.data.alerts.rules.get(ownerId)) ?? defaultAlertRules;
}

/**
 * Replaced whole (the page sends every rule): the next report is judged by them. A rule's file is checked as a file
 * takeover's (the member's own not deleted, or licensed now), all before anything is saved.
 */
export async function setAlertRules(ctx: ServiceContext, ownerId: string, rules: AlertRules): Promise<AlertRules> {
  const now = ctx.clock.ms();
  for (const rule of [rules.earthquake, rules.tsunami, rules.emergencyWarning]) {
    if (rule.fileId) await checkFile(ctx, ownerId, rule.fileId, now);
  }
  await ctx.data.alerts.rules.set(ownerId, rules, new Date(ctx.clock.ms()));
  return rules;
}
