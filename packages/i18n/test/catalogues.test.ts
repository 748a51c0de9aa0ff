import { errorMessagesJa, validationMessagesJa } from '@pagecast/contracts';
import { describe, expect, it } from 'vitest';
import en from '../src/locales/en/index';
import fr from '../src/locales/fr/index';
import it_ from '../src/locales/it/index';
import ja from '../src/locales/ja/index';

type Tree = { [key: string]: string | Tree };
const catalogues: Record<string, Tree> = { ja, en, fr, it: it_ };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[path] = value;
    else Object.assign(out, flatten(value, path));
  }
  return out;
}
const flat = Object.fromEntries(Object.entries(catalogues).map(([lang, tree]) => [lang, flatten(tree)]));
const jaFlat = flat.ja ?? {};

describe('translation catalogues', () => {
  it('have exactly the same keys in ja, en, fr and it', () => {
    const reference = Object.keys(jaFlat).sort();
    expect(reference.length).toBeGreaterThan(100);
    for (const lang of ['en', 'fr', 'it']) {
      const keys = Object.keys(flat[lang] ?? {}).sort();
      const missing = reference.filter((k) => !keys.includes(k));
      const extra = keys.filter((k) => !reference.includes(k));
      expect({ lang, missing, extra }).toEqual({ lang, missing: [], extra: [] });
    }
  });

  it('have no empty texts and the same interpolation variables in every language', () => {
    const vars = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    for (const [lang, entries] of Object.entries(flat)) {
      for (const [key, text] of Object.entries(entries)) {
        expect(text.trim(), `${lang}:${key}`).not.toBe('');
        expect(vars(text), `${lang}:${key}`).toEqual(vars(jaFlat[key] ?? ''));
      }
    }
  });

  it('cover the namespaces the front ends use', () => {
    for (const ns of [
      'common',
      'nav',
      'landing',
      'notFound',
      'auth',
      'toasts',
      'errors',
      'validation',
      'files',
      'marketplace',
      'player',
      'playlist',
      'points',
      'settings',
    ]) {
      expect(Object.keys(ja)).toContain(ns);
    }
  });

  it('translate every validation key of the contracts, with the spec Japanese text in ja', () => {
    for (const [key, text] of Object.entries(validationMessagesJa)) expect(jaFlat[key], key).toBe(text);
    const ours = Object.keys(jaFlat).filter((k) => k.startsWith('validation.'));
    expect(ours.sort()).toEqual(Object.keys(validationMessagesJa).sort());
  });

  it('translate every error code, with the contracts Japanese text in ja', () => {
    for (const [code, text] of Object.entries(errorMessagesJa)) expect(jaFlat[`errors.${code}`], code).toBe(text);
  });

  it('keep the spec texts', () => {
    expect(jaFlat['notFound.title']).toBe('404 Page Not Found');
    expect(jaFlat['notFound.hint']).toBe('Did you forget to add the page to the router?');
    expect(jaFlat['toasts.loginRequired']).toBe('ログインが必要です');
    expect(jaFlat['player.notFoundTitle']).toBe('ファイルが見つかりません');
    expect(jaFlat['player.notFoundDescription']).toBe('このファイルは削除されたか、アクセス権限がありません。');
    expect(jaFlat['player.backToDashboard']).toBe('ダッシュボードに戻る');
    expect(jaFlat['auth.login.forgotPassword']).toBe('パスワードを忘れた方');
  });
});
