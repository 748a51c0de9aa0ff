// Every index the services declare must be valid and mean the same on MongoDB as on FerretDB. The trap: MongoDB
// indexes a missing field as null, so a plain unique index on a field some documents lack lets only one of them
// exist (FerretDB is laxer). A unique index must therefore cover required fields only, or be partial or sparse.
// The schemas are found by reading the sources, so a new model is checked without being listed here.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mongoose from 'mongoose';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const schemaFiles = ['services', 'packages']
  .flatMap((top) => readdirSync(join(root, top)).map((name) => join(root, top, name, 'src')))
  .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
  .flatMap(sources)
  .filter((file) => /new (mongoose\.)?Schema\b/.test(readFileSync(file, 'utf8')));

type Declared = { file: string; schema: mongoose.Schema };
const declared: Declared[] = [];

beforeAll(async () => {
  // Record every schema as it is built: Schema's constructor calls add() with its definition.
  // The declaring file is the first frame of ours on the stack (a module may import another that declares one).
  const add = mongoose.Schema.prototype.add;
  mongoose.Schema.prototype.add = function (this: mongoose.Schema, ...args: Parameters<typeof add>) {
    if (!declared.some((d) => d.schema === this)) {
      const frame = (new Error().stack ?? '')
        .split('\n')
        .find((line) => /\/(services|packages)\/[^/]+\/src\//.test(line));
      const file = frame?.match(/((services|packages)\/[^/]+\/src\/[^:)]+)/)?.[1] ?? 'unknown';
      declared.push({ file, schema: this });
    }
    return add.apply(this, args);
  } as typeof add;
  try {
    for (const file of schemaFiles) await import(file);
  } finally {
    mongoose.Schema.prototype.add = add;
  }
}, 60_000);

/** The problems of one schema's indexes, as sentences naming the file and the index. */
function indexProblems(file: string, schema: mongoose.Schema): string[] {
  const problems: string[] = [];
  for (const [fields, options = {}] of schema.indexes() as [Record<string, unknown>, mongoose.IndexOptions?][]) {
    const keys = Object.keys(fields);
    const name = `${file} {${keys.join(', ')}}`;
    for (const key of keys) {
      if (key === '_id') continue;
      if (!schema.path(key) && !key.includes('.')) problems.push(`${name}: no field "${key}" in the schema`);
    }
    if (!options.unique || options.partialFilterExpression || options.sparse) continue;
    for (const key of keys) {
      if (key === '_id') continue;
      const path = schema.path(key) as (mongoose.SchemaType & { isRequired?: boolean }) | undefined;
      if (!path?.isRequired) {
        problems.push(`${name}: unique on "${key}", which may be missing (make it required, or the index partial)`);
      }
    }
  }
  return problems;
}

describe('the indexes the services declare', () => {
  it('finds the schemas of every service', () => {
    const services = new Set(declared.map((d) => d.file.split('/').slice(0, 2).join('/')));
    for (const name of readdirSync(join(root, 'services'))) expect(services).toContain(`services/${name}`);
    expect(declared.filter((d) => d.schema.indexes().length > 0).length).toBeGreaterThan(10);
  });

  it('are valid on MongoDB: unique indexes cover fields every document has, or are partial or sparse', () => {
    const problems = declared.flatMap((d) => indexProblems(d.file, d.schema));
    expect(problems).toEqual([]);
  });

  it('catches a unique index on an optional field, and accepts the partial form', () => {
    const optional = new mongoose.Schema({ code: String });
    optional.index({ code: 1 }, { unique: true });
    expect(indexProblems('example', optional)).toHaveLength(1);
    const partial = new mongoose.Schema({ code: String });
    partial.index({ code: 1 }, { unique: true, partialFilterExpression: { code: { $type: 'string' } } });
    expect(indexProblems('example', partial)).toEqual([]);
    const required = new mongoose.Schema({ code: { type: String, required: true, unique: true } });
    expect(indexProblems('example', required)).toEqual([]);
  });
});
