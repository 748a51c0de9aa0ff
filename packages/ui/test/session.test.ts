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
import { isRememberablePath, RETURN_PAGE_KEY, rememberReturnPage, takeReturnPage } from '../src/session/return-page';

describe('return page', () => {
  afterEach(() => sessionStorage.clear());

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
