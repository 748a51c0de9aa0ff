import { z } from 'zod';

/** Stable error codes. The HTTP status is in `errorStatus`, the default (Japanese) text in `errorMessagesJa`. */
export const ErrorCode = {
  VALIDATION: 'VALIDATION',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'RATE_LIMITED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  INTERNAL: 'INTERNAL',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  // account
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  EMAIL_NOT_VERIFIED: 'EMAIL_NOT_VERIFIED',
  EMAIL_ALREADY_VERIFIED: 'EMAIL_ALREADY_VERIFIED',
  TOKEN_INVALID: 'TOKEN_INVALID',
  WRONG_CURRENT_PASSWORD: 'WRONG_CURRENT_PASSWORD',
  NOT_LOCAL_ACCOUNT: 'NOT_LOCAL_ACCOUNT',
  NOT_MIGRATABLE: 'NOT_MIGRATABLE',
  SESSION_EXPIRED: 'SESSION_EXPIRED',
  // files and playlists
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  FILE_LIMIT_REACHED: 'FILE_LIMIT_REACHED',
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  FILE_TYPE_UNSUPPORTED: 'FILE_TYPE_UNSUPPORTED',
  FILE_REQUIRED: 'FILE_REQUIRED',
  FILE_NOT_READY: 'FILE_NOT_READY',
  CONVERSION_FAILED: 'CONVERSION_FAILED',
  PLAYLIST_NOT_FOUND: 'PLAYLIST_NOT_FOUND',
  PLAYLIST_ITEM_EXISTS: 'PLAYLIST_ITEM_EXISTS',
  PLAYLIST_POSITION_TAKEN: 'PLAYLIST_POSITION_TAKEN',
  // marketplace
  LISTING_NOT_FOUND: 'LISTING_NOT_FOUND',
  FREE_TIER_CANNOT_PURCHASE: 'FREE_TIER_CANNOT_PURCHASE',
  CANNOT_BUY_OWN_FILE: 'CANNOT_BUY_OWN_FILE',
  ALREADY_PURCHASED: 'ALREADY_PURCHASED',
  // billing
  INSUFFICIENT_POINTS: 'INSUFFICIENT_POINTS',
  UPGRADE_NOT_ALLOWED: 'UPGRADE_NOT_ALLOWED',
  DOWNGRADE_NOT_ALLOWED: 'DOWNGRADE_NOT_ALLOWED',
  DOWNGRADE_ALREADY_PENDING: 'DOWNGRADE_ALREADY_PENDING',
  NO_PENDING_DOWNGRADE: 'NO_PENDING_DOWNGRADE',
  PAYMENT_FAILED: 'PAYMENT_FAILED',
  PAYMENT_NOT_CONFIGURED: 'PAYMENT_NOT_CONFIGURED',
  PAYMENT_ALREADY_RECORDED: 'PAYMENT_ALREADY_RECORDED',
  CASH_OUT_DISABLED: 'CASH_OUT_DISABLED',
} as const;
export type ErrorCode = keyof typeof ErrorCode;

export const errorStatus: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  EMAIL_TAKEN: 409,
  INVALID_CREDENTIALS: 401,
  EMAIL_NOT_VERIFIED: 403,
  EMAIL_ALREADY_VERIFIED: 409,
  TOKEN_INVALID: 400,
  WRONG_CURRENT_PASSWORD: 400,
  NOT_LOCAL_ACCOUNT: 403,
  NOT_MIGRATABLE: 409,
  SESSION_EXPIRED: 401,
  FILE_NOT_FOUND: 404,
  FILE_LIMIT_REACHED: 403,
  FILE_TOO_LARGE: 413,
  FILE_TYPE_UNSUPPORTED: 415,
  FILE_REQUIRED: 400,
  FILE_NOT_READY: 409,
  CONVERSION_FAILED: 422,
  PLAYLIST_NOT_FOUND: 404,
  PLAYLIST_ITEM_EXISTS: 409,
  PLAYLIST_POSITION_TAKEN: 409,
  LISTING_NOT_FOUND: 404,
  FREE_TIER_CANNOT_PURCHASE: 403,
  CANNOT_BUY_OWN_FILE: 409,
  ALREADY_PURCHASED: 409,
  INSUFFICIENT_POINTS: 402,
  UPGRADE_NOT_ALLOWED: 409,
  DOWNGRADE_NOT_ALLOWED: 409,
  DOWNGRADE_ALREADY_PENDING: 409,
  NO_PENDING_DOWNGRADE: 409,
  PAYMENT_FAILED: 402,
  PAYMENT_NOT_CONFIGURED: 503,
  PAYMENT_ALREADY_RECORDED: 409,
  CASH_OUT_DISABLED: 403,
};

export const errorMessagesJa: Record<ErrorCode, string> = {
  VALIDATION: '入力内容を確認してください',
  // platform.md: the spec's client looks for "401" and "Unauthorized"
  UNAUTHORIZED: 'Unauthorized',
  FORBIDDEN: 'この操作を行う権限がありません',
  NOT_FOUND: '見つかりません',
  CONFLICT: '他の操作と競合しました。もう一度お試しください',
  RATE_LIMITED: 'リクエストが多すぎます。しばらく後に再度お試しください',
  PAYLOAD_TOO_LARGE: 'リクエストが大きすぎます',
  UNSUPPORTED_MEDIA_TYPE: 'サポートされていない形式です',
  INTERNAL: 'サーバーでエラーが発生しました',
  SERVICE_UNAVAILABLE: 'サービスが一時的に利用できません',
  EMAIL_TAKEN: 'このメールアドレスは既に登録されています',
  INVALID_CREDENTIALS: 'メールアドレスまたはパスワードが正しくありません',
  EMAIL_NOT_VERIFIED: 'メール認証が必要です',
  EMAIL_ALREADY_VERIFIED: 'このメールアドレスは既に認証されています',
  TOKEN_INVALID: 'トークンが無効または期限切れです',
  WRONG_CURRENT_PASSWORD: '現在のパスワードが正しくありません',
  NOT_LOCAL_ACCOUNT: 'この操作はローカルアカウントでのみ利用できます',
  NOT_MIGRATABLE: 'このアカウントは移行済みか、移行の対象ではありません',
  SESSION_EXPIRED: 'セッションの有効期限が切れました。再度ログインしてください',
  FILE_NOT_FOUND: 'このファイルは削除されたか、アクセス権限がありません。',
  FILE_LIMIT_REACHED: '現在のプランで登録できるファイル数の上限に達しました',
  FILE_TOO_LARGE: 'ファイルサイズは10MB以下にしてください',
  FILE_TYPE_UNSUPPORTED: 'PDF、PowerPoint (.pptx)、Word (.docx) ファイルのみアップロード可能です',
  FILE_REQUIRED: 'ファイルとタイトルは必須です',
  FILE_NOT_READY: 'ファイルの変換が完了していないため、この操作はできません',
  CONVERSION_FAILED: 'ファイルの変換に失敗しました',
  PLAYLIST_NOT_FOUND: 'プレイリストが見つかりません',
  PLAYLIST_ITEM_EXISTS: 'このファイルは既にプレイリストに含まれています',
  PLAYLIST_POSITION_TAKEN: 'この位置には既にファイルがあります',
  LISTING_NOT_FOUND: 'このコンテンツは販売されていません',
  FREE_TIER_CANNOT_PURCHASE: '無料会員はコンテンツを購入できません',
  CANNOT_BUY_OWN_FILE: '自分のコンテンツは購入できません',
  ALREADY_PURCHASED: 'このコンテンツは既に購入済みです（利用期間中）',
  INSUFFICIENT_POINTS: 'ポイントが不足しています',
  UPGRADE_NOT_ALLOWED: 'このプランへはアップグレードできません',
  DOWNGRADE_NOT_ALLOWED: 'このプランへはダウングレードできません',
  DOWNGRADE_ALREADY_PENDING: 'ダウングレード予約中です',
  NO_PENDING_DOWNGRADE: 'ダウングレードの予約はありません',
  PAYMENT_FAILED: '決済に失敗しました',
  PAYMENT_NOT_CONFIGURED: '決済機能が利用できません。管理者にお問い合わせください。',
  PAYMENT_ALREADY_RECORDED: 'この決済は既に処理されています',
  CASH_OUT_DISABLED: '換金は現在ご利用いただけません',
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ErrorCode, value);
}

export const ErrorIssue = z.object({ path: z.string(), message: z.string(), key: z.string().optional() });
export type ErrorIssue = z.infer<typeof ErrorIssue>;

export const ErrorBody = z.object({
  code: z.string(),
  message: z.string(),
  issues: z.array(ErrorIssue).optional(),
  correlationId: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** 403 body of local-login for an unverified address: the client goes to /verify-email?email=... */
export const EmailNotVerifiedBody = ErrorBody.extend({
  code: z.literal('EMAIL_NOT_VERIFIED'),
  requiresVerification: z.literal(true),
  email: z.string(),
});
export type EmailNotVerifiedBody = z.infer<typeof EmailNotVerifiedBody>;
