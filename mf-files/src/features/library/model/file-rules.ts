// The library's rules as plain functions (spec points 4, 5 and 9), so they can be tested without a browser.
import {
  constants,
  type FileSummary,
  normalizeTags,
  type PricePlan,
  pricePlanFor,
  pricePlans,
} from '@pagecast/contracts';

/** Upload display time: the input's number, or 30 when it is not a number (the schema then checks 1–60). */
export function parseUploadDuration(raw: string | number): number {
  const value = typeof raw === 'number' ? raw : raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isNaN(value) ? constants.defaultDisplayDuration : value;
}

/** Inline duration edit: an integer 1–300, else null ('表示時間は1〜300秒の間で入力してください'). */
export function parseInlineDuration(raw: string): number | null {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) return null;
  const value = Number(text);
  return value >= constants.editDuration.min && value <= constants.editDuration.max ? value : null;
}

export type TagsResult =
  | { ok: true; tags: string[] }
  | { ok: false; error: 'validation.tagLength' | 'validation.tagsMax20' };

/** The tag editor's text (comma-separated): trimmed, lowercased, deduplicated, empty ones dropped, then checked. */
export function parseTagsInput(text: string): TagsResult {
  const tags = normalizeTags(text.split(/[,、，\n]/));
  if (tags.some((tag) => tag.length > constants.tags.maxLength)) return { ok: false, error: 'validation.tagLength' };
  if (tags.length > constants.tags.maxCount) return { ok: false, error: 'validation.tagsMax20' };
  return { ok: true, tags };
}

export interface PlanFigures {
  plan: PricePlan;
  price: string;
  fee: string;
  net: string;
}

/** A price plan's price, fee and net as the interface shows them (grouped digits in the reader's language). */
export function planFigures(plan: PricePlan, locale: string): PlanFigures {
  const format = (n: number) => n.toLocaleString(locale);
  return { plan, price: format(plan.value), fee: format(plan.fee), net: format(plan.net) };
}

export function allPlanFigures(locale: string): PlanFigures[] {
  return pricePlans.map((plan) => planFigures(plan, locale));
}

/** The price to send: only one of the known plans (spec point 5), else nothing. */
export function knownPlanPrice(price: number | null | undefined): PricePlan['value'] | undefined {
  return price == null ? undefined : pricePlanFor(price)?.value;
}

export type StatusLabel = 'published' | 'processing' | 'disabled' | 'private';

/** The card's status: published takes precedence, then processing, disabled, otherwise private. */
export function statusLabel(file: Pick<FileSummary, 'isPublished' | 'status'>): StatusLabel {
  if (file.isPublished) return 'published';
  if (file.status === 'processing') return 'processing';
  if (file.status === 'disabled') return 'disabled';
  return 'private';
}

/** Where an uploaded file's conversion stands, as the upload dialog tells it: unknown until the first read. */
export type ConversionOutcome = 'converting' | 'done' | 'failed';

export function conversionOutcome(file: Pick<FileSummary, 'status'> | undefined): ConversionOutcome {
  if (!file || file.status === 'processing') return 'converting';
  return file.status === 'disabled' ? 'failed' : 'done';
}

/** Publish settings are offered only for a converted, usable file. */
export function canEditPublishSettings(file: Pick<FileSummary, 'status'>): boolean {
  return file.status !== 'processing' && file.status !== 'disabled';
}

/** Copyright info for the publish call: sent only when one of its parts is filled. */
export function copyrightToSend(info: {
  authorName: string;
  companyName: string;
  copyrightText: string;
}): { authorName: string; companyName?: string; copyrightText?: string } | undefined {
  const authorName = info.authorName.trim();
  const companyName = info.companyName.trim();
  const copyrightText = info.copyrightText.trim();
  if (!authorName && !companyName && !copyrightText) return undefined;
  return {
    authorName,
    ...(companyName ? { companyName } : {}),
    ...(copyrightText ? { copyrightText } : {}),
  };
}

/**
 * Conversion progress of a file in percent, or null when the total is not known yet: a video's transcode as ffmpeg
 * reports it, a document's pages stored.
 */
export function conversionPercent(
  file: Pick<FileSummary, 'pageCount' | 'pagesReady'> & Partial<Pick<FileSummary, 'transcodePercent'>>,
): number | null {
  if (typeof file.transcodePercent === 'number') return file.transcodePercent;
  if (!file.pageCount) return null;
  return Math.min(100, Math.round((file.pagesReady / file.pageCount) * 100));
}

/** A video's length as the player shows it: m:ss, or h:mm:ss from an hour. */
export function formatLength(ms: number): string {
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
