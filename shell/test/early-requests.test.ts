import { createQueryClient, currentUserQueryKey } from '@pagecast/ui';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// early-requests.ts keeps what it started in a module-level list (the entry runs once): a fresh module per case
async function load() {
  vi.resetModules();
  const early = await import('../src/app/early-requests');
  const seed = await import('../src/app/early-seed');
  const { firstServerRead } = await import('@pagecast/ui'); // the instance early-seed.ts uses
  return { ...early, ...seed, firstServerRead };
}

const json = (status: number, body: unknown, date?: string) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...(date ? { date } : {}) },
  });

let answers: Record<string, () => Response>;
const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
  const path = String(input);
  const answer = answers[path];
  if (!answer) throw new Error(`unexpected request ${path}`);
  return answer();
});

beforeEach(() => {
  answers = {};
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  for (const el of document.head.querySelectorAll('meta[name="pc-session"], link[rel="preload"]')) el.remove();
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("the entry's early reads", () => {
  it('reads nothing for a page marked signed out', async () => {
    const meta = document.createElement('meta');
    meta.name = 'pc-session';
    meta.content = 'none';
    document.head.append(meta);
    const { startEarlyRequests, earlyRequests } = await load();
    startEarlyRequests('/signage/f1', document);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(earlyRequests()).toEqual([]);
  });

  it("on a signage page: the user, the file and its pages, then the first page's image; the cache gets each", async () => {
    const file = { id: 'f 1', title: 'Deck' };
    const pages = [
      { pageNumber: 1, imagePath: '/media/aa.webp' },
      { pageNumber: 2, imagePath: '/media/bb.webp' },
    ];
    answers = {
      '/api/auth/user': () => json(200, { id: 'u1', email: 'a@example.com' }, 'Tue, 24 Nov 2026 10:00:02 GMT'),
      '/api/files/f%201?signage_mode=true': () => json(200, file, 'Tue, 24 Nov 2026 10:00:01 GMT'),
      '/api/files/f%201/pages?signage_mode=true': () => json(200, pages, 'Tue, 24 Nov 2026 10:00:02 GMT'),
    };
    const { startEarlyRequests, seedEarlyRequests, firstServerRead } = await load();
    startEarlyRequests('/signage/f%201', document);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await settle();
    const preload = document.head.querySelector<HTMLLinkElement>('link[rel="preload"][as="image"]');
    expect(preload?.getAttribute('href')).toBe('/media/aa.webp');

    const queryClient = createQueryClient();
    seedEarlyRequests(queryClient);
    await settle();
    expect(queryClient.getQueryData(currentUserQueryKey)).toEqual({ id: 'u1', email: 'a@example.com' });
    expect(queryClient.getQueryData(['/api/files/f%201?signage_mode=true'])).toEqual(file);
    expect(queryClient.getQueryData(['/api/files/f%201/pages?signage_mode=true'])).toEqual(pages);
    expect(fetchMock).toHaveBeenCalledTimes(3); // the cache was filled from the same answers
    // the page's first read, in the server's time: what the player's live stream sends as since
    expect(firstServerRead()).toBe(Date.parse('2026-11-24T10:00:01Z'));
  });

  it('hands over failures as the readers would see them: 401 is nobody signed in, 404 an error to read again', async () => {
    answers = {
      '/api/auth/user': () => json(401, { code: 'UNAUTHORIZED' }),
      '/api/files/gone?signage_mode=true': () => json(404, { code: 'NOT_FOUND' }),
      '/api/files/gone/pages?signage_mode=true': () => json(404, { code: 'NOT_FOUND' }),
    };
    const { startEarlyRequests, seedEarlyRequests } = await load();
    startEarlyRequests('/signage/gone', document);
    const queryClient = createQueryClient();
    seedEarlyRequests(queryClient);
    await settle();
    expect(queryClient.getQueryState(currentUserQueryKey)?.status).toBe('success');
    expect(queryClient.getQueryData(currentUserQueryKey)).toBeNull();
    const file = queryClient.getQueryState(['/api/files/gone?signage_mode=true']);
    expect(file?.status).toBe('error');
    expect((file?.error as { status?: number } | null)?.status).toBe(404);
    expect(document.head.querySelector('link[rel="preload"][as="image"]')).toBeNull();
  });

  it('reads only the user on other pages of a member, and nothing more for a malformed signage address', async () => {
    answers = { '/api/auth/user': () => json(200, { id: 'u1' }) };
    const { startEarlyRequests, earlyRequests } = await load();
    startEarlyRequests('/files', document);
    startEarlyRequests('/signage/%E0%A4%A', document);
    expect(earlyRequests().map((r) => r.path)).toEqual(['/api/auth/user', '/api/auth/user']);
  });
});
