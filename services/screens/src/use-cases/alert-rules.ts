// A member's disaster alert rules: one document, the defaults until they save theirs.
import { type AlertRules, defaultAlertRules } from '@pagecast/contracts';
import type { ServiceContext } from '../context';

export async function getAlertRules(ctx: ServiceContext, ownerId: string): Promise<AlertRules> {
  return (await ctx.data.alerts.rules.get(ownerId)) ?? defaultAlertRules;
}

/** Replaced whole (the page sends every rule): the next report is judged by them. */
export async function setAlertRules(ctx: ServiceContext, ownerId: string, rules: AlertRules): Promise<AlertRules> {
  await ctx.data.alerts.rules.set(ownerId, rules, new Date(ctx.clock.ms()));
  return rules;
}
