/** A byte range of a stored object, inclusive, as HTTP states it. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Parses a Range header against the object's size: one range (`bytes=a-b`, `bytes=a-`, `bytes=-n`), clipped to the
 * end. undefined: no usable Range (absent, several ranges, another unit), so the whole object is sent;
 * 'unsatisfiable': a range that starts past the end (416). Shared by file-conversion's video route and the gateway's,
 * which must answer the same ranges the same way.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
