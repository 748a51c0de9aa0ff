// Disaster alerts: each member's rules (one document, `_id` = the member), and the reports already applied (kit
// claims under the report's id: the de-duplication of reports that reach the stream more than once, by the poller
// and a replay, or after a restart).
import { ALERT_REPORT_SUBJECT, type AlertRules } from '@pagecast/contracts';
import { createClaims, type Nats } from '@pagecast/service-kit';
import type mongoose from 'mongoose';

export interface AlertRulesDoc extends AlertRules {
  _id: string;
  updatedAt: Date;
}

export function createAlertRepository(conn: mongoose.Connection, nats: Nats) {
  const rules = conn.collection<AlertRulesDoc>('screen_alert_rules');
  const reports = createClaims(conn, 'alert_reports');
  return {
    /** the poller's output: one report's raw bytes on the ALERTS stream (the id drops a repeat within the window) */
    publishReport: async (xml: Uint8Array, msgId: string) => {
      await nats.js.publish(ALERT_REPORT_SUBJECT, xml, { msgID: msgId });
    },
    rules: {
      /** null: the member never saved theirs (the defaults apply) */
      async get(ownerId: string): Promise<AlertRules | null> {
        const doc = await rules.findOne({ _id: ownerId });
        if (!doc) return null;
        const { _id, updatedAt, ...saved } = doc;
        return saved;
      },
      /** Every saved document of these members (one read for a report's owners). */
      async ofOwners(ownerIds: string[]): Promise<Map<string, AlertRules>> {
        if (ownerIds.length === 0) return new Map();
        const docs = await rules.find({ _id: { $in: ownerIds } }).toArray();
        return new Map(docs.map(({ _id, updatedAt, ...saved }) => [_id, saved]));
      },
      set: async (ownerId: string, value: AlertRules, at: Date) => {
        await rules.replaceOne({ _id: ownerId }, { ...value, updatedAt: at }, { upsert: true });
      },
    },
    reports: {
      /** whether this report was applied already */
      seen: async (reportId: string) => (await reports.get(`report:${reportId}`)) !== null,
      /** marks it applied (after its takeovers are written: a crash before re-applies it, idempotently) */
      done: async (reportId: string, data: Record<string, unknown>) => {
        await reports.claim(`report:${reportId}`, { data });
      },
    },
  };
}
export type AlertRepository = ReturnType<typeof createAlertRepository>;
