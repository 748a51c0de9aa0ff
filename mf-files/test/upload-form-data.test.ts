import { describe, expect, it } from 'vitest';
import { uploadFormData } from '../src/features/library/api/upload-file';

const file = new File([new Uint8Array([37, 80, 68, 70])], 'deck.pdf', { type: 'application/pdf' });

describe('upload multipart body', () => {
  it('carries the file as `pdf` with title and duration, and no sale fields when not selling', () => {
    const form = uploadFormData({ file, title: 'Deck', displayDuration: 30 });
    expect(form.get('title')).toBe('Deck');
    expect(form.get('displayDuration')).toBe('30');
    expect((form.get('pdf') as File).name).toBe('deck.pdf');
    expect(form.has('isPublished')).toBe(false);
    expect(form.has('publishPrice')).toBe(false);
    expect(form.has('copyrightInfo')).toBe(false);
  });
  it('adds isPublished, the price and the copyright info as JSON when selling', () => {
    const form = uploadFormData({
      file,
      title: 'Deck',
      displayDuration: 10,
      sale: { publishPrice: 5000, copyrightInfo: { authorName: 'Ann' } },
    });
    expect(form.get('isPublished')).toBe('true');
    expect(form.get('publishPrice')).toBe('5000');
    expect(JSON.parse(String(form.get('copyrightInfo')))).toEqual({ authorName: 'Ann' });
  });
});
