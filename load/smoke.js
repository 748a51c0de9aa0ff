// Smoke: the public surface answers correctly and quickly under a little concurrent load.
// Run: npm run load (starts a local stack) or BASE_URL=http://127.0.0.1:8080 npm run load -- smoke
// Bounded: at most 20 virtual users, at most 2 minutes; paced to stay under the gateway's /api rate limit.
import { check, group, sleep } from 'k6';
import http from 'k6/http';
import { baseUrl, bounded } from './lib/target.js';

const BASE_URL = baseUrl();
const { vus, duration } = bounded({ vus: 5, duration: '20s' }, { vus: 20, seconds: 120 });

export const options = {
  scenarios: {
    smoke: { executor: 'constant-vus', vus, duration, gracefulStop: '5s' },
  },
  thresholds: {
    checks: ['rate>0.99'],
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:landing}': ['p(95)<1000'],
    'http_req_duration{name:internal}': ['p(95)<300'],
    'http_req_duration{name:remotes}': ['p(95)<300'],
    'http_req_duration{name:auth-user}': ['p(95)<500'],
  },
};

// The anonymous /api/auth/user call is expected to be refused: 401 is its success here.
const unauthorizedExpected = http.expectedStatuses(401);
const notFoundExpected = http.expectedStatuses(404);

export default function () {
  group('landing page', () => {
    const r = http.get(`${BASE_URL}/`, { headers: { Accept: 'text/html' }, tags: { name: 'landing' } });
    check(r, {
      'landing 200': (res) => res.status === 200,
      'landing is the app html': (res) => /<html/i.test(res.body) && /<script/i.test(res.body),
      'landing revalidated': (res) => /no-cache/.test(res.headers['Cache-Control'] || ''),
    });
  });

  group('remotes.json', () => {
    const r = http.get(`${BASE_URL}/remotes.json`, { tags: { name: 'remotes' } });
    check(r, {
      'remotes 200': (res) => res.status === 200,
      'remotes lists the three remotes': (res) => {
        const body = res.json();
        return ['mf_files', 'mf_marketplace', 'mf_player'].every(
          (k) => typeof body[k] === 'string' && body[k].length > 0,
        );
      },
    });
  });

  // Probes and metrics live on the gateway's internal listener: the public port must not answer them.
  group('internal endpoints are not public', () => {
    for (const path of ['/healthz', '/metrics']) {
      const r = http.get(`${BASE_URL}${path}`, { tags: { name: 'internal' }, responseCallback: notFoundExpected });
      check(r, { [`${path} 404 on the public port`]: (res) => res.status === 404 });
    }
  });

  group('anonymous /api/auth/user', () => {
    const r = http.get(`${BASE_URL}/api/auth/user`, {
      tags: { name: 'auth-user' },
      responseCallback: unauthorizedExpected,
    });
    check(r, {
      'auth-user 401': (res) => res.status === 401,
      'auth-user says Unauthorized': (res) => res.json('code') === 'UNAUTHORIZED' && /Unauthorized/.test(res.body),
    });
  });

  sleep(1);
}
