// Shared by the k6 scenarios: where to send traffic (loopback only) and bounds on load.

/** BASE_URL from the environment (default the dev gateway); anything but a loopback address is refused. */
export function baseUrl() {
  const url = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const m = /^https?:\/\/(\[[^\]]+\]|[^/:]+)(:\d+)?$/.exec(url);
  const host = m ? m[1] : '';
  if (!(host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host))) {
    throw new Error(`BASE_URL must be a loopback origin (localhost, 127.x.x.x or [::1]); got ${url}`);
  }
  return url;
}

/** VUS and DURATION from the environment, clamped to the scenario's ceiling. */
export function bounded(defaults, ceiling) {
  const vus = Math.max(1, Math.min(Number(__ENV.VUS || defaults.vus) || defaults.vus, ceiling.vus));
  const wanted = __ENV.DURATION || defaults.duration;
  const m = /^(\d+)(s|m|h)$/.exec(wanted);
  if (!m) throw new Error(`DURATION must look like 30s, 2m or 1h; got ${wanted}`);
  const seconds = Math.min(Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2]], ceiling.seconds);
  return { vus, duration: `${seconds}s` };
}
