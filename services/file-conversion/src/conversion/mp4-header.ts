import { open } from 'node:fs/promises';

/** What an MP4's movie header says of it, read as ffprobe reads it (libavformat's mov demuxer). */
export interface Mp4Header {
  /** The movie header's duration (mvhd), in seconds rounded to the microsecond: ffprobe's format duration. */
  seconds: number;
  /** The first video track: its sample entry's size, the rotation its track header's matrix gives (0, 90, 180, 270). */
  video: {
    codec: string;
    width: number;
    height: number;
    rotation: number;
    frameRate: number;
    constant: boolean;
  } | null;
  /** The first audio track's sample entry type, as ffprobe names it. */
  audioCodec: string | null;
}

/** The sample entry types our transcode writes, by ffprobe's codec names. */
const CODEC: Record<string, string> = { avc1: 'h264', mp4a: 'aac' };

interface Box {
  type: string;
  /** Start of the payload and end of the box, in the buffer. */
  start: number;
  end: number;
}

function* boxes(b: Buffer, from: number, to: number): Generator<Box> {
  let at = from;
  while (at + 8 <= to) {
    let size = b.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return;
      size = Number(b.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) return;
    yield { type: b.toString('latin1', at + 4, at + 8), start: at + header, end: at + size };
    at += size;
  }
}

const child = (b: Buffer, box: Box | undefined, type: string) =>
  box ? [...boxes(b, box.start, box.end)].find((c) => c.type === type) : undefined;

/**
 * Reads the `moov` of an MP4 this service wrote (faststart: it comes before the media data) for what the stored
 * video's probe gave: the length, the video's size and rotation, the codecs. A transcode's output is known without
 * a second ffprobe (a process start of about 0.1 s of CPU). Anything it cannot read throws: the caller fails the
 * conversion. `maxMoovBytes` bounds what is read.
 */
export async function readMp4Header(path: string, maxMoovBytes = 64 * 1024 * 1024): Promise<Mp4Header> {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    const head = Buffer.alloc(16);
    let at = 0;
    let moov: Buffer | undefined;
    while (at + 8 <= size && !moov) {
      const { bytesRead } = await fh.read(head, 0, 16, at);
      if (bytesRead < 8) break;
      let boxSize = head.readUInt32BE(0);
      if (boxSize === 1 && bytesRead >= 16) boxSize = Number(head.readBigUInt64BE(8));
      else if (boxSize === 0) boxSize = size - at;
      if (boxSize < 8) break;
      if (head.toString('latin1', 4, 8) === 'moov') {
        if (boxSize > maxMoovBytes || at + boxSize > size) throw new Error('moov too large or cut short');
        moov = Buffer.alloc(boxSize);
        await fh.read(moov, 0, boxSize, at);
      }
      at += boxSize;
    }
    if (!moov) throw new Error('no moov box');
    return parseMoov(moov);
  } finally {
    await fh.close();
  }
}

function parseMoov(b: Buffer): Mp4Header {
  const [moov] = [...boxes(b, 0, b.length)];
  if (!moov) throw new Error('no moov box');
  const mvhd = child(b, moov, 'mvhd');
  if (!mvhd) throw new Error('no mvhd box');
  const v1 = b[mvhd.start] === 1;
  const timescale = b.readUInt32BE(mvhd.start + (v1 ? 20 : 12));
  const duration = v1 ? Number(b.readBigUInt64BE(mvhd.start + 24)) : b.readUInt32BE(mvhd.start + 16);
  if (!(timescale > 0)) throw new Error('no movie timescale');
  // av_rescale(duration, 1e6, timescale): to the nearest microsecond, as ffprobe prints it (%f)
  const seconds = Number((Math.round((duration * 1e6) / timescale) / 1e6).toFixed(6));
  let video: Mp4Header['video'] = null;
  let audioCodec: string | null = null;
  for (const trak of boxes(b, moov.start, moov.end)) {
    if (trak.type !== 'trak') continue;
    const mdia = child(b, trak, 'mdia');
    const hdlr = child(b, mdia, 'hdlr');
    const handler = hdlr ? b.toString('latin1', hdlr.start + 8, hdlr.start + 12) : '';
    const stbl = child(b, child(b, mdia, 'minf'), 'stbl');
    // stsd: version and flags, entry count, then the first sample entry
    const stsd = child(b, stbl, 'stsd');
    const entry = stsd ? boxes(b, stsd.start + 8, stsd.end).next().value : undefined;
    if (!entry) continue;
    const codec = CODEC[entry.type] ?? entry.type;
    if (handler === 'vide' && !video) {
      // visual sample entry: 6 reserved, data reference index, 16 of pre-defined and reserved, then width, height
      const width = b.readUInt16BE(entry.start + 24);
      const height = b.readUInt16BE(entry.start + 26);
      const tkhd = child(b, trak, 'tkhd');
      let rotation = 0;
      if (tkhd) {
        const m = tkhd.start + (b[tkhd.start] === 1 ? 52 : 40);
        // the matrix's a and b (16.16): the angle libavutil's av_display_rotation_get gives, to a quarter turn
        const [ma, mb] = [b.readInt32BE(m), b.readInt32BE(m + 4)];
        rotation = (((Math.round((Math.atan2(mb, ma) * 180) / Math.PI / 90) * 90) % 360) + 360) % 360;
      }
      const mdhd = child(b, mdia, 'mdhd');
      const stts = child(b, stbl, 'stts');
      let frameRate = 0;
      let constant = true;
      if (mdhd && stts) {
        const mv1 = b[mdhd.start] === 1;
        const ts = b.readUInt32BE(mdhd.start + (mv1 ? 20 : 12));
        const n = b.readUInt32BE(stts.start + 4);
        let samples = 0;
        let ticks = 0;
        const deltas = new Set<number>();
        for (let i = 0; i < n; i++) {
          const count = b.readUInt32BE(stts.start + 8 + i * 8);
          const delta = b.readUInt32BE(stts.start + 12 + i * 8);
          samples += count;
          ticks += count * delta;
          // the last sample's own delta (the muxer's guess) does not make a rate variable
          if (i < n - 1 || count > 1) deltas.add(delta);
        }
        frameRate = ticks > 0 ? (samples * ts) / ticks : 0;
        constant = deltas.size <= 1;
      }
      video = { codec, width, height, rotation, frameRate, constant };
    } else if (handler === 'soun' && audioCodec === null) audioCodec = codec;
  }
  return { seconds, video, audioCodec };
}
