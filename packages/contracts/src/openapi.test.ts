import { describe, expect, it } from 'vitest';
import { PaymentFailedDetails } from './api/points';
import { ErrorBody } from './errors';
import { buildOpenApiDocument, toOpenApiPath } from './openapi';
import { routesFor } from './routes';
import { playRefusalReasons } from './api/screens';
import { ServiceName } from './services';

type Doc = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, unknown> };
};

describe('buildOpenApiDocument', () => {
  for (const service of ServiceName.options) {
    it(`documents exactly the routes of ${service}`, () => {
      const doc = buildOpenApiDocument(service) as Doc;
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.title).toBe(`Pagecast ${service} API`);
      const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => `${method} ${path}`),
      );
      const expected = routesFor(service).map((r) => `${r.method} ${toOpenApiPath(r.path)}`);
      expect(documented.sort()).toEqual(expected.sort());
      expect(documented.some((p) => p.includes(':'))).toBe(false);
      expect(doc.components.schemas.Error).toMatchObject({ type: 'object', required: ['code', 'message'] });
      expect(() => JSON.stringify(doc)).not.toThrow();
    });
  }

  it('publishes the error fields the services send: details (rate limit, playlist items) and correlationId', () => {
    const error = (buildOpenApiDocument('account') as Doc).components.schemas.Error as {
      properties: Record<string, { type?: string }>;
      additionalProperties?: boolean;
    };
    expect(Object.keys(error.properties).sort()).toEqual(['code', 'correlationId', 'details', 'issues', 'message']);
    expect(error.properties.details?.type).toBe('object');
    for (const body of [
      { code: 'RATE_LIMITED', message: 'x', details: { retryAfterSeconds: 30 } },
      { code: 'FILE_NOT_FOUND', message: 'x', details: { fileId: 'f1' } },
      { code: 'PAYMENT_FAILED', message: 'x', details: { cardCode: 'card_declined', declineCode: 'expired_card' } },
      { code: 'INTERNAL', message: 'x', correlationId: 'req-1' },
    ])
      expect(ErrorBody.strict().safeParse(body).success, body.code).toBe(true);
  });

  it('documents the price a purchase confirms: a required body with expectedPrice, and PRICE_CHANGED', () => {
    const market = buildOpenApiDocument('marketplace') as Doc;
    const purchase = market.paths['/api/marketplace/purchase/{id}']?.post as {
      summary: string;
      requestBody: { required: boolean; content: { 'application/json': { schema: Record<string, unknown> } } };
    };
    expect(purchase.requestBody.required).toBe(true);
    expect(purchase.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['expectedPrice'],
      properties: { expectedPrice: { type: 'integer', exclusiveMinimum: 0 } },
    });
    expect(purchase.summary).toContain('PRICE_CHANGED');
  });

  it('documents a refused card: PAYMENT_FAILED with the provider’s codes in details', () => {
    const billing = buildOpenApiDocument('billing') as Doc;
    const confirm = billing.paths['/api/points/confirm-payment']?.post as { summary: string };
    for (const text of ['PAYMENT_FAILED', 'cardCode', 'declineCode']) expect(confirm.summary).toContain(text);
    expect(
      PaymentFailedDetails.strict().safeParse({ cardCode: 'card_declined', declineCode: 'insufficient_funds' }).success,
    ).toBe(true);
  });

  it('documents the sign-in throttle: RATE_LIMITED with retryAfterSeconds, and the known-browser cookie', () => {
    const account = buildOpenApiDocument('account') as Doc;
    const login = account.paths['/api/auth/local-login']?.post as { summary: string };
    const reset = account.paths['/api/auth/reset-password']?.post as { summary: string };
    for (const text of ['RATE_LIMITED', 'retryAfterSeconds', 'INVALID_CREDENTIALS', 'pc_known_browser'])
      expect(login.summary).toContain(text);
    for (const text of ['TOKEN_INVALID', 'pc_known_browser']) expect(reset.summary).toContain(text);
  });

  it("documents a screen's content refusals: PLAYLIST_NOT_FOUND / FILE_NOT_FOUND with their details", () => {
    const screens = buildOpenApiDocument('screens') as Doc;
    const update = screens.paths['/api/screens/{id}']?.put as { summary: string };
    const codes = ['PLAYLIST_NOT_FOUND', 'FILE_NOT_FOUND', 'details.playlistId', 'details.fileId', 'SCHEDULE_INVALID'];
    for (const text of codes) expect(update.summary).toContain(text);
  });

  it('describes parameters, bodies, multipart and security', () => {
    const files = buildOpenApiDocument('file-conversion') as Doc;
    const getFile = files.paths['/api/files/{id}']?.get as Record<string, unknown>;
    expect(getFile.parameters).toEqual([
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
      expect.objectContaining({ name: 'signage_mode', in: 'query', required: false }),
    ]);
    const upload = files.paths['/api/files/upload']?.post as { requestBody: { content: Record<string, unknown> } };
    const multipart = upload.requestBody.content['multipart/form-data'] as {
      schema: { properties: Record<string, unknown>; required: string[] };
    };
    expect(multipart.schema.properties.pdf).toMatchObject({ type: 'string', format: 'binary' });
    expect(multipart.schema.required).toEqual(expect.arrayContaining(['pdf', 'title']));
    expect(files.paths['/api/files']?.get?.security).toEqual([{ cookieAuth: [] }]);

    const account = buildOpenApiDocument('account') as Doc;
    const login = account.paths['/api/auth/local-login']?.post as {
      security: unknown[];
      requestBody: { content: { 'application/json': { schema: { required: string[] } } } };
    };
    expect(login.security).toEqual([]);
    const welcome = account.paths['/api/auth/mark-welcome-seen']?.post as { requestBody: { required: boolean } };
    expect(welcome.requestBody.required).toBe(false);
    expect(login.requestBody.content['application/json'].schema.required.sort()).toEqual(['email', 'password']);
  });

  it('documents the plan upgrade at the confirmed cost, and the renewal date and amount of the plan', () => {
    const billing = buildOpenApiDocument('billing') as Doc;
    const upgrade = billing.paths['/api/membership/upgrade']?.post as {
      summary: string;
      requestBody: { content: { 'application/json': { schema: { required: string[] } } } };
    };
    expect(upgrade.requestBody.content['application/json'].schema.required.sort()).toEqual([
      'expectedCost',
      'membershipTier',
    ]);
    expect(upgrade.summary).toContain('PRICE_CHANGED');
    const status = billing.paths['/api/membership/status']?.get as {
      responses: { 200: { content: { 'application/json': { schema: { required: string[] } } } } };
    };
    expect(status.responses[200].content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['renewsAt', 'renewalPoints', 'upgradeOffers']),
    );
  });

  it('documents each history row’s reason (a code and its parameters) beside the spec’s description', () => {
    const billing = buildOpenApiDocument('billing') as Doc;
    const history = billing.paths['/api/points/history']?.get as {
      responses: { 200: { content: { 'application/json': { schema: { items: Record<string, unknown> } } } } };
    };
    const row = history.responses[200].content['application/json'].schema.items as {
      required: string[];
      properties: { reason: unknown };
    };
    expect(row.required).toEqual(expect.arrayContaining(['reason', 'description']));
    const kinds = JSON.stringify(row.properties.reason).match(/"const":"\w+"/g);
    expect(kinds?.sort()).toEqual(
      [
        'migrationBonus',
        'platformFee',
        'pointsPurchase',
        'purchase',
        'registrationBonus',
        'renewal',
        'sale',
        'upgrade',
      ].map((k) => `"const":"${k}"`),
    );
  });

  it('documents the member’s language: sent at registration, read and changed with the profile', () => {
    const account = buildOpenApiDocument('account') as Doc;
    type Body = { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } };
    const locale = { type: 'string', enum: ['ja', 'en', 'fr', 'it'] };
    const register = account.paths['/api/auth/register']?.post as { requestBody: Body };
    expect(register.requestBody.content['application/json'].schema.properties.locale).toEqual(locale);
    const profile = account.paths['/api/user/profile']?.put as {
      requestBody: Body;
      responses: { 200: Body };
    };
    expect(profile.requestBody.content['application/json'].schema.properties.locale).toEqual(locale);
    expect(profile.responses[200].content['application/json'].schema.properties.locale).toMatchObject({
      anyOf: [locale, { type: 'null' }],
    });
  });

  it('documents every reason a play record is refused, closed hours included', () => {
    const screens = buildOpenApiDocument('screens') as Doc;
    const batch = screens.paths['/api/screens/device/plays']?.post as {
      responses: { 200: { content: { 'application/json': { schema: { properties: Record<string, unknown> } } } } };
    };
    const byReason = batch.responses[200].content['application/json'].schema.properties.refusedByReason as {
      propertyNames: { enum: string[] };
    };
    expect(byReason.propertyNames.enum).toEqual([...playRefusalReasons]);
    expect(byReason.propertyNames.enum).toContain('closed');
  });

  it('names each member route’s action as x-pagecast-action, and none on public and device routes', () => {
    for (const service of ServiceName.options) {
      const doc = buildOpenApiDocument(service) as Doc;
      for (const route of routesFor(service)) {
        const op = doc.paths[toOpenApiPath(route.path)]?.[route.method] as Record<string, unknown>;
        const member = route.auth === 'session' || route.auth === 'optional';
        expect(op['x-pagecast-action'], route.id).toBe(member ? route.action : undefined);
        if (member) expect(op['x-pagecast-action'], route.id).toMatch(/^[a-z-]+(\.[a-z-]+)?$/);
      }
    }
  });
});
