// Runs the screens benchmarks alone, against the running test servers (scripts/infra.mjs env --profile test):
//   env $(node scripts/infra.mjs env --profile test) node --import tsx services/screens/bench/run.mjs [device|fleet|plays|signed]
import { benchDeviceView } from './device-view.bench.mjs';
import { benchFleetView } from './fleet-view.bench.mjs';
import { benchPlayIntake } from './play-intake.bench.mjs';
import { benchSignedInserts } from './signed-inserts.bench.mjs';

const only = process.argv[2];
const log = (line) => console.log(`  ${line}`);
if (!only || 'device view'.includes(only)) console.table(await benchDeviceView({ log }));
if (!only || 'fleet view'.includes(only)) console.table(await benchFleetView({ log }));
if (!only || 'plays'.includes(only)) console.table(await benchPlayIntake({ log }));
if (!only || 'signed inserts'.includes(only)) console.table(await benchSignedInserts({ log }));
process.exit(0);
