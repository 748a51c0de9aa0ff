// Play records' CPU in the screens service, per record: the accepting side (a display's batch through the
// record-plays use case: its checks, the contact note and the intake stream's publish, everything but HTTP) with
// each record published as its own JetStream request (`js.publish` per record, awaited together: the code before)
// and with the batch's records sent together on one inbox (data/play-intake.ts now), alternated in the same run;
// then the judge behind the stream (a second instance on the same database and stream, from its first record to
// the last stored). The displays are paired through the API and given a file; each sends its batches one after
// another, all displays at once, as a fleet does. CPU is this process's (process.cpuUsage), which runs nothing
// else meanwhile; FerretDB's and NATS's are not in it. Figures only; it never fails on time.
//   env $(node scripts/infra.mjs env --profile test) node --import tsx services/screens/bench/run.mjs plays
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { intakeSubjectOf } from '../src/data/play-intake.ts';
import { recordPlays } from '../src/use-cases/record-plays.ts';
import { announcer, assign, eventsHandled, member, pairDisplay, startReplica, startService } from '../test/helpers.ts';

const DISPLAYS = Number(process.env.BENCH_DISPLAYS ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SIZES = [1, 5];
/** passes of every phase, alternated; the first is a warm-up, the table gives the median of the others */
const REPS = Number(process.env.BENCH_REPS ?? 3);
const PAGE_MS = 10_000;

// BENCH_CPU_PROF=<dir>: V8 profiles of the last accepting pass of each size and of the judge (<dir>/<what>.cpuprofile)
const PROF_DIR = process.env.BENCH_CPU_PROF;
async function profiled(name, on, work) {
  if (!PROF_DIR || !on) return work();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${PROF_DIR}/${name}.cpuprofile`, JSON.stringify(profile));
    session.disconnect();
  }
}

/** The database operations of a connection by collection and method until `stop` (mongoose's operation events). */
function countOps(conn) {
  const seen = new Map();
  const listener = (op) => {
    const k = `${op.collectionName}.${op.method}`;
    seen.set(k, (seen.get(k) ?? 0) + 1);
  };
  conn.on('operation-start', listener);
  return {
    total: () => [...seen.values()].reduce((a, b) => a + b, 0),
    text: (per) =>
      [...seen]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${(v / per).toFixed(3)}`)
        .join(', '),
    stop: () => conn.off('operation-start', listener),
  };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export async function benchPlayIntake({ log = () => {} } = {}) {
  // pairing a fleet at once: no rate limit in the way
  const svc = await startService({ PLAY_JUDGE: '0', PAIRING_RATE_MAX: '100000', PAIR_ATTEMPT_RATE_MAX: '100000' });
  const ctx = svc.server.context;
  let judge;
  try {
    const owner = member();
    const t0 = Date.now();
    const fileId = await announcer(svc).file(owner.userId, 5, t0 - 3_600_000);
    await eventsHandled(svc);
    log(`pairing ${DISPLAYS} displays ...`);
    const devices = [];
    for (let i = 0; i < DISPLAYS; i += 10) {
      const paired = await Promise.all(
        Array.from({ length: Math.min(10, DISPLAYS - i) }, () => pairDisplay(svc, owner)),
      );
      for (const { device } of paired) {
        await assign(svc, owner, device.screenId, { kind: 'file', fileId });
        devices.push(device);
      }
    }
    // every record after the assignments and before the clock: the clock moves past all the phases' records
    const start = Date.now() + 1000;
    const phases = [];
    for (let rep = 0; rep < REPS; rep++)
      for (const scope of ['use case', 'publish only'])
        for (const size of SIZES)
          for (const how of ['request per record', 'one inbox']) phases.push({ scope, size, how, rep });
    const pagesOfPhases = phases.reduce((n, p) => n + p.size * ROUNDS, 0);
    svc.clock.offsetMs = start + pagesOfPhases * PAGE_MS + 5000 - Date.now();

    // the code before: each record its own JetStream request
    const { intake } = ctx.data;
    const encoder = new TextEncoder();
    const perRecord = {
      ...intake,
      async publish(records) {
        await intake.ensure();
        const acks = await Promise.all(
          records.map((r) =>
            ctx.nats.js.publish(intakeSubjectOf(intake.stream, r.screenId), encoder.encode(JSON.stringify(r)), {
              msgID: r.play.id,
            }),
          ),
        );
        const duplicates = acks.filter((a) => a.duplicate).length;
        return { taken: acks.length - duplicates, duplicates };
      },
    };

    const rows = [];
    const passes = [];
    let page = 0;
    let records = 0;
    for (const phase of phases) {
      const first = page;
      page += phase.size * ROUNDS;
      ctx.data.intake = phase.how === 'one inbox' ? intake : perRecord;
      const batchMs = [];
      const ops = countOps(ctx.conn);
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      const accept =
        phase.scope === 'use case'
          ? (device, plays) => recordPlays(ctx, { kind: 'device', iat: 0, ...device }, { plays })
          : (device, plays) =>
              ctx.data.intake.publish(plays.map((play) => ({ screenId: device.screenId, play, at: ctx.clock.ms() })));
      const name = `${phase.scope}-${phase.size}-${phase.how}`.replace(/ /g, '-');
      await profiled(name, phase.rep === 1, () =>
        Promise.all(
          devices.map(async (device) => {
            for (let r = 0; r < ROUNDS; r++) {
              const plays = Array.from({ length: phase.size }, (_, k) => ({
                id: randomUUID(),
                fileId,
                page: ((r * phase.size + k) % 5) + 1,
                startedAt: new Date(start + (first + r * phase.size + k) * PAGE_MS).toISOString(),
                seconds: PAGE_MS / 1000,
              }));
              const b0 = performance.now();
              const answer = await accept(device, plays);
              batchMs.push(performance.now() - b0);
              if ((answer.accepted ?? answer.taken) !== phase.size)
                throw new Error(`a batch was answered ${JSON.stringify(answer)}`);
            }
          }),
        ),
      );
      const wall = performance.now() - w0;
      const cpu = process.cpuUsage(c0);
      ops.stop();
      ctx.data.intake = intake;
      const n = devices.length * ROUNDS * phase.size;
      records += n;
      batchMs.sort((a, b) => a - b);
      passes.push({
        rep: phase.rep,
        label: `${phase.scope}, ${phase.size} per batch, ${phase.how}`,
        records: n,
        'µs CPU/record': Math.round((cpu.user + cpu.system) / n),
        'µs CPU/batch': Math.round((cpu.user + cpu.system) / (n / phase.size)),
        'batch p50 ms': Number(pct(batchMs, 50).toFixed(1)),
        'batch p95 ms': Number(pct(batchMs, 95).toFixed(1)),
        'records/s': Math.round(n / (wall / 1000)),
        'db ops/batch': Number((ops.total() / (n / phase.size)).toFixed(2)),
      });
      log(
        `${passes.at(-1).label} (pass ${phase.rep + 1}): ${passes.at(-1)['µs CPU/record']} µs/record; database operations per batch: ${ops.text(n / phase.size) || 'none'}`,
      );
    }
    // the median pass of each phase, warm-up left out
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
    const measured = passes.filter((p) => p.rep > 0 || REPS === 1);
    for (const label of [...new Set(measured.map((p) => p.label))]) {
      const of = measured.filter((p) => p.label === label);
      const row = { label: `${label} (median of ${of.length})` };
      for (const k of Object.keys(of[0])) if (k !== 'rep' && k !== 'label') row[k] = median(of.map((p) => p[k]));
      rows.push(row);
    }

    // the judge: another instance, the only one judging, from the stream's first record to the last stored
    log(`judging ${records} records ...`);
    let judgeOps;
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await profiled('judge', true, async () => {
      judge = await startReplica(svc, { PLAY_JUDGE: '1' });
      judgeOps = countOps(judge.server.context.conn);
      // as the tests' playsJudged, with time for tens of thousands of records
      const deadline = Date.now() + 15 * 60_000;
      for (let waiting = await intake.backlog(); waiting > 0; waiting = await intake.backlog()) {
        if (Date.now() > deadline) throw new Error(`${waiting} records still wait for the judge after 15 minutes`);
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    const wall = performance.now() - w0;
    const cpu = process.cpuUsage(c0);
    judgeOps.stop();
    log(`judge: database operations per 1,000 records: ${judgeOps.text(records / 1000)}`);
    const counted = await ctx.conn
      .collection('plays')
      .countDocuments({ screenId: { $in: devices.map((d) => d.screenId) } });
    const refused = await ctx.conn
      .collection('play_refusals')
      .countDocuments({ screenId: { $in: devices.map((d) => d.screenId) } });
    rows.push({
      label: `judge (start included): ${counted} counted, ${refused} refused`,
      records,
      'µs CPU/record': Math.round((cpu.user + cpu.system) / records),
      'µs CPU/batch': '-',
      'batch p50 ms': '-',
      'batch p95 ms': '-',
      'records/s': Math.round(records / (wall / 1000)),
      'db ops/batch': '-',
    });
    return rows;
  } finally {
    await judge?.close();
    await svc.close();
  }
}
