import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  LocalLoginRequest,
  RegisterRequest,
  ResetPasswordForm,
  ResetPasswordRequest,
  VerifyEmailRequest,
} from './api/auth';
import { ContactRequest } from './api/contact';
import {
  PublishSettingsRequest,
  UpdateDurationRequest,
  UpdateFileRequest,
  UploadFileFields,
  UploadForm,
  uploadAccept,
  uploadKindOf,
} from './api/files';
import { MarketplaceQuery } from './api/marketplace';
import { ScheduleDowngradeRequest, UpgradeMembershipRequest } from './api/membership';
import { AddPlaylistItemRequest, CreatePlaylistRequest, PlaylistItem, SavePlaylistItemsRequest } from './api/playlists';
import { PlayRecord } from './api/screens';
import { ShownReport } from './api/screen-health';
import { CreatePaymentIntentRequest } from './api/points';
import { ChangePasswordRequest, SetPasswordForm, UpdateProfileRequest } from './api/user';
import { MembershipTier, normalizeTags, Tags, validationMessageJa, validationMessagesJa } from './validation';

/** message keys of a failed parse, by path */
function issues(schema: z.ZodType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

describe('message keys', () => {
  it('every key a schema uses has a Japanese text', () => {
    const used = new Set<string>();
    for (const file of sourceFiles(import.meta.dirname)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/'(validation\.[A-Za-z0-9]+)'/g)) used.add(m[1] as string);
    }
    expect(used.size).toBeGreaterThan(30);
    const missing = [...used].filter((key) => !validationMessagesJa[key]);
    expect(missing).toEqual([]);
  });

  it('uses the spec texts', () => {
    expect(validationMessagesJa['validation.emailInvalid']).toBe('有効なメールアドレスを入力してください');
    expect(validationMessagesJa['validation.passwordsDoNotMatch']).toBe('パスワードが一致しません');
    expect(validationMessagesJa['validation.durationRange300']).toBe('表示時間は1〜300秒の間で入力してください');
    expect(validationMessagesJa['validation.messageMin10']).toBe('メッセージは10文字以上で入力してください');
    expect(validationMessageJa('not a key')).toBe('入力内容を確認してください');
  });

  it('bad input yields only known keys, also for missing fields and wrong types', () => {
    const cases: Array<[z.ZodType, unknown]> = [
      [RegisterRequest, {}],
      [RegisterRequest, { email: 3, firstName: null, lastName: [], password: true }],
      [LocalLoginRequest, {}],
      [ContactRequest, {}],
      [UploadFileFields, { displayDuration: 'abc', displayMode: 'x', tags: 5, isPublished: 'yes', copyrightInfo: '{' }],
      [UpdateFileRequest, { title: '', tags: ['x'.repeat(31)], displayDuration: 0 }],
      [MarketplaceQuery, { page: '0', limit: '99', tags: [3] }],
      [ChangePasswordRequest, {}],
      [AddPlaylistItemRequest, {}],
      [CreatePaymentIntentRequest, { amount: 7 }],
      [UpgradeMembershipRequest, { membershipTier: 'gold' }],
      [UpdateProfileRequest, { firstName: '', lastName: '', profileImageUrl: 'javascript:alert(1)' }],
    ];
    for (const [schema, value] of cases) {
      const found = Object.values(issues(schema, value));
      expect(found.length).toBeGreaterThan(0);
      for (const key of found) expect(validationMessagesJa[key], key).toBeTypeOf('string');
    }
  });
});

describe('accounts', () => {
  it('needs a valid e-mail and keeps it trimmed and lowercase', () => {
    expect(issues(RegisterRequest, { email: 'nope', firstName: 'A', lastName: 'B', password: 'x'.repeat(12) })).toEqual(
      {
        email: 'validation.emailInvalid',
      },
    );
    expect(LocalLoginRequest.parse({ email: '  Taro@Example.COM ', password: 'p' }).email).toBe('taro@example.com');
  });

  it('needs 12 characters for a new password', () => {
    const base = { email: 'a@b.jp', firstName: 'A', lastName: 'B' };
    expect(issues(RegisterRequest, { ...base, password: 'x'.repeat(11) })).toEqual({
      password: 'validation.passwordMin12',
    });
    expect(RegisterRequest.safeParse({ ...base, password: 'x'.repeat(12) }).success).toBe(true);
    expect(issues(ResetPasswordRequest, { token: '', newPassword: 'x'.repeat(12) })).toEqual({
      token: 'validation.resetTokenRequired',
    });
  });

  it('needs names of at least one character', () => {
    expect(
      issues(RegisterRequest, { email: 'a@b.jp', firstName: ' ', lastName: '', password: 'x'.repeat(12) }),
    ).toEqual({
      firstName: 'validation.firstNameRequired',
      lastName: 'validation.lastNameRequired',
    });
  });

  it('puts a mismatch on the confirmation field', () => {
    expect(issues(ResetPasswordForm, { newPassword: 'a'.repeat(12), confirmPassword: 'b'.repeat(12) })).toEqual({
      confirmPassword: 'validation.passwordsDoNotMatch',
    });
    expect(issues(SetPasswordForm, { password: 'a'.repeat(12), confirmPassword: 'b'.repeat(12) })).toEqual({
      confirmPassword: 'validation.passwordsDoNotMatch',
    });
    expect(
      issues(ChangePasswordRequest, {
        currentPassword: 'x',
        newPassword: 'a'.repeat(12),
        confirmPassword: 'b'.repeat(12),
      }),
    ).toEqual({ confirmPassword: 'validation.newPasswordsDoNotMatch' });
    expect(
      issues(ChangePasswordRequest, { currentPassword: '', newPassword: 'short', confirmPassword: 'short' }),
    ).toEqual({
      currentPassword: 'validation.currentPasswordRequired',
      newPassword: 'validation.newPasswordMin12',
      confirmPassword: 'validation.passwordMin12',
    });
  });

  it('accepts an http(s) profile image URL or empty', () => {
    const names = { firstName: 'A', lastName: 'B' };
    expect(UpdateProfileRequest.safeParse({ ...names, profileImageUrl: 'https://x.jp/a.png' }).success).toBe(true);
    expect(UpdateProfileRequest.safeParse({ ...names, profileImageUrl: '' }).success).toBe(true);
    expect(issues(UpdateProfileRequest, { ...names, profileImageUrl: 'not a url' })).toEqual({
      profileImageUrl: 'validation.urlInvalid',
    });
  });

  it('needs a verification token and a contact message of 10 characters', () => {
    expect(issues(VerifyEmailRequest, { token: '' })).toEqual({ token: 'validation.tokenRequired' });
    const contact = { name: '太郎', email: 'a@b.jp', subject: '件名' };
    expect(issues(ContactRequest, { ...contact, message: '123456789' })).toEqual({
      message: 'validation.messageMin10',
    });
    expect(ContactRequest.safeParse({ ...contact, message: '1234567890' }).success).toBe(true);
  });
});

describe('tags', () => {
  it('are trimmed, lowercased, deduplicated and empty ones dropped', () => {
    expect(normalizeTags([' Foo', 'foo', '', '  ', 'BAR '])).toEqual(['foo', 'bar']);
    expect(Tags.parse([' Foo', 'FOO', ' ', 'Bar'])).toEqual(['foo', 'bar']);
  });

  it('are 1 to 30 characters each and at most 20', () => {
    expect(Tags.safeParse(['x'.repeat(30)]).success).toBe(true);
    expect(issues(Tags, ['x'.repeat(31)])).toEqual({ '0': 'validation.tagLength' });
    const twenty = Array.from({ length: 20 }, (_, i) => `t${i}`);
    expect(Tags.safeParse(twenty).success).toBe(true);
    expect(issues(Tags, [...twenty, 't20'])).toEqual({ '': 'validation.tagsMax20' });
    // duplicates are removed before counting
    expect(Tags.parse([...twenty, 'T0', ' t1 ']).length).toBe(20);
  });

  it('come from multipart as JSON text, comma list or repeated fields', () => {
    const base = { title: 'a' };
    expect(UploadFileFields.parse({ ...base, tags: '["A","b"]' }).tags).toEqual(['a', 'b']);
    expect(UploadFileFields.parse({ ...base, tags: 'A, b,,a' }).tags).toEqual(['a', 'b']);
    expect(UploadFileFields.parse({ ...base, tags: ['A', 'b'] }).tags).toEqual(['a', 'b']);
    expect(UploadFileFields.parse(base).tags).toEqual([]);
  });
});

describe('files', () => {
  it('upload defaults: 30 s, fit-height, not for sale', () => {
    expect(UploadFileFields.parse({ title: ' 資料 ' })).toEqual({
      title: '資料',
      displayDuration: 30,
      displayMode: 'fit-height',
      tags: [],
      isPublished: false,
    });
  });

  it('upload duration is 1 to 60 and an edit 1 to 300 integer seconds', () => {
    expect(UploadFileFields.parse({ title: 'a', displayDuration: '60' }).displayDuration).toBe(60);
    expect(issues(UploadFileFields, { title: 'a', displayDuration: '61' })).toEqual({
      displayDuration: 'validation.durationRange60',
    });
    expect(issues(UploadFileFields, { title: 'a', displayDuration: '0' })).toEqual({
      displayDuration: 'validation.durationRange60',
    });
    expect(UpdateDurationRequest.safeParse({ displayDuration: 300 }).success).toBe(true);
    for (const bad of [0, 301, 1.5, '10']) {
      expect(issues(UpdateDurationRequest, { displayDuration: bad })).toEqual({
        displayDuration: 'validation.durationRange300',
      });
    }
    expect(UpdateFileRequest.parse({ displayDuration: 120 })).toEqual({ displayDuration: 120 });
  });

  it('display mode is one of fit-width, fit-height, fill', () => {
    expect(UploadFileFields.parse({ title: 'a', displayMode: 'fill' }).displayMode).toBe('fill');
    expect(issues(UpdateFileRequest, { displayMode: 'stretch' })).toEqual({
      displayMode: 'validation.displayModeInvalid',
    });
  });

  it('selling needs a price of exactly 3000, 5000 or 10000 and an author', () => {
    const sale = { title: 'a', isPublished: 'true', copyrightInfo: '{"authorName":"山田"}' };
    expect(UploadFileFields.parse({ ...sale, publishPrice: '5000' })).toMatchObject({
      isPublished: true,
      publishPrice: 5000,
      copyrightInfo: { authorName: '山田' },
    });
    expect(issues(UploadFileFields, { ...sale, publishPrice: '4000' })).toEqual({
      publishPrice: 'validation.pricePlanInvalid',
    });
    expect(issues(UploadFileFields, { ...sale })).toEqual({ publishPrice: 'validation.pricePlanRequired' });
    expect(issues(UploadFileFields, { title: 'a', isPublished: 'true', publishPrice: '3000' })).toEqual({
      'copyrightInfo.authorName': 'validation.authorNameRequired',
    });
    expect(issues(UploadFileFields, { ...sale, publishPrice: '3000', copyrightInfo: '{"authorName":" "}' })).toEqual({
      'copyrightInfo.authorName': 'validation.authorNameRequired',
    });
  });

  it('publish settings need a plan when publishing only', () => {
    expect(issues(PublishSettingsRequest, { isPublished: true })).toEqual({
      publishPrice: 'validation.pricePlanRequired',
    });
    expect(PublishSettingsRequest.safeParse({ isPublished: true, publishPrice: 10000 }).success).toBe(true);
    expect(PublishSettingsRequest.safeParse({ isPublished: false, publishPrice: null }).success).toBe(true);
    expect(issues(PublishSettingsRequest, { isPublished: true, publishPrice: 3001 })).toEqual({
      publishPrice: 'validation.pricePlanInvalid',
    });
  });

  it('the upload form checks the file type, the 10 MB size of documents and the 2 GiB of media', () => {
    const file = (name: string, size: number) => ({ name, size, type: '' });
    const base = { title: 't' };
    expect(UploadForm.safeParse({ ...base, file: file('a.pdf', 10 * 1024 * 1024) }).success).toBe(true);
    expect(UploadForm.safeParse({ ...base, file: file('a.PPTX', 1) }).success).toBe(true);
    expect(issues(UploadForm, { ...base, file: file('a.pdf', 10 * 1024 * 1024 + 1) })).toEqual({
      file: 'validation.fileTooLarge',
    });
    expect(issues(UploadForm, { ...base, file: file('a.exe', 1) })).toEqual({ file: 'validation.fileTypeUnsupported' });
    // photos and videos go through the resumable upload: up to 2 GiB, not 10 MB
    expect(UploadForm.safeParse({ ...base, file: file('clip.mp4', 2 * 1024 ** 3) }).success).toBe(true);
    expect(UploadForm.safeParse({ ...base, file: file('photo.jpg', 50 * 1024 * 1024) }).success).toBe(true);
    expect(issues(UploadForm, { ...base, file: file('clip.mov', 2 * 1024 ** 3 + 1) })).toEqual({
      file: 'validation.mediaTooLarge',
    });
    // photos, by name or (a name without a known ending) by the browser's type; TIFF is not taken
    for (const name of ['a.jpg', 'b.JPEG', 'c.png', 'd.webp', 'e.gif', 'IMG_0001.HEIC', 'f.heif', 'g.avif']) {
      expect(uploadKindOf(name), name).toBe('image');
    }
    expect(uploadKindOf('camera-upload', 'image/heic')).toBe('image');
    expect(uploadKindOf('scan.tiff', 'image/tiff')).toBeUndefined();
    expect(issues(UploadForm, { ...base, file: file('scan.tif', 1) })).toEqual({
      file: 'validation.fileTypeUnsupported',
    });
    expect(uploadAccept.split(',')).toEqual(
      expect.arrayContaining(['.pdf', '.pptx', '.docx', '.jpg', '.png', '.webp', '.gif', '.heic', '.avif']),
    );
    expect(issues(UploadForm, { title: '' })).toEqual({
      file: 'validation.fileAndTitleRequired',
      title: 'validation.fileAndTitleRequired',
    });
    expect(UploadForm.parse({ ...base, file: file('a.pdf', 1), displayDuration: Number.NaN }).displayDuration).toBe(30);
  });
});

describe('playlists, marketplace, billing', () => {
  it('playlist name is non-blank and a position an integer from 0', () => {
    expect(issues(CreatePlaylistRequest, { name: '   ' })).toEqual({ name: 'validation.playlistNameRequired' });
    expect(CreatePlaylistRequest.parse({ name: ' 朝 ' }).name).toBe('朝');
    expect(AddPlaylistItemRequest.safeParse({ fileId: 'f', position: 0 }).success).toBe(true);
    expect(issues(AddPlaylistItemRequest, { fileId: 'f', position: -1 })).toEqual({
      position: 'validation.positionInvalid',
    });
    expect(issues(AddPlaylistItemRequest, { fileId: 'f', position: 0.5 })).toEqual({
      position: 'validation.positionInvalid',
    });
  });

  it("a video item's loops are a whole number from 1 to 99, by file id in a save", () => {
    const F = '6a1f000000000000000000e1';
    expect(AddPlaylistItemRequest.parse({ fileId: F, position: 0, loops: 99 }).loops).toBe(99);
    for (const loops of [0, 100, 1.5, '2', null]) {
      expect(issues(AddPlaylistItemRequest, { fileId: F, position: 0, loops })).toEqual({
        loops: 'validation.playlistLoopsInvalid',
      });
      expect(issues(SavePlaylistItemsRequest, { fileIds: [F], loops: { [F]: loops } })).toEqual({
        [`loops.${F}`]: 'validation.playlistLoopsInvalid',
      });
    }
    expect(SavePlaylistItemsRequest.parse({ fileIds: [F], loops: { [F]: 3 } }).loops).toEqual({ [F]: 3 });
    expect(SavePlaylistItemsRequest.parse({ fileIds: [F] }).loops).toBeUndefined();
    // an empty file id is refused as a key
    expect(SavePlaylistItemsRequest.safeParse({ fileIds: [F], loops: { '': 2 } }).success).toBe(false);
    // an item from an older server (no loops) reads as once
    const item = { id: 'i', playlistId: 'p', fileId: F, position: 0, createdAt: '2026-12-06T00:00:00.000Z' };
    expect(PlaylistItem.parse(item).loops).toBeUndefined();
    expect(PlaylistItem.safeParse({ ...item, loops: 100 }).success).toBe(false);
  });

  it("a video's play record names the second it reached (0 or more); a page's names none", () => {
    const record = {
      id: '0b7c6a34-3d8e-4b0f-9d55-8a3e2b1f4c11',
      fileId: '6a1f000000000000000000e1',
      page: 1,
      startedAt: '2026-12-06T00:00:00.000Z',
      seconds: 20.1,
    };
    expect(PlayRecord.parse(record).reachedSecond).toBeUndefined();
    expect(PlayRecord.parse({ ...record, reachedSecond: 10.04 }).reachedSecond).toBe(10.04);
    expect(PlayRecord.parse({ ...record, reachedSecond: 0 }).reachedSecond).toBe(0);
    for (const reachedSecond of [-0.1, '3', Number.POSITIVE_INFINITY]) {
      expect(issues(PlayRecord, { ...record, reachedSecond })).toEqual({
        reachedSecond: 'validation.reachedSecondInvalid',
      });
    }
    // what is shown: a video's page names its second, and frozen when it stopped
    const shows = {
      kind: 'page',
      fileId: record.fileId,
      page: 1,
      shownAt: record.startedAt,
      holdSeconds: 10,
      loaded: true,
      error: null,
    };
    expect(ShownReport.parse({ ...shows, video: { second: 4.2, frozen: true } })).toMatchObject({
      video: { second: 4.2, frozen: true },
    });
    expect(ShownReport.safeParse({ ...shows, video: { second: -1 } }).success).toBe(false);
  });

  it('marketplace query: page from 1, 24 per page at most, repeated tags normalised', () => {
    expect(MarketplaceQuery.parse({})).toEqual({ tags: [], page: 1, limit: 24 });
    expect(MarketplaceQuery.parse({ q: ' 猫 ', tags: ['Cat', 'cat ', 'Dog'], page: '3', limit: '10' })).toEqual({
      q: '猫',
      tags: ['cat', 'dog'],
      page: 3,
      limit: 10,
    });
    expect(MarketplaceQuery.parse({ tags: 'Cat' }).tags).toEqual(['cat']);
    expect(issues(MarketplaceQuery, { page: '0' })).toEqual({ page: 'validation.pageInvalid' });
    expect(issues(MarketplaceQuery, { limit: '25' })).toEqual({ limit: 'validation.limitRange' });
  });

  it('tiers and point packages are the fixed lists', () => {
    expect(MembershipTier.options).toEqual(['free', 'trial', 'standard', 'creator', '300point', '3000point']);
    expect(UpgradeMembershipRequest.safeParse({ membershipTier: 'creator', expectedCost: 5000 }).success).toBe(true);
    expect(issues(UpgradeMembershipRequest, { membershipTier: 'trial', expectedCost: 3000 })).toEqual({
      membershipTier: 'validation.tierInvalid',
    });
    // the cost the member confirmed is part of the call (a different current cost: PRICE_CHANGED)
    expect(issues(UpgradeMembershipRequest, { membershipTier: 'creator' })).toEqual({
      expectedCost: 'validation.invalid',
    });
    expect(issues(UpgradeMembershipRequest, { membershipTier: 'creator', expectedCost: 0 })).toEqual({
      expectedCost: 'validation.invalid',
    });
    expect(ScheduleDowngradeRequest.safeParse({ targetTier: 'free' }).success).toBe(true);
    for (const amount of [1000, 3000, 5000, 10000]) {
      expect(CreatePaymentIntentRequest.safeParse({ amount }).success).toBe(true);
    }
    expect(issues(CreatePaymentIntentRequest, { amount: 2000 })).toEqual({ amount: 'validation.pointPackageInvalid' });
  });
});
