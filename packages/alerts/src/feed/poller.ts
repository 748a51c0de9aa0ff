// Placeholder until the poller lands: the screens service can already import its signature.
export interface PollerOptions {
  /** the JMA Atom feed URLs (eqvol.xml, extra.xml, or their long-term versions) */
  urls: string[];
  /** the HTTP GET (globalThis.fetch in production, a local server in tests) */
  fetch: typeof globalThis.fetch;
  /** publishes one report's raw bytes (to JetStream ALERTS, subject alerts.report.v1, Nats-Msg-Id `jma:<sha256>`) */
  publish: (xml: Uint8Array, msgId: string) => Promise<void>;
  /** at least 60 s, as JMA asks of high-frequency feed clients */
  intervalMs?: number;
}

export interface Poller {
  stop(): Promise<void>;
}

export function startPoller(_options: PollerOptions): Poller {
  throw new Error('not implemented');
}
