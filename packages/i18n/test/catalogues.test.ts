import { errorMessagesJa, validationMessagesJa } from '@pagecast/contracts';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
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
// The catalogue tests run in a browser-like environment (import.meta.url is not a file URL): find the repository
// from the working directory (the repository or this package).
const repo = [process.cwd(), join(process.cwd(), '../..')].find((dir) => existsSync(join(dir, 'mf-player'))) ?? '';
/** The front ends' own sources (shell, remotes, ui): where t('...') is called. */
function frontEndSources(): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
        out.push({ file: relative(repo, path), text: readFileSync(path, 'utf8') });
      }
    }
  };
  for (const dir of ['shell/src', 'mf-files/src', 'mf-marketplace/src', 'mf-player/src', 'packages/ui/src']) {
    walk(join(repo, dir));
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

  it('hold every key the front ends ask for', () => {
    // t('a.b') with a literal key must name a text (or its plural forms: a.b_one, a.b_other, ...); t(`a.${x}.b`)
    // must name an existing subtree before the first ${ (the rest is checked by the screens' tests).
    const sources = frontEndSources();
    expect(sources.length).toBeGreaterThan(50);
    const exists = (key: string) =>
      key in jaFlat ||
      Object.keys(jaFlat).some((k) => k.startsWith(`${key}_`) && /_(zero|one|two|few|many|other)$/.test(k));
    const missing: string[] = [];
    let literal = 0;
    for (const { file, text } of sources) {
      for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.-]+)'/g)) {
        literal++;
        if (!exists(m[1] as string)) missing.push(`${file}: ${m[1]}`);
      }
      for (const m of text.matchAll(/\bt\(\s*`([a-zA-Z0-9_.-]+)\.\$\{/g)) {
        const prefix = `${m[1]}.`;
        if (!Object.keys(jaFlat).some((k) => k.startsWith(prefix))) missing.push(`${file}: ${prefix}*`);
      }
    }
    // hundreds of literal keys: a pattern that stopped matching would find none
    expect(literal).toBeGreaterThan(300);
    expect(missing).toEqual([]);
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
