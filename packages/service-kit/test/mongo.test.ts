import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, isDuplicateKeyError, toAppError } from '../src/errors';
import { connectMongo, mongoReady } from '../src/mongo';
import { testEnv, uniqueName } from '../src/testing';
import { captureLogger } from './helpers';

const env = testEnv();
const { logger } = captureLogger();
let conn: mongoose.Connection;

beforeAll(async () => {
  conn = await connectMongo(env.MONGO_URL, uniqueName('kit_mongo'), logger);
});
afterAll(async () => {
  await conn.dropDatabase();
  await conn.close();
});

describe('connectMongo (real MongoDB protocol server)', () => {
  it('connects to the named database and is ready', async () => {
    expect(conn.name).toMatch(/^kit_mongo-/);
    expect(await mongoReady(conn)).toBe(true);
  });

  it('a unique index violation is E11000 and maps to 409 CONFLICT', async () => {
    const User = conn.model('User', new mongoose.Schema({ email: { type: String, required: true, unique: true } }));
    await User.init(); // builds the unique index
    await User.create({ email: 'a@example.com' });
    const err = await User.create({ email: 'a@example.com' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDuplicateKeyError(err)).toBe(true);
    const mapped = toAppError(err);
    expect(mapped).toBeInstanceOf(AppError);
    expect(mapped?.code).toBe('CONFLICT');
    expect(mapped?.status).toBe(409);
    expect(await User.countDocuments({ email: 'a@example.com' })).toBe(1);
  });

  it('a wrong address fails fast instead of hanging', async () => {
    const started = Date.now();
    await expect(connectMongo('mongodb://127.0.0.1:1', 'nowhere', logger)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('is not ready once closed', async () => {
    const other = await connectMongo(env.MONGO_URL, uniqueName('kit_mongo_closed'), logger);
    await other.close();
    expect(await mongoReady(other)).toBe(false);
  });
});
