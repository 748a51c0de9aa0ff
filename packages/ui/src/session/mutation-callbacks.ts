/**
 * What a page adds to a feature's mutation hook: the hook owns the request and the cache, the page its toasts,
 * navigation and form state. The hook calls these after its own cache work.
 */
export interface MutationCallbacks<TData, TVariables> {
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  onError?: (error: Error, variables: TVariables) => unknown;
}
