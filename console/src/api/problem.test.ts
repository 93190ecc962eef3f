import { describe, expect, it } from 'vitest';
import { call, createKeelClient } from './client';
import { ApiError, mapFieldErrors, toApiError } from './problem';

const validation = {
  type: 'https://keel.dev/problems/validation-failed',
  title: 'Request is invalid',
  status: 400,
  detail: '2 fields are invalid; see errors.',
  requestId: 'req-1',
  errors: [
    { field: 'network.subnets[1].subnetId', message: 'must be a subnet id such as subnet-0a1b2c3d4e5f60789' },
    { field: 'fsx.count', message: '10 AKU need 200 MiB/s of WAL write capacity' },
    { field: 'brokerVersion', message: "'9.9' is not offered" },
  ],
};

describe('problem+json normalisation', () => {
  it('turns a problem document into a typed ApiError', () => {
    const error = toApiError(validation, new Response(null, { status: 400 }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(400);
    expect(error.kind).toBe('validation-failed');
    expect(error.detail).toBe('2 fields are invalid; see errors.');
    expect(error.requestId).toBe('req-1');
    expect(error.fieldErrors).toHaveLength(3);
  });

  it('turns a non-problem body into an ApiError with the HTTP status', () => {
    const error = toApiError('<html>Bad gateway</html>', new Response(null, { status: 502, statusText: 'Bad Gateway' }));
    expect(error.status).toBe(502);
    expect(error.title).toBe('HTTP 502 Bad Gateway');
    expect(error.fieldErrors).toEqual([]);
  });

  it('maps field errors onto form fields, to the nearest known field, and keeps the rest apart', () => {
    const error = toApiError(validation, undefined);
    const { fields, unmatched } = mapFieldErrors(error, ['network.subnets[1].subnetId', 'fsx']);
    expect(fields['network.subnets[1].subnetId']).toBe('must be a subnet id such as subnet-0a1b2c3d4e5f60789');
    expect(fields.fsx).toBe('Number of file systems: 10 AKU need 200 MiB/s of WAL write capacity');
    expect(unmatched).toEqual([{ field: 'brokerVersion', message: "'9.9' is not offered" }]);
  });

  it('call() throws an ApiError for application/problem+json responses and for network failures', async () => {
    const client = createKeelClient({
      baseUrl: 'http://console.test/api/v1',
      getAccessToken: () => 't',
      getOrganization: () => 'acme',
      fetch: async () => new Response(JSON.stringify(validation), { status: 400, headers: { 'Content-Type': 'application/problem+json' } }),
    });
    await expect(call(client.GET('/sizing/catalog'))).rejects.toMatchObject({ status: 400, kind: 'validation-failed' });

    const offline = createKeelClient({
      baseUrl: 'http://console.test/api/v1',
      getAccessToken: () => 't',
      getOrganization: () => undefined,
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await expect(call(offline.GET('/sizing/catalog'))).rejects.toMatchObject({ status: 0, detail: 'Failed to fetch' });
  });

  it('sends the token and the chosen organization on every request', async () => {
    let seen: Request | undefined;
    const client = createKeelClient({
      baseUrl: 'http://console.test/api/v1',
      getAccessToken: () => 'abc',
      getOrganization: () => 'globex',
      fetch: async (request) => {
        seen = request;
        return new Response('{}', { headers: { 'Content-Type': 'application/json' } });
      },
    });
    await call(client.GET('/organizations/me'));
    expect(seen?.headers.get('Authorization')).toBe('Bearer abc');
    expect(seen?.headers.get('X-Organization')).toBe('globex');
  });
});
