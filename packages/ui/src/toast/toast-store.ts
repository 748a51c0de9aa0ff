// Toast state of spec point 9: at most 1 toast, shown 5000 ms, removed 1,000,000 ms after dismissal.
// Module-level on purpose: @pagecast/ui is a federation singleton, so the shell and every remote share one store.
import { constants } from '@pagecast/contracts';
import type { ReactNode } from 'react';

export const TOAST_LIMIT: number = constants.toast.limit;
export const TOAST_DURATION_MS: number = constants.toast.durationMs;
export const TOAST_REMOVE_DELAY_MS: number = constants.toast.removeDelayMs;
export const TOAST_SWIPE_THRESHOLD_PX: number = constants.toast.swipeThresholdPx;

export type ToastVariant = 'default' | 'destructive';

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  action?: ToastAction;
  variant?: ToastVariant;
  /** display time before auto-dismissal; default TOAST_DURATION_MS */
  duration?: number;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

type Listener = (toasts: readonly ToastItem[]) => void;

let counter = 0;
let toasts: readonly ToastItem[] = [];
const listeners = new Set<Listener>();
const dismissTimers = new Map<string, ReturnType<typeof setTimeout>>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function emit(next: readonly ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener(toasts);
}

function clearTimer(map: Map<string, ReturnType<typeof setTimeout>>, id: string) {
  const timer = map.get(id);
  if (timer !== undefined) clearTimeout(timer);
  map.delete(id);
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      removeToast(id);
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Closes a toast (or all); it stays in the list, closed, until the removal delay has passed. */
export function dismissToast(id?: string) {
  const ids = id === undefined ? toasts.map((t) => t.id) : [id];
  for (const each of ids) {
    clearTimer(dismissTimers, each);
    scheduleRemoval(each);
  }
  emit(toasts.map((t) => (ids.includes(t.id) ? { ...t, open: false } : t)));
}

export function removeToast(id?: string) {
  const ids = id === undefined ? toasts.map((t) => t.id) : [id];
  for (const each of ids) {
    clearTimer(dismissTimers, each);
    clearTimer(removeTimers, each);
  }
  emit(toasts.filter((t) => !ids.includes(t.id)));
}

/** Shows a toast; the newest pushes older ones out beyond TOAST_LIMIT. */
export function toast(input: ToastInput): { id: string; dismiss: () => void; update: (next: ToastInput) => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const item: ToastItem = { variant: 'default', ...input, id, open: true };
  const kept = [item, ...toasts].slice(0, TOAST_LIMIT);
  for (const dropped of toasts) {
    if (!kept.includes(dropped)) {
      clearTimer(dismissTimers, dropped.id);
      clearTimer(removeTimers, dropped.id);
    }
  }
  emit(kept);
  dismissTimers.set(
    id,
    setTimeout(() => dismissToast(id), input.duration ?? TOAST_DURATION_MS),
  );
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (next) => emit(toasts.map((t) => (t.id === id ? { ...t, ...next } : t))),
  };
}

export function getToasts(): readonly ToastItem[] {
  return toasts;
}

export function subscribeToasts(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** A swipe to the right of at least the threshold dismisses (spec point 9). */
export function shouldDismissOnSwipe(deltaX: number): boolean {
  return deltaX >= TOAST_SWIPE_THRESHOLD_PX;
}
