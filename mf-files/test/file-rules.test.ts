import { describe, expect, it } from 'vitest';
import {
  allPlanFigures,
  canEditPublishSettings,
  conversionPercent,
  copyrightToSend,
  knownPlanPrice,
  parseInlineDuration,
  parseTagsInput,
  parseUploadDuration,
  statusLabel,
} from '../src/features/library/model/file-rules';

describe('tag editor normalisation', () => {
  it('trims, lowercases, removes duplicates and drops empty tags', () => {
    expect(parseTagsInput('  Meeting , NEWS,meeting,, news ,  ')).toEqual({ ok: true, tags: ['meeting', 'news'] });
  });
  it('accepts Japanese commas and an empty text (no tags)', () => {
    expect(parseTagsInput('会議、お知らせ，会議')).toEqual({ ok: true, tags: ['会議', 'お知らせ'] });
    expect(parseTagsInput('   ')).toEqual({ ok: true, tags: [] });
  });
  it('refuses a tag over 30 characters and more than 20 tags', () => {
    expect(parseTagsInput(`ok, ${'x'.repeat(31)}`)).toEqual({ ok: false, error: 'validation.tagLength' });
    expect(parseTagsInput('x'.repeat(30))).toEqual({ ok: true, tags: ['x'.repeat(30)] });
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`).join(',');
    expect(parseTagsInput(many)).toEqual({ ok: false, error: 'validation.tagsMax20' });
    // duplicates do not count towards the limit
    expect(parseTagsInput(`${Array.from({ length: 20 }, (_, i) => `t${i}`).join(',')},T0`).ok).toBe(true);
  });
});

describe('display duration parsing', () => {
  it('upload: falls back to 30 when the input is not a number', () => {
    expect(parseUploadDuration('')).toBe(30);
    expect(parseUploadDuration('abc')).toBe(30);
    expect(parseUploadDuration(Number.NaN)).toBe(30);
    expect(parseUploadDuration('12')).toBe(12);
    // out of range stays as typed: the form schema shows the 1–60 message
    expect(parseUploadDuration('90')).toBe(90);
  });
  it('inline edit: an integer 1–300, anything else refused', () => {
    expect(parseInlineDuration('1')).toBe(1);
    expect(parseInlineDuration(' 300 ')).toBe(300);
    for (const bad of ['0', '301', '-5', '2.5', '', 'ten', '1e2']) expect(parseInlineDuration(bad), bad).toBeNull();
  });
});

describe('price plans: fee and net as shown', () => {
  it('shows each plan with its fee and what the seller receives, grouped for the language', () => {
    expect(allPlanFigures('ja').map(({ plan, price, fee, net }) => [plan.label, price, fee, net])).toEqual([
      ['popular', '3,000', '1,000', '2,000'],
      ['recommended', '5,000', '1,500', '3,500'],
      ['premium', '10,000', '3,000', '7,000'],
    ]);
    expect(allPlanFigures('fr')[2]?.net.replace(/\s/g, ' ')).toBe('7 000');
  });
  it('sends only a known plan price', () => {
    expect(knownPlanPrice(5000)).toBe(5000);
    expect(knownPlanPrice(4000)).toBeUndefined();
    expect(knownPlanPrice(null)).toBeUndefined();
  });
});

describe('status label precedence', () => {
  it('published wins over every status, then processing, disabled, private', () => {
    expect(statusLabel({ isPublished: true, status: 'processing' })).toBe('published');
    expect(statusLabel({ isPublished: true, status: 'private' })).toBe('published');
    expect(statusLabel({ isPublished: false, status: 'processing' })).toBe('processing');
    expect(statusLabel({ isPublished: false, status: 'disabled' })).toBe('disabled');
    expect(statusLabel({ isPublished: false, status: 'private' })).toBe('private');
  });
  it('hides publish settings while processing or disabled', () => {
    expect(canEditPublishSettings({ status: 'processing' })).toBe(false);
    expect(canEditPublishSettings({ status: 'disabled' })).toBe(false);
    expect(canEditPublishSettings({ status: 'private' })).toBe(true);
  });
});

describe('publish settings payload', () => {
  it('sends copyright info only when a part is filled, trimmed, without empty parts', () => {
    expect(copyrightToSend({ authorName: ' ', companyName: '', copyrightText: '  ' })).toBeUndefined();
    expect(copyrightToSend({ authorName: ' Ann ', companyName: '', copyrightText: '© Ann' })).toEqual({
      authorName: 'Ann',
      copyrightText: '© Ann',
    });
    // a company without author is still sent: the form then asks for the author
    expect(copyrightToSend({ authorName: '', companyName: 'ACME', copyrightText: '' })).toEqual({
      authorName: '',
      companyName: 'ACME',
    });
  });
});

describe('conversion progress', () => {
  it('is a percentage once the page total is known, else unknown', () => {
    expect(conversionPercent({ pageCount: 0, pagesReady: 2 })).toBeNull();
    expect(conversionPercent({ pageCount: 4, pagesReady: 1 })).toBe(25);
    expect(conversionPercent({ pageCount: 4, pagesReady: 4 })).toBe(100);
  });
});
