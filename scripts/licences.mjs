#!/usr/bin/env node
// Rewrites THIRD_PARTY_NOTICES.md and lists any dependency whose licence is not allowed (scripts/lib/licences.mjs).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { notice, problems } from './lib/licences.mjs';
import { root } from './lib/infra.mjs';

writeFileSync(join(root, 'THIRD_PARTY_NOTICES.md'), notice(root));
const found = problems(root);
for (const p of found) process.stderr.write(`licence: ${p}\n`);
process.stdout.write(`THIRD_PARTY_NOTICES.md written; ${found.length} licence problem(s)\n`);
process.exit(found.length ? 1 : 0);
