/**
 * A second look at a page image the display could not draw: the HTTP status of its address (403, 404, 200 for bytes
 * that did not decode...), or null when nothing answered (offline, refused connection).
 */
export async function imageStatusOf(src: string): Promise<number | null> {
  try {
    const res = await fetch(src, { cache: 'no-store' });
    void res.body?.cancel();
    return res.status;
  } catch {
    return null;
  }
}
