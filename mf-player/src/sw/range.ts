// A kept video answered in the byte ranges a <video> element asks for, by the rules the server's own video route
// follows (file-conversion's parseRange): one range, clamped to the end; a start past the end, a reversed range or
// `-0` is 416 with `Content-Range: bytes */<size>`; several ranges or another unit are answered whole (200).
// Not workbox-range-requests: its 7.x answers a start past the end or a reversed range with an empty 206 and an
// impossible Content-Range, refuses an end past the size (HTTP clamps it) and omits the size from its 416.
// The kept body is a Blob backed by the cache on disk: slicing it reads nothing into memory.

export type ByteRange = { start: number; end: number };

/** The range asked for (end inclusive), 'unsatisfiable' (416), or undefined: no usable Range, the whole body. */
export function parseByteRange(
  header: string | null | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/i.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** The kept whole answer `whole` as the answer to `request`: itself without a usable Range, else 206 or 416. */
export async function rangeResponse(request: Request, whole: Response): Promise<Response> {
  const header = request.headers.get('range');
  if (!header) return whole;
  const body = await whole.blob();
  const range = parseByteRange(header, body.size);
  const headers = new Headers(whole.headers);
  headers.set('Accept-Ranges', 'bytes');
  if (range === undefined) {
    headers.set('Content-Length', String(body.size));
    return new Response(body, { status: 200, statusText: 'OK', headers });
  }
  if (range === 'unsatisfiable') {
    return new Response(null, {
      status: 416,
      statusText: 'Range Not Satisfiable',
      headers: { 'Content-Range': `bytes */${body.size}` },
    });
  }
  headers.set('Content-Length', String(range.end - range.start + 1));
  headers.set('Content-Range', `bytes ${range.start}-${range.end}/${body.size}`);
  return new Response(body.slice(range.start, range.end + 1), { status: 206, statusText: 'Partial Content', headers });
}
