// Approval (packages/contracts api/approvals.ts): the calls that change what screens play may answer 202 with a
// proposal instead of their own body; the proposals are read, approved, rejected and withdrawn here.
import type {
  Proposal,
  ProposalAccepted,
  ProposalDetail,
  ProposalList,
  ProposalStatus,
  RejectProposalRequest,
} from '@pagecast/contracts';
import { apiFetch, apiRequest, HttpError, noteServerRead } from '@pagecast/ui';
import {
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';

/** What a change that may wait answered: made (its own body), or waiting as a proposal (202). */
export type MayWait<T> = { waiting: Proposal; done?: undefined } | { waiting?: undefined; done: T };

/** A change of what screens play: a 202 is a proposal waiting for approval, anything else OK is the change made. */
export async function sendMayWait<T>(method: string, url: string, body?: unknown): Promise<MayWait<T>> {
  const res = await apiRequest(method, url, body);
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (res.status === 202) return { waiting: (data as ProposalAccepted).proposal };
  return { done: data as T };
}

export const PROPOSALS_API = '/api/screens/proposals';
const proposalApi = (id: string) => `${PROPOSALS_API}/${encodeURIComponent(id)}`;

/** Every proposal read (lists, the pending count, one proposal) starts its key with the API's path. */
export const isProposalsKey = (key: readonly unknown[]) =>
  typeof key[0] === 'string' && key[0].startsWith(PROPOSALS_API);

/** Reads every proposal query again (after a change proposed, approved, rejected or withdrawn). */
export const refreshProposals = (qc: QueryClient) =>
  qc.invalidateQueries({ predicate: (query) => isProposalsKey(query.queryKey) });

async function readJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await apiFetch(url, { credentials: 'include', signal });
  noteServerRead(res);
  if (!res.ok) throw new HttpError(res.status, res.statusText, await res.text().catch(() => ''));
  return (await res.json()) as T;
}

/** The query string of a list's status (none: every status) and page. */
export function proposalsSearch(status: ProposalStatus | undefined, cursor?: string | null, limit?: number) {
  const params = new URLSearchParams();
  if (status) params.set('status', status);
  if (limit) params.set('limit', String(limit));
  if (cursor) params.set('cursor', cursor);
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** The proposals of one status (or all), newest first, by pages. */
export const proposalsQuery = (status: ProposalStatus | undefined) =>
  infiniteQueryOptions({
    queryKey: [PROPOSALS_API, 'list', status ?? 'all'],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      readJson<ProposalList>(`${PROPOSALS_API}${proposalsSearch(status, pageParam)}`, signal),
    getNextPageParam: (last) => last.nextCursor,
  });

/** The most the pending count reads at once: more than this is worded "N or more". */
export const PENDING_COUNT_READ = 100;

/** How many wait (the first PENDING_COUNT_READ; `more` when there are others). */
export const pendingCountQuery = queryOptions({
  queryKey: [PROPOSALS_API, 'pending-count'],
  queryFn: async ({ signal }) => {
    const list = await readJson<ProposalList>(
      `${PROPOSALS_API}${proposalsSearch('pending', null, PENDING_COUNT_READ)}`,
      signal,
    );
    return { count: list.proposals.length, more: list.nextCursor !== null };
  },
  // a proposal made or decided by someone else shows within a minute
  refetchInterval: 60_000,
});

export const proposalQuery = (id: string) =>
  queryOptions({
    queryKey: [PROPOSALS_API, 'one', id],
    queryFn: ({ signal }) => readJson<ProposalDetail>(proposalApi(id), signal),
  });

/** A decision on a proposal; afterwards the proposals and what screens play are read again. */
function useDecision<I>(fn: (input: I) => Promise<Proposal>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () =>
      Promise.all([
        refreshProposals(qc),
        qc.invalidateQueries({ queryKey: ['/api/screens'] }),
        qc.invalidateQueries({ queryKey: ['/api/screens/groups'] }),
      ]),
  });
}

const post = async (url: string, body?: unknown) => (await (await apiRequest('POST', url, body)).json()) as Proposal;

export const useApproveProposal = () => useDecision((id: string) => post(`${proposalApi(id)}/approve`, {}));
export const useRejectProposal = () =>
  useDecision(({ id, body }: { id: string; body: RejectProposalRequest }) => post(`${proposalApi(id)}/reject`, body));
export const useWithdrawProposal = () =>
  useDecision(async (id: string) => (await (await apiRequest('DELETE', proposalApi(id))).json()) as Proposal);
