#!/usr/bin/env node
// npm run alerts -- replay [--profile dev|test] [--dry-run] <files…>
// Replays disaster report files (JMA XML or CAP 1.2) onto the ALERTS stream, as the feed poller would publish them,
// for tests and offline demonstrations; prints what each parsed to. NATS comes from the environment the other scripts
// use (scripts/infra.mjs env; NATS_URL wins when set). The package is TypeScript, run by Node's type stripping.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { connectAlertsPublisher } from '../packages/alerts/src/feed/nats.ts';
import { parseReport } from '../packages/alerts/src/index.ts';
import { infraEnv } from './lib/infra.mjs';

const usage = 'usage: npm run alerts -- replay [--profile dev|test] [--dry-run] [--subject s --stream S] <files…>';

/** What a report says, in one line: kind, status, infoType, then the areas it names. */
export function describe(report) {
  const quake = report.earthquake;
  const areas = [
    ...(quake?.hypocentreName ? [`震源 ${quake.hypocentreName}${quake.magnitude ? ` M${quake.magnitude}` : ''}`] : []),
    ...(report.earthquake?.cities.length
      ? report.earthquake.cities.map((c) => `${c.name}(${c.code}) ${c.intensity}`)
      : (report.earthquake?.areas ?? []).map((a) => `${a.name}(${a.code}) ${a.intensity}`)),
    ...(report.tsunami?.regions ?? []).map((r) => `${r.name}(${r.code}) ${r.grade}`),
    ...(report.weather?.areas ?? [])
      .filter((a) => a.warnings.length > 0)
      .map((a) => `${a.name}(${a.code}) ${a.warnings.map((w) => `${w.name}:${w.state}`).join('+')}`),
    ...(report.polygons ?? []).map((p) => `polygon of ${p.length} points`),
    ...(report.areaCodes ?? []),
  ];
  const shown = areas.length > 12 ? [...areas.slice(0, 12), `… ${areas.length - 12} more`] : areas;
  return `${report.jmaType ?? report.source} ${report.kind} ${report.status} ${report.infoType} ${report.eventId} — ${shown.join(', ') || 'no areas'}`;
}

async function replay(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      profile: { type: 'string', default: 'dev' },
      'dry-run': { type: 'boolean', default: false },
      subject: { type: 'string' },
      stream: { type: 'string' },
    },
  });
  if (positionals.length === 0) throw new Error(usage);
  const env = infraEnv(values.profile);
  // a stream and subject of one's own keep a demonstration or a test away from the screens' ALERTS stream
  const stream = values.stream
    ? {
        name: values.stream,
        subjects: [values.subject ?? `${values.stream.toLowerCase()}.>`],
        duplicateWindowMs: 120_000,
        maxAgeMs: 3_600_000,
      }
    : undefined;
  const publisher = values['dry-run']
    ? undefined
    : await connectAlertsPublisher(env.NATS_URL, {
        ...(stream ? { stream } : {}),
        ...(values.subject ? { subject: values.subject } : {}),
      });
  let failed = 0;
  try {
    for (const file of positionals) {
      const bytes = readFileSync(file);
      let report;
      try {
        report = parseReport(bytes.toString('utf8'));
      } catch (err) {
        failed++;
        process.stdout.write(`${file}: refused ${err.code ?? err.message}\n`);
        continue;
      }
      const msgId = `${report.source}:${createHash('sha256').update(bytes).digest('hex')}`;
      const ack = publisher ? await publisher.publish(new Uint8Array(bytes), msgId) : undefined;
      const state = !ack
        ? 'not published (dry run)'
        : ack.duplicate
          ? 'already on the stream'
          : `published #${ack.seq}`;
      process.stdout.write(`${file}: ${describe(report)} [${state}]\n`);
    }
  } finally {
    await publisher?.close();
  }
  return failed;
}

const [command, ...rest] = process.argv.slice(2);
if (command !== 'replay') {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}
replay(rest).then(
  (failed) => process.exit(failed ? 1 : 0),
  (err) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  },
);
