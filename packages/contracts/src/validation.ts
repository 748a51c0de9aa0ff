import { z } from 'zod';
import { constants, displayModes, fileStatuses, membershipTiers, pointPackages } from './constants';

/**
 * zod messages in the schemas are these keys; the Japanese text is the spec's (points 5 and 8) where it has one.
 * Front ends translate the key (i18n catalogues) and fall back to this text; services answer it in `issues`.
 */
export const validationMessagesJa: Record<string, string> = {
  'validation.invalid': '入力内容を確認してください',
  'validation.required': '必須項目です',
  'validation.idInvalid': '無効なIDです',
  'validation.emailInvalid': '有効なメールアドレスを入力してください',
  'validation.passwordRequired': 'パスワードを入力してください',
  'validation.passwordMin12': 'パスワードは12文字以上である必要があります',
  'validation.passwordMax128': 'パスワードは128文字以下である必要があります',
  'validation.passwordsDoNotMatch': 'パスワードが一致しません',
  'validation.currentPasswordRequired': '現在のパスワードを入力してください',
  'validation.newPasswordMin12': '新しいパスワードは12文字以上である必要があります',
  'validation.newPasswordsDoNotMatch': '新しいパスワードが一致しません',
  'validation.firstNameRequired': '名前を入力してください',
  'validation.lastNameRequired': '姓を入力してください',
  'validation.nameTooLong': '名前は100文字以下で入力してください',
  'validation.urlInvalid': '有効なURLを入力してください',
  'validation.tokenRequired': '認証トークンが必要です',
  'validation.resetTokenRequired': 'パスワードリセットトークンが見つかりません',
  'validation.contactNameRequired': 'お名前を入力してください',
  'validation.subjectRequired': '件名を入力してください',
  'validation.subjectTooLong': '件名は200文字以下で入力してください',
  'validation.messageMin10': 'メッセージは10文字以上で入力してください',
  'validation.messageTooLong': 'メッセージは5000文字以下で入力してください',
  'validation.fileAndTitleRequired': 'ファイルとタイトルは必須です',
  'validation.titleRequired': 'タイトルを入力してください',
  'validation.titleTooLong': 'タイトルは200文字以下で入力してください',
  'validation.fileTypeUnsupported':
    'PDF、PowerPoint (.pptx)、Word (.docx) ファイルと画像（JPEG、PNG、WebP、GIF、HEIC、AVIF）、動画（MP4、MOV、WebM、MKV、AVI）のみアップロード可能です',
  'validation.fileTooLarge': 'ファイルサイズは10MB以下にしてください',
  'validation.mediaTooLarge': '写真と動画は2GB以下にしてください',
  'validation.authorNameRequired': '販売する場合は著作者名が必要です',
  'validation.copyrightTooLong': '著作権情報が長すぎます',
  'validation.pricePlanRequired': '公開する場合は価格プランを選択してください',
  'validation.pricePlanInvalid': '価格プランは3000、5000、10000ポイントのいずれかを選択してください',
  'validation.durationRange60': '表示時間は1〜60秒の間で入力してください',
  'validation.durationRange300': '表示時間は1〜300秒の間で入力してください',
  'validation.displayModeInvalid': '表示モードは横長・縦長・全画面のいずれかを選択してください',
  'validation.tagInvalid': 'タグは文字列で入力してください',
  'validation.tagLength': 'タグは1〜30文字で入力してください',
  'validation.tagsMax20': 'タグは20個まで設定できます',
  'validation.booleanInvalid': 'true または false を指定してください',
  'validation.jsonInvalid': 'JSON の形式が正しくありません',
  'validation.playlistNameRequired': 'プレイリスト名を入力してください',
  'validation.playlistNameTooLong': 'プレイリスト名は100文字以下で入力してください',
  // screens
  'validation.pairingCodeInvalid': 'ペアリングコードは6文字の英数字です',
  'validation.timeZoneInvalid': 'タイムゾーンが正しくありません',
  'validation.sinceInvalid': '無効な時刻です',
  'validation.tooManyWatches': '一度に監視できるIDの数を超えています',
  'validation.timeOfDayInvalid': '時刻は HH:MM で入力してください',
  'validation.rotationInvalid': '回転は 0・90・180・270 度から選んでください',
  'validation.openingSpanEmpty': '開始時刻と終了時刻は別の時刻にしてください',
  'validation.openingHoursTooMany': '営業時間の設定が多すぎます（最大 28 件）',
  'validation.alertAfterInvalid': '1〜1440 の整数（分）で入力してください',
  'validation.screenNameRequired': 'スクリーン名を入力してください',
  'validation.screenNameTooLong': 'スクリーン名は100文字以下で入力してください',
  'validation.groupNameRequired': '名前を入力してください',
  'validation.groupNameTooLong': '名前は60文字以下で入力してください',
  'validation.takeoverTitleRequired': '見出しを入力してください',
  'validation.takeoverTitleTooLong': '見出しは80文字以下で入力してください',
  'validation.takeoverBodyTooLong': '本文は500文字以下で入力してください',
  'validation.descriptionTooLong': '説明は500文字以下で入力してください',
  'validation.playlistFilesRequired': 'ファイルを1つ以上選択してください',
  'validation.positionInvalid': '位置は0以上の整数で指定してください',
  'validation.playlistLoopsInvalid': '繰り返し回数は1〜99の整数で指定してください',
  'validation.reachedSecondInvalid': '動画の再生位置（秒）は0以上で指定してください',
  'validation.searchTooLong': '検索語は100文字以下で入力してください',
  'validation.pageInvalid': 'ページは1以上の整数で指定してください',
  'validation.limitRange': '表示件数は1〜24の間で指定してください',
  'validation.tierInvalid': '無効なプランです',
  'validation.languageInvalid': '言語は日本語、英語、フランス語、イタリア語のいずれかを選択してください',
  'validation.pointPackageInvalid': 'ポイントパッケージは1000、3000、5000、10000のいずれかを選択してください',
  'validation.paymentIntentRequired': '決済IDが必要です',
  'validation.paymentIdInvalid': '決済IDが正しくありません',
  'validation.placeInvalid': '地域の指定が正しくありません',
  'validation.roleInvalid': '役割は管理者、編集者、承認者、緊急放送担当、閲覧者のいずれかを選択してください',
  'validation.reasonRequired': '却下の理由を入力してください',
  'validation.reasonTooLong': '理由は500文字以下で入力してください',
};

/** Japanese text of a message key; anything that is not a known key gets the generic text. */
export function validationMessageJa(key: string): string {
  return validationMessagesJa[key] ?? validationMessagesJa['validation.invalid'] ?? key;
}

// Building blocks shared by the API schemas. Every message is a key of validationMessagesJa.

export const Id = z
  .string({ error: 'validation.idInvalid' })
  .min(1, 'validation.idInvalid')
  .max(64, 'validation.idInvalid');

export const Email = z
  .string({ error: 'validation.emailInvalid' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'validation.emailInvalid' }).max(254, 'validation.emailInvalid'));

/** A new password: 12 or more characters (spec point 9). */
export const NewPassword = z
  .string({ error: 'validation.passwordMin12' })
  .min(constants.minPasswordLength, 'validation.passwordMin12')
  .max(constants.maxPasswordLength, 'validation.passwordMax128');

/** A password being checked (login): anything non-empty. */
export const PasswordInput = z
  .string({ error: 'validation.passwordRequired' })
  .min(1, 'validation.passwordRequired')
  .max(constants.maxPasswordLength, 'validation.passwordMax128');

export const FirstName = z
  .string({ error: 'validation.firstNameRequired' })
  .trim()
  .min(1, 'validation.firstNameRequired')
  .max(100, 'validation.nameTooLong');
export const LastName = z
  .string({ error: 'validation.lastNameRequired' })
  .trim()
  .min(1, 'validation.lastNameRequired')
  .max(100, 'validation.nameTooLong');

export const MembershipTier = z.enum(membershipTiers, { error: 'validation.tierInvalid' });
export type MembershipTier = z.infer<typeof MembershipTier>;
export const DisplayMode = z.enum(displayModes, { error: 'validation.displayModeInvalid' });
export type DisplayMode = z.infer<typeof DisplayMode>;
export const FileStatus = z.enum(fileStatuses);
export type FileStatus = z.infer<typeof FileStatus>;

export const PublishPrice = z.union([z.literal(3000), z.literal(5000), z.literal(10000)], {
  error: 'validation.pricePlanInvalid',
});
export type PublishPrice = z.infer<typeof PublishPrice>;

export const PointPackageAmount = z.union(
  pointPackages.map((amount) => z.literal(amount)) as [
    z.ZodLiteral<1000>,
    z.ZodLiteral<3000>,
    z.ZodLiteral<5000>,
    z.ZodLiteral<10000>,
  ],
  { error: 'validation.pointPackageInvalid' },
);
export type PointPackageAmount = z.infer<typeof PointPackageAmount>;

/**
 * A card provider's object id (`pi_…`, `pm_…`): letters, digits and underscores after its prefix. Anything else is
 * refused here, before it is put in a provider URL (a fuzzer's control characters reached localstripe and came back
 * as its 500, which billing reported as 503).
 */
export const providerObjectId = (prefix: string) =>
  z
    .string({ error: 'validation.paymentIntentRequired' })
    .min(1, 'validation.paymentIntentRequired')
    .max(255, 'validation.paymentIdInvalid')
    .regex(new RegExp(`^${prefix}[A-Za-z0-9_]+$`), 'validation.paymentIdInvalid');

/** Trim, lowercase, drop empty ones, remove duplicates (first occurrence kept). */
export function normalizeTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().toLowerCase();
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/** Tags of a file: normalised, then each 1–30 characters and at most 20. */
export const Tags = z
  .array(z.string({ error: 'validation.tagInvalid' }), { error: 'validation.tagInvalid' })
  .transform(normalizeTags)
  .pipe(
    z
      .array(z.string().min(1, 'validation.tagLength').max(constants.tags.maxLength, 'validation.tagLength'))
      .max(constants.tags.maxCount, 'validation.tagsMax20'),
  );

/** Display time chosen at upload: integer seconds 1–60. */
export const UploadDisplayDuration = z
  .number({ error: 'validation.durationRange60' })
  .int('validation.durationRange60')
  .min(constants.upload.minDisplayDuration, 'validation.durationRange60')
  .max(constants.upload.maxDisplayDuration, 'validation.durationRange60');

/** Display time set by an edit: integer seconds 1–300. */
export const EditDisplayDuration = z
  .number({ error: 'validation.durationRange300' })
  .int('validation.durationRange300')
  .min(constants.editDuration.min, 'validation.durationRange300')
  .max(constants.editDuration.max, 'validation.durationRange300');

export const Title = z
  .string({ error: 'validation.titleRequired' })
  .trim()
  .min(1, 'validation.titleRequired')
  .max(constants.title.maxLength, 'validation.titleTooLong');

/** ISO-8601 date-time string as sent in responses and events. */
export const IsoDateTime = z.iso.datetime({ offset: true });

/**
 * Empty success answer: for calls whose answer the client does not read, and for calls whose outcome is the whole
 * answer (sent, changed): no sentence, the page words it in the reader's language from its catalogue.
 */
export const OkResponse = z.object({ ok: z.literal(true) });
export type OkResponse = z.infer<typeof OkResponse>;

/** A body the client sends empty or not at all (express 5 leaves req.body undefined then). */
export const EmptyBody = z.object({}).optional();
