import { apiRoutes, type ServiceName } from '@pagecast/contracts';

export const documentedServices: ServiceName[] = ['account', 'file-conversion', 'marketplace', 'billing', 'screens'];

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A plain page (no CDN, no script): each service's OpenAPI document and the routes the gateway knows. */
export function docsPage(): string {
  const sections = documentedServices
    .map((service) => {
      const rows = apiRoutes
        .filter((r) => r.service === service)
        .map(
          (r) =>
            `<tr><td><code>${r.method.toUpperCase()}</code></td><td><code>${escapeHtml(r.path)}</code></td>` +
            `<td>${r.auth}</td><td>${escapeHtml(r.summary)}</td></tr>`,
        )
        .join('\n');
      return `<section>
<h2>${service}</h2>
<p><a href="/api/docs/${service}/openapi.json">/api/docs/${service}/openapi.json</a> (OpenAPI 3.1)</p>
<table><thead><tr><th>method</th><th>path</th><th>auth</th><th>summary</th></tr></thead><tbody>
${rows}
</tbody></table>
</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pagecast API</title>
<style>body{font:14px/1.5 system-ui,sans-serif;margin:2rem;max-width:70rem}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}code{font-size:13px}</style>
</head><body>
<h1>Pagecast API</h1>
<p>Every call goes through this gateway. <em>session</em> routes need the <code>pc_session</code> cookie
(sign in first); the gateway passes the identity to the service.</p>
${sections}
</body></html>
`;
}
