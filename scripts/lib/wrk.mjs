// wrk (Debian's, installed by scripts/lib/tools.mjs for the benchmarks) as the load client: a benchmark shares this
// machine's two cores with what it measures, and wrk costs far less CPU per request than a Node client (printed by
// the login benchmark as "client").
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Appended to every script: the summary as one JSON line. `sent` is the requests a script's request() made (each
// thread's global of that name), which counts those still in flight when the run ended, unlike summary.requests.
const REPORT = `
local pagecast_threads = {}
function setup(thread) table.insert(pagecast_threads, thread) end
function done(summary, latency, requests)
  local sent = 0
  for _, t in ipairs(pagecast_threads) do sent = sent + (t:get("sent") or 0) end
  local e = summary.errors
  io.write(string.format(
    '\\nPAGECAST_WRK {"requests":%d,"sent":%d,"durationUs":%d,"non2xx":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,"p50":%.1f,"p95":%.1f,"p99":%.1f}\\n',
    summary.requests, sent, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)))
end
`;

/** A Lua string literal for an ASCII string (JSON's escapes are Lua's for ASCII). */
export const luaString = (s) => JSON.stringify(s);

/**
 * Runs wrk for `seconds` with `connections` kept-alive connections (one request in flight on each) and `script`
 * (Lua: wrk's request() and friends; not setup or done, used here). Resolves to the request count, the rate, latency
 * percentiles in ms, wrk's own CPU time in ms, and socket errors as text (undefined when none); rejects when any
 * answer is not 2xx or 3xx.
 */
export function runWrk(url, { connections, seconds, threads = 1, headers = {}, script = '', timeoutSeconds = 10 }) {
  const dir = mkdtempSync(join(tmpdir(), 'pagecast-wrk-'));
  const scriptPath = join(dir, 'run.lua');
  writeFileSync(scriptPath, `${script}\n${REPORT}`);
  const args = [`-t${Math.min(threads, connections)}`, `-c${connections}`, `-d${seconds}s`];
  args.push(`--timeout`, `${timeoutSeconds}s`, '-s', scriptPath);
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  args.push(url);
  // The shell's `times` prints its children's CPU (user, system) once wrk has ended: wrk's own cost.
  const child = spawn('sh', ['-c', 'wrk "$@"; code=$?; times; exit $code', 'sh', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`wrk exited ${code}: ${out}`));
      const line = /^PAGECAST_WRK (\{.*\})$/m.exec(out)?.[1];
      if (!line) return reject(new Error(`wrk printed no summary:\n${out}`));
      const s = JSON.parse(line);
      if (s.non2xx > 0) return reject(new Error(`wrk: ${s.non2xx} answers were not 2xx or 3xx\n${out}`));
      const t = [...out.matchAll(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/gm)].at(-1); // children: user, system
      const cpuMs = t ? (Number(t[1]) * 60 + Number(t[2]) + Number(t[3]) * 60 + Number(t[4])) * 1000 : Number.NaN;
      const socket = ['connect', 'read', 'write', 'timeout'].filter((k) => s[k] > 0).map((k) => `${k} ${s[k]}`);
      resolve({
        requests: s.requests,
        sent: s.sent,
        concurrency: connections,
        p50: s.p50 / 1000,
        p95: s.p95 / 1000,
        p99: s.p99 / 1000,
        rps: s.requests / (s.durationUs / 1e6),
        cpuMs,
        errors: socket.length > 0 ? socket.join(', ') : undefined,
      });
    });
  });
}
