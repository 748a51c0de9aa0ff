import type { RegisterRequest, RegisterResponse } from '@pagecast/contracts';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation } from '@tanstack/react-query';

/** POST /api/auth/register: creates the account and sends the verification e-mail. */
export async function register(body: RegisterRequest): Promise<RegisterResponse> {
  const res = await apiRequest('POST', '/api/auth/register', body);
  return (await res.json()) as RegisterResponse;
}

export function useRegister(callbacks: MutationCallbacks<RegisterResponse, RegisterRequest> = {}) {
  return useMutation({
    mutationFn: register,
    onSuccess: (data, variables) => callbacks.onSuccess?.(data, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}
