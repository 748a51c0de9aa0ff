// Proof of play kept on the display until the server has it: a bounded queue in localStorage, so records made
// offline (and across a reload) are sent when the network is back. Each record has its own id; the server counts
// an id once, so sending a batch again after a lost answer is harmless.
import { PLAY_BATCH_MAX, type PlayRecord } from '@pagecast/contracts';

const KEY = 'pagecast.screen.plays';
/** The oldest records go first when a display stays offline for very long. */
export const PLAY_LOG_MAX = 5000;

export interface PlayLogStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function createPlayLog(storage: PlayLogStorage) {
  const read = (): PlayRecord[] => {
    try {
      const parsed = JSON.parse(storage.getItem(KEY) ?? '[]');
      return Array.isArray(parsed) ? (parsed as PlayRecord[]) : [];
    } catch {
      return [];
    }
  };
  const write = (list: PlayRecord[]) => {
    try {
      storage.setItem(KEY, JSON.stringify(list.slice(-PLAY_LOG_MAX)));
    } catch {
      // storage full: the newest records win next time
    }
  };
  return {
    add(record: PlayRecord) {
      write([...read(), record]);
    },
    /** The next batch to send (oldest first). */
    batch: (): PlayRecord[] => read().slice(0, PLAY_BATCH_MAX),
    /** Forgets records the server answered for (accepted, duplicate, or refused for good). */
    remove(ids: string[]) {
      const gone = new Set(ids);
      write(read().filter((r) => !gone.has(r.id)));
    },
    get size() {
      return read().length;
    },
  };
}
export type PlayLog = ReturnType<typeof createPlayLog>;
