import type { ListingDoc, Models } from './models';

export interface ListingSearch {
  /** folded title fragment, matched literally (a substring, so regex characters mean themselves) */
  titleFragment?: string;
  tags: string[];
  skip: number;
  limit: number;
}

/** What search keeps of a listing in memory. */
export type ListingRow = Pick<
  ListingDoc,
  | '_id'
  | 'sellerId'
  | 'title'
  | 'titleFolded'
  | 'publishPrice'
  | 'pageCount'
  | 'displayDuration'
  | 'tags'
  | 'updatedAt'
  | 'copyright'
  | 'kind'
  | 'videoSeconds'
>;

const newestFirst = (a: ListingRow, b: ListingRow) =>
  b.updatedAt.getTime() - a.updatedAt.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/**
 * The listed files in memory, newest first, for search. FerretDB on SQLite neither sorts nor filters a regex in the
 * index: a page of 10,000 listings took 1.5–7 s there (measured), against microseconds here. The database stays the
 * truth: this process changes the index as it applies each event, and reloads it when another instance records a
 * change (a one-document marker, checked every `pollMs`).
 */
export function createListingIndex({ listings, meta }: Models, pollMs = 1000) {
  let rows: ListingRow[] | undefined;
  let seen: number | undefined;
  let loading: Promise<void> | undefined;
  /** changes made while a reload runs, applied on top of what it read */
  let during: Map<string, ListingRow | null> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const put = (list: ListingRow[], fileId: string, row: ListingRow | null) => {
    const at = list.findIndex((r) => r._id === fileId);
    if (at >= 0) list.splice(at, 1);
    if (!row) return;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (newestFirst(list[mid] as ListingRow, row) <= 0) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, row);
  };

  const load = () => {
    loading ??= (async () => {
      during = new Map();
      const stamp = (await meta.findById('listings').lean<{ at: number }>())?.at ?? 0;
      const fresh = await listings
        .find({ listed: true })
        .select({ listed: 0, deleted: 0, version: 0 })
        .lean<ListingRow[]>();
      fresh.sort(newestFirst);
      for (const [fileId, row] of during) put(fresh, fileId, row);
      rows = fresh;
      seen = stamp;
    })().finally(() => {
      loading = undefined;
      during = undefined;
    });
    return loading;
  };

  let flushing: Promise<void> | undefined;
  const flush = async () => {
    const before = (await meta.findById('listings').lean<{ at: number }>())?.at ?? 0;
    const at = Math.max(Date.now(), before + 1);
    await meta.updateOne({ _id: 'listings' }, { $set: { at } }, { upsert: true });
    // our own changes need no reload, unless another instance's change came in before them
    if (!loading && before === seen) seen = at;
  };

  const poll = async () => {
    const stamp = (await meta.findById('listings').lean<{ at: number }>())?.at ?? 0;
    if (rows && stamp !== seen && !loading) await load();
  };

  return {
    /** After this process stored a change: the index follows at once, other instances at their next poll. */
    async changed(fileId: string, row: ListingDoc | null): Promise<void> {
      const value = row?.listed ? row : null;
      during?.set(fileId, value);
      if (rows) put(rows, fileId, value);
      // The marker is written once for a burst of changes (a replay of the stream applies thousands).
      flushing ??= new Promise<void>((done) => setTimeout(done, 100)).then(flush).finally(() => {
        flushing = undefined;
      });
    },
    async search(s: ListingSearch): Promise<{ rows: ListingRow[]; total: number }> {
      if (!rows) await load();
      const list = rows ?? [];
      const { titleFragment: q, tags } = s;
      const hits =
        q || tags.length
          ? list.filter((r) => (!q || r.titleFolded.includes(q)) && tags.every((t) => r.tags.includes(t)))
          : list;
      return { rows: hits.slice(s.skip, s.skip + s.limit), total: hits.length };
    },
    start() {
      timer ??= setInterval(() => void poll().catch(() => {}), pollMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await flushing?.catch(() => {});
    },
  };
}
export type ListingIndex = ReturnType<typeof createListingIndex>;
