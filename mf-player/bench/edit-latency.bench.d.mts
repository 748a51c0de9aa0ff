// Types of edit-latency.bench.mjs (the browser tests call measureEditLatency).
import type { Page } from 'playwright-core';

export interface LatencySummary {
  n: number;
  p50: number;
  p95: number;
  max: number;
}
export interface EditLatencyResult {
  /** save → applied on screen at the next page boundary */
  total: LatencySummary;
  /** save → the player holds the new data (waiting for the boundary) */
  delivery: LatencySummary;
  /** the save call alone */
  save: LatencySummary;
  /** per edit, in Date.now() ms: the save's start, the player's data-applied-at, when the observer saw the change */
  edits: EditRecord[];
}
export interface EditRecord {
  t0: number;
  at: number;
  seen: number;
  /** the last playlist changes the observer saw */
  recent: { files: string; at: number; seen: number }[];
}
export function percentile(sorted: number[], p: number): number;
export function measureEditLatency(opts: {
  page: Page;
  save: (fileIds: string[]) => Promise<unknown>;
  orders: [string[], string[]];
  edits?: number;
  pageMs?: number;
  log?: (line: string) => void;
}): Promise<EditLatencyResult>;
export function benchEditLatency(opts?: {
  log?: (line: string) => void;
  baseUrl?: string;
  mailUrl?: string;
  edits?: number;
}): Promise<EditLatencyResult>;
export function verifiedSession(
  baseUrl: string,
  mailUrl: string,
): Promise<{ cookie: string; call: (method: string, path: string, body?: unknown) => Promise<unknown> }>;
export function upload(
  call: (method: string, path: string, body?: unknown) => Promise<unknown>,
  file: string,
  title: string,
): Promise<string>;
