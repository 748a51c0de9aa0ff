import { constants } from '@pagecast/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { avatarInitials, CURRENT_USER_STALE_TIME_MS } from '../src/session/current-user';
import {
  firstServerRead,
  formatHttpError,
  HttpError,
  isUnauthorizedError,
  noteServerRead,
  throwIfResNotOk,
  withReadSince,
} from '../src/session/http';
import { createQueryClient } from '../src/session/query-client';
import { LOGIN_REDIRECT_DELAY_MS } from '../src/session/require-login';
import {
  CARRIED_RETURN_PAGE_KEY,
  CARRIED_RETURN_PAGE_MAX_MS,
  isRememberablePath,
  isWelcomeOwed,
  RETURN_PAGE_KEY,
  rememberReturnPage,
  takeReturnPage,
  WELCOME_OWED_STATE,
} from '../src/session/return-page';

describe('return page', () => {
  afterEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it('is remembered and given back once', () => {
    expect(rememberReturnPage('/marketplace?q=cats')).toBe(true);
    expect(sessionStorage.getItem(RETURN_PAGE_KEY)).toBe('/marketplace?q=cats');
    expect(takeReturnPage()).toBe('/marketplace?q=cats');
    expect(takeReturnPage()).toBeNull();
  });

  it('never remembers the login, register, reset and verify pages', () => {
    for (const path of [
      '/login',
      '/register',
      '/request-password-reset',
      '/reset-password?token=abc',
      '/verify-email?token=t&email=a@b.c',
      '/login/',
    ]) {
      expect(isRememberablePath(path)).toBe(false);
      expect(rememberReturnPage(path)).toBe(false);
    }
    expect(takeReturnPage()).toBeNull();
  });

  it('keeps an earlier page when a never-remembered one comes later', () => {
    rememberReturnPage('/files');
    rememberReturnPage('/login');
    expect(takeReturnPage()).toBe('/files');
  });

  it('accepts only same-origin paths', () => {
    expect(isRememberablePath('https://evil.example/')).toBe(false);
    expect(isRememberablePath('//evil.example/x')).toBe(false);
    expect(isRememberablePath('/points')).toBe(true);
    expect(isRememberablePath('/loginx')).toBe(true);
  });

  it('refuses a path a browser would read as another host: a backslash, a space or a control character', () => {
    for (const path of ['/\\evil.example', '/\\/evil.example', '/\tevil.example', ' //evil.example', 'evil.example']) {
      expect(isRememberablePath(path)).toBe(false);
      expect(rememberReturnPage(path, { carryFor: { email: 'a@b.c' } })).toBe(false);
    }
    expect(sessionStorage.length + localStorage.length).toBe(0);
  });

  it('carries a page to the next sign-in of its address in another tab (no sessionStorage), once', () => {
    expect(rememberReturnPage('/invitations/tok', { carryFor: { email: ' Ichiro@Example.test ' } })).toBe(true);
    sessionStorage.clear(); // the verification link's tab
    expect(takeReturnPage('someone.else@example.test')).toBeNull();
    expect(localStorage.getItem(CARRIED_RETURN_PAGE_KEY)).not.toBeNull(); // still there for its own address
    expect(takeReturnPage('ichiro@example.TEST')).toBe('/invitations/tok');
    expect(takeReturnPage('ichiro@example.test')).toBeNull();
    expect(localStorage.getItem(CARRIED_RETURN_PAGE_KEY)).toBeNull();
  });

  it('is carried past a first sign-in only when carried; this tab’s other page waits for a later sign-in', () => {
    rememberReturnPage('/files');
    expect(takeReturnPage('a@b.c', { firstSignIn: true })).toBeNull();
    expect(sessionStorage.getItem(RETURN_PAGE_KEY)).toBe('/files');
    rememberReturnPage('/invitations/tok', { carryFor: { email: 'a@b.c' } });
    expect(takeReturnPage('a@b.c', { firstSignIn: true })).toBe('/invitations/tok');
    // the same page in this tab is used up with it
    expect(sessionStorage.getItem(RETURN_PAGE_KEY)).toBeNull();
    expect(takeReturnPage('a@b.c')).toBeNull();
  });

  it('ignores a carried page past its end, and never keeps one longer than the maximum', () => {
    rememberReturnPage('/invitations/old', { carryFor: { email: 'a@b.c', until: new Date(Date.now() - 1000) } });
    sessionStorage.clear();
    expect(takeReturnPage('a@b.c')).toBeNull();
    expect(localStorage.getItem(CARRIED_RETURN_PAGE_KEY)).toBeNull();
    rememberReturnPage('/invitations/far', { carryFor: { email: 'a@b.c', until: '2999-01-01T00:00:00.000Z' } });
    const until = (JSON.parse(localStorage.getItem(CARRIED_RETURN_PAGE_KEY) ?? '{}') as { until: number }).until;
    expect(until).toBeLessThanOrEqual(Date.now() + CARRIED_RETURN_PAGE_MAX_MS);
  });

  it('ignores a carried page that is not a same-site path, whoever wrote it', () => {
    for (const path of ['https://evil.example/', '//evil.example', '/\\evil.example', '/login']) {
      const until = Date.now() + 60_000;
      localStorage.setItem(CARRIED_RETURN_PAGE_KEY, JSON.stringify({ email: 'a@b.c', path, until }));
      expect(takeReturnPage('a@b.c')).toBeNull();
      localStorage.setItem(CARRIED_RETURN_PAGE_KEY, JSON.stringify({ email: 'a@b.c', path, until }));
      expect(takeReturnPage('a@b.c', { firstSignIn: true })).toBeNull();
    }
    localStorage.setItem(CARRIED_RETURN_PAGE_KEY, '{not json');
    expect(takeReturnPage('a@b.c')).toBeNull();
  });

  it('says whether a navigation owes the welcome', () => {
    expect(isWelcomeOwed(WELCOME_OWED_STATE)).toBe(true);
    expect(isWelcomeOwed(null)).toBe(false);
    expect(isWelcomeOwed({ welcomeOwed: 'yes' })).toBe(false);
  });
});

describe('avatar initials', () => {
  it('uses first and last name, else the e-mail, else U', () => {
    expect(avatarInitials({ firstName: 'taro', lastName: 'yamada', email: 'x@y.z' })).toBe('TY');
    // a CJK name: the family name's first character (山田 花子 is 山, not 花山, which reads as a surname)
    expect(avatarInitials({ firstName: '花子', lastName: '山田', email: 'x@y.z' })).toBe('山');
    expect(avatarInitials({ firstName: 'ミン', lastName: '김', email: 'x@y.z' })).toBe('김');
    expect(avatarInitials({ firstName: '', lastName: '山田', email: 'x@y.z' })).toBe('山');
    expect(avatarInitials({ firstName: 'taro', lastName: '', email: 'hanako@example.com' })).toBe('H');
    expect(avatarInitials({ firstName: null, lastName: null, email: '' })).toBe('U');
    expect(avatarInitials(null)).toBe('U');
  });
});

describe('error text', () => {
  it('is "<status>: <body>", or the status text when the body is empty', () => {
    expect(formatHttpError(404, 'Not Found', '')).toBe('404: Not Found');
    expect(formatHttpError(500, 'Internal Server Error', 'boom')).toBe('500: boom');
  });

  it('turns a non-OK response into an Error with that text and the parsed code', async () => {
    const body = JSON.stringify({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
    const error = await throwIfResNotOk(new Response(body, { status: 401, statusText: 'Unauthorized' })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe(`401: ${body}`);
    expect((error as HttpError).code).toBe('UNAUTHORIZED');
    expect(isUnauthorizedError(error)).toBe(true);
    expect(isUnauthorizedError(new Error('403: Forbidden'))).toBe(false);

    const empty = await throwIfResNotOk(new Response('', { status: 503, statusText: 'Service Unavailable' })).catch(
      (e: unknown) => e,
    );
    expect((empty as Error).message).toBe('503: Service Unavailable');
    await expect(throwIfResNotOk(new Response('ok', { status: 200 }))).resolves.toBeUndefined();
  });
});

describe('client defaults', () => {
  it('follow spec point 7 and the shared constants', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries).toMatchObject({
      staleTime: Number.POSITIVE_INFINITY,
      refetchInterval: false,
      refetchOnWindowFocus: false,
      retry: false,
    });
    expect(defaults.mutations?.retry).toBe(false);
    expect(CURRENT_USER_STALE_TIME_MS).toBe(300_000);
    expect(LOGIN_REDIRECT_DELAY_MS).toBe(constants.redirectDelaysMs.loginRequired);
  });
});

describe("the page's first read, in the server's time", () => {
  const answer = (date?: string) => new Response('{}', { headers: date ? { date } : {} });

  it('is the earliest Date header noted, whatever order the answers come in; answers without one count for nothing', () => {
    expect(firstServerRead()).toBeUndefined();
    noteServerRead(answer());
    noteServerRead(answer('not a date'));
    expect(firstServerRead()).toBeUndefined();
    noteServerRead(answer('Tue, 24 Nov 2026 10:00:05 GMT'));
    noteServerRead(answer('Tue, 24 Nov 2026 10:00:03 GMT'));
    noteServerRead(answer('Tue, 24 Nov 2026 10:00:09 GMT'));
    expect(firstServerRead()).toBe(Date.parse('2026-11-24T10:00:03Z'));
    // what a live stream asks with
    expect(withReadSince('/api/events?file=x')).toBe(`/api/events?file=x&since=${Date.parse('2026-11-24T10:00:03Z')}`);
  });

  it('goes into a live stream URL in whole ms, only when known', () => {
    expect(withReadSince('/api/events?file=x', 1795516037560.4)).toBe('/api/events?file=x&since=1795516037560');
    expect(withReadSince('/api/events', 1000)).toBe('/api/events?since=1000'); // a display watching only its screen
    expect(withReadSince('/api/events?file=x', Number.NaN)).toBe('/api/events?file=x');
  });
});
