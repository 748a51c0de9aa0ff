import { randomUUID } from 'node:crypto';
import type { CopyrightInfo } from '@pagecast/contracts';
import {
  type Clock,
  createBatchLoader,
  createWriteLocks,
  isDuplicateKeyError,
  LRUCache,
  type Outbox,
} from '@pagecast/service-kit';
import type { QueryFilter, UpdateQuery } from 'mongoose';
import type { CopyrightAnalysis } from '../domain';
import type { AuthorProfileDoc, CopyrightInfoDoc, FileDoc, Models, PageDoc } from './models';
import { removeFileFromPlaylists } from './playlists';

/**
 * Files, their pages, licences, copyright records and the points entries (for monthly sums). Records are stamped
 * with the service's clock; whether a licence is live is asked at the caller's time (the one its access rule uses).
 */
export function createFilesRepo(models: Models, clock: Clock) {
  const { files, pages, licences, copyrightInfo, copyrightChecks, authorProfiles, pointEntries } = models;
  const activeLicenceFilter = (now: Date) => ({ expiresAt: { $gt: now } });
  type Showing = Pick<PageDoc, 'fileId' | 'ownerId'>;
  // Which files show an image, asked once per image check: a playlist pushed to many screens makes a burst of checks
  // for the same few images, read together in one query per round trip (the kit's batch loader).
  const showing = createBatchLoader<string, Showing[]>(async (keys) => {
    const docs = await pages
      .find({ keys: { $in: keys } })
      .select({ fileId: 1, ownerId: 1, keys: 1 })
      .lean<Array<Showing & { keys: string[] }>>();
    const found = new Map(keys.map((k) => [k, [] as Showing[]]));
    for (const d of docs) for (const k of d.keys) found.get(k)?.push({ fileId: d.fileId, ownerId: d.ownerId });
    return found;
  });

  // The pages of converted files, by file and its version (updatedAt): the query scans on FerretDB (80 ms over 477
  // pages), and a playlist pushed to many screens asks for the same few files' pages again and again. Every change of
  // a converted file's pages also changes the file (its duration is set on the pages first, then on the file), and
  // the file is read afresh on every request, so a stale list is never served for a newer version.
  const finishedPages = new LRUCache<string, { version: number; pages: PageDoc[] }>({ max: 500 });
  // A file document has several writers: its member (title, duration, publishing) and the conversion (progress,
  // status, the video's clip), at the same time while a file converts. On FerretDB two updates of different fields
  // of one document can undo each other (docs/platform.md), so every write of a file takes the file's lock.
  const locks = createWriteLocks(files.db, 'file_locks');
  const updateWhere = (id: string, filter: QueryFilter<FileDoc>, update: UpdateQuery<FileDoc>) =>
    locks.withLock(id, () => files.updateOne({ ...filter, _id: id }, update));
  const findAndUpdateWhere = (id: string, filter: QueryFilter<FileDoc>, update: UpdateQuery<FileDoc>) =>
    locks.withLock(id, () =>
      files.findOneAndUpdate({ ...filter, _id: id }, update, { returnDocument: 'after' }).lean<FileDoc>(),
    );

  return {
    async create(doc: FileDoc): Promise<void> {
      await files.create(doc);
    },
    findById: (id: string) => files.findById(id).lean<FileDoc>(),
    findOwned: (id: string, userId: string) => files.findOne({ _id: id, userId }).lean<FileDoc>(),
    listByOwner: (userId: string, limit?: number) => {
      const q = files.find({ userId }).sort({ createdAt: -1, _id: 1 });
      if (limit) q.limit(limit);
      return q.lean<FileDoc[]>();
    },
    listByIds: (ids: string[]) => files.find({ _id: { $in: ids } }).lean<FileDoc[]>(),
    countByOwner: (userId: string) => files.countDocuments({ userId }),
    /** Applies `set` to the caller's file; null when it is not theirs (or gone). */
    updateOwned: (id: string, userId: string, set: Partial<FileDoc>) =>
      findAndUpdateWhere(id, { userId }, { $set: { ...set, updatedAt: clock.now() } }),
    update: (id: string, set: Record<string, unknown>) =>
      findAndUpdateWhere(id, {}, { $set: { ...set, updatedAt: clock.now() } }),
    /** An update of one file when it still matches `filter` (the file's lock held: see above). */
    updateWhere,
    /** The same, answering the file after it (null when it did not match). */
    findAndUpdateWhere,
    deleteFileDoc: (id: string) =>
      locks.withLock(id, async () => (await files.deleteOne({ _id: id })).deletedCount === 1),

    // --- pages
    listPages: (fileId: string) => pages.find({ fileId }).sort({ pageNumber: 1 }).lean<PageDoc[]>(),
    /** The pages of a file as the player lists them (no text); remembered for a converted file's version. */
    async playerPages(file: FileDoc): Promise<PageDoc[]> {
      const read = () => pages.find({ fileId: file._id }).select({ text: 0 }).sort({ pageNumber: 1 }).lean<PageDoc[]>();
      if (file.status === 'processing' || !file.conversion?.finishedAt) return read();
      const version = new Date(file.updatedAt).getTime();
      const hit = finishedPages.get(file._id);
      if (hit?.version === version) return hit.pages;
      const list = await read();
      finishedPages.set(file._id, { version, pages: list });
      return list;
    },
    countPages: (fileId: string) => pages.countDocuments({ fileId }),
    /** Inserts or replaces the page with this number: a re-run of a job overwrites what an earlier run stored. */
    async upsertPage(page: Omit<PageDoc, '_id' | 'createdAt'>): Promise<void> {
      await pages.updateOne(
        { fileId: page.fileId, pageNumber: page.pageNumber },
        { $set: page, $setOnInsert: { _id: randomUUID(), createdAt: clock.now() } },
        { upsert: true },
      );
    },
    setPagesDuration: (fileId: string, displayDuration: number) =>
      pages.updateMany({ fileId }, { $set: { displayDuration } }),
    /** Removes a file's pages (or those above `keepUpTo`); returns the object keys they used. */
    async deletePages(fileId: string, keepUpTo = 0): Promise<string[]> {
      const filter = { fileId, pageNumber: { $gt: keepUpTo } };
      const gone = await pages.find(filter).select({ keys: 1 }).lean<Pick<PageDoc, 'keys'>[]>();
      await pages.deleteMany(filter);
      return [...new Set(gone.flatMap((p) => p.keys))];
    },
    /** Of these keys, those some page still shows (another file with the same content). */
    async keysInUse(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const used = await pages
        .find({ keys: { $in: keys } })
        .select({ keys: 1 })
        .lean<Pick<PageDoc, 'keys'>[]>();
      return new Set(used.flatMap((p) => p.keys).filter((k) => keys.includes(k)));
    },
    /** The files (and their owners) that show an object: the media check's one indexed query. */
    pagesShowing: async (key: string): Promise<Showing[]> => (await showing.load(key)) ?? [],

    // --- licences (read model of marketplace purchases)
    activeLicencesOf: (buyerId: string, now: Date) =>
      licences
        .find({ buyerId, ...activeLicenceFilter(now) })
        .select({ fileId: 1, expiresAt: 1 })
        .lean<{ fileId: string; expiresAt: Date }[]>(),
    async activePurchaserCount(fileId: string, now: Date): Promise<number> {
      const buyers = await licences.distinct('buyerId', { fileId, ...activeLicenceFilter(now) });
      return buyers.length;
    },
    /** Once per purchase: a redelivered purchase never moves an expiry that already happened. */
    async recordLicence(l: {
      purchaseId: string;
      buyerId: string;
      fileId: string;
      sellerId: string;
      price: number;
      sellerNet: number;
      expiresAt: Date;
    }) {
      await licences.updateOne(
        { _id: l.purchaseId },
        {
          $setOnInsert: {
            buyerId: l.buyerId,
            fileId: l.fileId,
            sellerId: l.sellerId,
            price: l.price,
            sellerNet: l.sellerNet,
            expiresAt: l.expiresAt,
            createdAt: clock.now(),
          },
        },
        { upsert: true },
      );
    },
    /**
     * The licence ends at `at`, or now if that is earlier than `at` (the marketplace's clock decides expiry; a
     * test moves it forward, and the end must hold here at once).
     */
    async expireLicence(purchaseId: string, at: Date, now: Date) {
      const end = at.getTime() < now.getTime() ? at : now;
      await licences.updateOne({ _id: purchaseId, expiresAt: { $gt: end } }, { $set: { expiresAt: end } });
    },
    /** Copies sold (licences, all time) and points earned per file, for the seller's file list. */
    async salesOf(fileIds: string[]): Promise<Map<string, { copiesSold: number; pointsEarned: number }>> {
      const out = new Map<string, { copiesSold: number; pointsEarned: number }>();
      if (!fileIds.length) return out;
      const rows = await licences
        .find({ fileId: { $in: fileIds } })
        .select({ fileId: 1, sellerNet: 1 })
        .lean<{ fileId: string; sellerNet?: number }[]>();
      for (const r of rows) {
        const s = out.get(r.fileId) ?? { copiesSold: 0, pointsEarned: 0 };
        s.copiesSold++;
        s.pointsEarned += r.sellerNet ?? 0;
        out.set(r.fileId, s);
      }
      return out;
    },
    /** The buyer's active licences for these files (none asked: none read). */
    activeLicencesFor: async (buyerId: string, fileIds: string[], now: Date) =>
      fileIds.length === 0
        ? []
        : licences
            .find({ buyerId, fileId: { $in: fileIds }, ...activeLicenceFilter(now) })
            .select({ fileId: 1, expiresAt: 1 })
            .lean<{ fileId: string; expiresAt: Date }[]>(),

    // --- copyright
    getCopyrightInfo: (fileId: string) => copyrightInfo.findOne({ fileId }).lean<CopyrightInfoDoc>(),
    copyrightInfoOf: (fileIds: string[]) =>
      fileIds.length
        ? copyrightInfo.find({ fileId: { $in: fileIds } }).lean<CopyrightInfoDoc[]>()
        : Promise.resolve([]),
    async setCopyrightInfo(fileId: string, info: CopyrightInfo): Promise<void> {
      await copyrightInfo.updateOne(
        { fileId },
        {
          $set: {
            authorName: info.authorName,
            companyName: info.companyName || null,
            copyrightText: info.copyrightText || null,
          },
          $setOnInsert: { _id: randomUUID(), createdAt: clock.now() },
        },
        { upsert: true },
      );
    },
    defaultAuthorProfile: (userId: string) =>
      authorProfiles.findOne({ userId, isDefault: true }).lean<AuthorProfileDoc>(),
    /** The copyright info of the member's last sale becomes the default the publish form offers. */
    async setDefaultAuthorProfile(userId: string, info: CopyrightInfo): Promise<void> {
      const set = {
        name: info.authorName,
        authorName: info.authorName,
        companyName: info.companyName || null,
        copyrightText: info.copyrightText || null,
        updatedAt: clock.now(),
      };
      const res = await authorProfiles.updateOne({ userId, isDefault: true }, { $set: set });
      if (res.matchedCount === 0) {
        await authorProfiles.create({ _id: randomUUID(), userId, isDefault: true, createdAt: clock.now(), ...set });
      }
    },
    async recordTextAnalysis(fileId: string, analysis: CopyrightAnalysis, details: string): Promise<void> {
      await copyrightChecks.updateOne(
        { fileId, checkType: 'text_analysis' },
        {
          $set: {
            status: analysis.riskLevel === 'high' ? 'failed' : 'passed',
            riskLevel: analysis.riskLevel,
            detectedPatterns: analysis.detectedPatterns,
            details,
          },
          $setOnInsert: { _id: randomUUID(), createdAt: clock.now(), userConfirmed: false },
        },
        { upsert: true },
      );
    },
    /** The member confirmed at publish that they hold the rights. */
    async recordUserConfirmation(fileId: string): Promise<void> {
      const analysis = await copyrightChecks.findOne({ fileId, checkType: 'text_analysis' }).lean();
      await copyrightChecks.updateOne(
        { fileId, checkType: 'user_confirmation' },
        {
          $set: {
            status: 'passed',
            userConfirmed: true,
            riskLevel: analysis?.riskLevel ?? 'low',
            detectedPatterns: analysis?.detectedPatterns ?? [],
            details: 'confirmed by the member when publishing',
          },
          $setOnInsert: { _id: randomUUID(), createdAt: clock.now() },
        },
        { upsert: true },
      );
    },
    copyrightChecksOf: (fileId: string) => copyrightChecks.find({ fileId }).lean(),
    async deleteCopyright(fileId: string): Promise<void> {
      await Promise.all([copyrightInfo.deleteMany({ fileId }), copyrightChecks.deleteMany({ fileId })]);
    },

    // --- playlists hold files: a deleted file leaves them
    // (items are embedded in their playlist: data/playlists.ts owns that write and announces the changed playlists)
    deletePlaylistItemsOf: (fileId: string, outbox?: Outbox) =>
      removeFileFromPlaylists(files.db, clock, fileId, outbox),

    // --- points entries (billing.points.changed.v1), for the dashboard's monthly sums
    async recordPointEntry(e: {
      entryId: string;
      userId: string;
      amount: number;
      type: 'earn' | 'spend' | 'purchase' | null;
      occurredAt: Date;
      sale?: boolean;
    }) {
      try {
        await pointEntries.create({
          _id: e.entryId,
          userId: e.userId,
          amount: e.amount,
          type: e.type,
          occurredAt: e.occurredAt,
          sale: e.sale === true,
        });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    },
    /**
     * The dashboard's sums since `since`: `earned` = earnings from sales (the entries billing marks as a sale's
     * proceeds; the registration and migration bonuses are earned, not sold), `spent` = every spend.
     */
    async monthlySums(userId: string, since: Date): Promise<{ earned: number; spent: number }> {
      const rows = await pointEntries
        .find({ userId, occurredAt: { $gte: since } })
        .select({ amount: 1, type: 1, sale: 1 })
        .lean();
      let earned = 0;
      let spent = 0;
      for (const r of rows) {
        if (r.type === 'earn' && r.sale === true) earned += Math.abs(r.amount);
        else if (r.type === 'spend') spent += Math.abs(r.amount);
      }
      return { earned, spent };
    },
  };
}
export type FilesRepo = ReturnType<typeof createFilesRepo>;
