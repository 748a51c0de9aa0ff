import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { UploadSpool } from './upload-spool';

const spools: UploadSpool[] = [];
afterEach(() => {
  for (const s of spools.splice(0)) s.clear();
});
const newSpool = () => {
  const s = new UploadSpool();
  spools.push(s);
  return s;
};

/** A chunk through the spool to a "store" that takes `taken` of its bytes (all by default), or fails. */
async function write(spool: UploadSpool, id: string, bytes: Buffer, offset: number, taken = bytes.length) {
  const { stream, settle } = spool.tee(id, Readable.from([bytes.subarray(0, 3), bytes.subarray(3)]), offset);
  const seen: Buffer[] = [];
  for await (const chunk of stream) seen.push(chunk as Buffer);
  // what passes on to the store is the chunk itself
  expect(Buffer.concat(seen)).toEqual(bytes);
  settle(taken < 0 ? undefined : offset + taken);
}

const upload = Buffer.from('0123456789abcdefghij');

describe('the instance copy of a resumable upload', () => {
  it('holds every byte the store accepted, from 0 with no gap', async () => {
    const spool = newSpool();
    await write(spool, 'u', upload.subarray(0, 8), 0);
    await write(spool, 'u', upload.subarray(8), 8);
    const path = await spool.take('u', upload.length);
    expect(path && (await readFile(path))).toEqual(upload);
    // taken once: the caller owns it now
    expect(await spool.take('u', upload.length)).toBeUndefined();
  });

  it('of a call the store took only part of, keeps that part, and the resumed call goes on from there', async () => {
    const spool = newSpool();
    // a dropped connection: 12 bytes passed, the store kept 10
    await write(spool, 'u', upload.subarray(0, 12), 0, 10);
    expect(await spool.take('u', 12)).toBeUndefined();
    await write(spool, 'v', upload.subarray(0, 12), 0, 10);
    await write(spool, 'v', upload.subarray(10), 10);
    const path = await spool.take('v', upload.length);
    expect(path && (await readFile(path))).toEqual(upload);
  });

  it('is dropped by a failed write, a gap (a chunk taken by another instance) or a first chunk past 0', async () => {
    const spool = newSpool();
    await write(spool, 'failed', upload.subarray(0, 8), 0);
    await write(spool, 'failed', upload.subarray(8), 8, -1);
    expect(await spool.take('failed', upload.length)).toBeUndefined();

    await write(spool, 'gap', upload.subarray(0, 8), 0);
    await write(spool, 'gap', upload.subarray(12), 12);
    expect(await spool.take('gap', upload.length)).toBeUndefined();

    await write(spool, 'late', upload.subarray(8), 8);
    expect(await spool.take('late', upload.length)).toBeUndefined();
  });

  it('is not handed out short of the whole upload', async () => {
    const spool = newSpool();
    await write(spool, 'u', upload.subarray(0, 8), 0);
    expect(await spool.take('u', upload.length)).toBeUndefined();
  });
});
