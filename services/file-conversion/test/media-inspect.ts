// Looking at media files from the tests, apart from the engine: ffprobe's view of a file, and an MP4's top-level boxes.
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';

export interface Probed {
  format: { format_name: string; duration: string };
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; avg_frame_rate: string }[];
}

/** ffprobe run here: the file's container and length, and each stream's codec, size and frame rate. */
export function probeMedia(path: string): Probed {
  const r = spawnSync(
    'ffprobe',
    [
      '-v',
      'error',
      '-show_entries',
      'format=format_name,duration:stream=codec_type,codec_name,width,height,avg_frame_rate',
      '-of',
      'json',
      path,
    ],
    { encoding: 'utf8' },
  );
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Probed;
}

/** Top-level ISO-BMFF boxes in order: faststart means moov comes before mdat. */
export function topBoxes(b: Buffer): string[] {
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= b.length; ) {
    const size = b.readUInt32BE(at);
    boxes.push(b.subarray(at + 4, at + 8).toString('latin1'));
    if (size < 8) break;
    at += size;
  }
  return boxes;
}
