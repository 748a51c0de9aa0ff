import { describe, expect, it } from 'vitest';
import { fullName, salutation } from './names';

const taro = { firstName: '太郎', lastName: '山田', email: 'taro@example.com' };
const latin = { firstName: 'Taro', lastName: 'Yamada', email: 'taro@example.com' };

describe('a member’s name in a mail', () => {
  it('puts the family name first in Japanese, the given name first in English, French and Italian', () => {
    expect(fullName('ja', taro)).toBe('山田 太郎');
    expect(fullName('ja', latin)).toBe('Yamada Taro');
    expect(fullName('en', latin)).toBe('Taro Yamada');
    expect(fullName('fr', latin)).toBe('Taro Yamada');
    expect(fullName('it', latin)).toBe('Taro Yamada');
  });

  it('greets with each language’s honorific and punctuation', () => {
    expect(salutation('ja', taro)).toBe('山田 太郎 様');
    expect(salutation('en', latin)).toBe('Hello Taro Yamada,');
    expect(salutation('fr', latin)).toBe('Bonjour Taro Yamada,');
    expect(salutation('it', latin)).toBe('Gentile Taro Yamada,');
  });

  it('leaves a missing or blank part out, and greets by the address when there is no name', () => {
    expect(fullName('ja', { firstName: '太郎', lastName: null })).toBe('太郎');
    expect(fullName('en', { firstName: '  ', lastName: 'Yamada' })).toBe('Yamada');
    expect(fullName('fr', { firstName: null, lastName: undefined })).toBeNull();
    expect(salutation('ja', { firstName: null, lastName: ' ', email: 'a@example.com' })).toBe('a@example.com 様');
    expect(salutation('en', { firstName: '', lastName: '', email: 'a@example.com' })).toBe('Hello a@example.com,');
  });
});
