import { Locale, type RegisterRequest, type RegisterResponse } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation } from '@tanstack/react-query';

/** POST /api/auth/register: creates the account and sends the verification e-mail. */
export async function register(body: RegisterRequest): Promise<RegisterResponse> {
  const res = await apiRequest('POST', '/api/auth/register', body);
  return (await res.json()) as RegisterResponse;
}

/** The page's language goes with the form: it becomes the member's language, that of every e-mail. */
export function useRegister(callbacks: MutationCallbacks<RegisterResponse, RegisterRequest> = {}) {
  const { i18n } = useTranslation();
  return useMutation({
    mutationFn: (body: RegisterRequest) =>
      register({ ...body, locale: body.locale ?? Locale.safeParse(i18n.resolvedLanguage).data }),
    onSuccess: (data, variables) => callbacks.onSuccess?.(data, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}
