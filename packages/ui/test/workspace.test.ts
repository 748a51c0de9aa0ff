// The workspace the page acts in: one value that every call made through @pagecast/ui names (the header), every
// live stream (?workspace=), and a NOT_A_MEMBER answer reported once per refused call.
import { WORKSPACE_HEADER as CONTRACTS_WORKSPACE_HEADER } from '@pagecast/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, getQueryFn } from '../src/session/http';
import {
  apiFetch,
  currentWorkspace,
  inWorkspace,
  onWorkspaceRefused,
  setCurrentWorkspace,
  subscribeWorkspace,
  WORKSPACE_HEADER,
  withWorkspace,
  workspaceHeaders,
} from '../src/session/workspace';

it("names the contracts' workspace header (kept apart from them: no zod on every page)", () => {
  expect(WORKSPACE_HEADER).toBe(CONTRACTS_WORKSPACE_HEADER);
});

let sent: Array<{ url: string; headers: Headers }>;
let answer: () => Response;

beforeEach(() => {
  sent = [];
  answer = () => new Response('{}', { status: 200 });
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    sent.push({ url, headers: new Headers(init?.headers) });
    return answer();
  });
  setCurrentWorkspace(undefined);
});
afterEach(() => vi.unstubAllGlobals());

describe('the workspace a page acts in', () => {
  it('names none for the person’s own workspace', async () => {
    await apiRequest('POST', '/api/playlists', { name: 'x' });
    expect(sent[0]?.headers.get('x-pagecast-workspace')).toBeNull();
    expect(workspaceHeaders()).toEqual({});
    expect(withWorkspace('/api/events?file=a')).toBe('/api/events?file=a');
  });

  it('names the chosen one in apiRequest, the default reader, apiFetch and live streams', async () => {
    const heard = vi.fn();
    const stop = subscribeWorkspace(heard);
    setCurrentWorkspace('w2');
    setCurrentWorkspace('w2'); // no change, no news
    stop();
    expect(heard).toHaveBeenCalledTimes(1);
    expect(currentWorkspace()).toBe('w2');
    await apiRequest('POST', '/api/playlists', { name: 'x' });
    await getQueryFn({ on401: 'throw' })({ queryKey: ['/api/files'], signal: new AbortController().signal } as never);
    await apiFetch('/api/screens', { headers: { 'If-None-Match': 'e1' } });
    expect(sent.map((s) => s.headers.get('x-pagecast-workspace'))).toEqual(['w2', 'w2', 'w2']);
    expect(sent[0]?.headers.get('content-type')).toBe('application/json');
    expect(sent[2]?.headers.get('if-none-match')).toBe('e1');
    expect(workspaceHeaders()).toEqual({ 'x-pagecast-workspace': 'w2' });
    expect(withWorkspace('/api/events?file=a')).toBe('/api/events?file=a&workspace=w2');
    expect(withWorkspace('/api/events')).toBe('/api/events?workspace=w2');
  });

  it('reports NOT_A_MEMBER (not another 403) to the listeners, with the workspace refused', async () => {
    const refused = vi.fn();
    const stop = onWorkspaceRefused(refused);
    setCurrentWorkspace('w3');
    answer = () => new Response(JSON.stringify({ code: 'FORBIDDEN_ROLE', message: 'no' }), { status: 403 });
    await expect(apiRequest('DELETE', '/api/files/f1')).rejects.toMatchObject({ code: 'FORBIDDEN_ROLE' });
    expect(refused).not.toHaveBeenCalled();
    answer = () => new Response(JSON.stringify({ code: 'NOT_A_MEMBER', message: 'no' }), { status: 403 });
    // the caller still reads the body (the report reads a copy)
    await expect(apiRequest('GET', '/api/files')).rejects.toMatchObject({ code: 'NOT_A_MEMBER' });
    expect(refused).toHaveBeenCalledWith('w3');
    stop();
    setCurrentWorkspace(undefined);
    await apiRequest('GET', '/api/files').catch(() => undefined);
    expect(refused).toHaveBeenCalledTimes(1);
  });
});

describe('an address opened in a new tab', () => {
  it('names the chosen workspace, keeping its own query and fragment', () => {
    expect(inWorkspace('/signage/f1')).toBe('/signage/f1');
    setCurrentWorkspace('w 9');
    expect(inWorkspace('/signage/f1')).toBe('/signage/f1?w=w%209');
    expect(inWorkspace('/signage/f1?autoplay=true')).toBe('/signage/f1?autoplay=true&w=w%209');
    expect(inWorkspace('/signage/f1?autoplay=true#p2')).toBe('/signage/f1?autoplay=true&w=w%209#p2');
  });
});
