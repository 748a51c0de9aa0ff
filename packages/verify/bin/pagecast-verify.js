#!/usr/bin/env node
// pagecast-verify proof.json [--json]: checks a downloaded proof of play offline (node's crypto only).
// Exit 0: valid and complete; 1: something does not verify (or the file cannot be read); 2: every signature holds
// but a display's chain of batches has a hole (a batch the file does not hold).
import { readFileSync } from 'node:fs';
import { verifyProof } from '../src/verify.js';

const args = process.argv.slice(2);
const asJson = args.includes('--json');
const file = args.find((a) => !a.startsWith('--'));
if (!file || args.includes('--help')) {
  process.stderr.write('usage: pagecast-verify <proof.json> [--json]\n');
  process.exit(file ? 0 : 1);
}

let proof;
try {
  proof = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  process.stderr.write(`pagecast-verify: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
const result = verifyProof(proof);
const code = !result.ok ? 1 : result.complete ? 0 : 2;
if (asJson) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  process.exit(code);
}
const s = result.summary;
const out = [];
if (s.scope) out.push(`file ${s.scope.fileId}, ${s.scope.from} to ${s.scope.to} (UTC days), ${s.scope.kind}'s proof`);
out.push(`${s.keys} display key(s), ${s.batches} signed batch(es)`);
out.push(`${s.records} signed record(s), ${Math.round(s.seconds * 100) / 100} s claimed`);
out.push(
  `the service's note (not signed): ${s.counted} counted (${Math.round(s.countedSeconds * 100) / 100} s), ${s.refused} refused`,
);
for (const n of result.notes) out.push(`note: ${n.message}`);
for (const g of result.gaps) out.push(`GAP: ${g.message}`);
for (const f of result.failures) out.push(`FAIL [${f.code}]: ${f.message}`);
out.push(
  code === 0
    ? 'VALID: every record is signed by its display, every chain unbroken'
    : code === 2
      ? 'INCOMPLETE: every signature holds, but batches are missing from a chain'
      : `INVALID: ${result.failures.length} failure(s)`,
);
(code === 0 ? process.stdout : process.stderr).write(`${out.join('\n')}\n`);
process.exit(code);
