// After a screens run over the socket: what the screens service kept as signed for the run's own displays (its
// screen_keys and play_batches collections; a batch is kept there only once its signature held, so a batch taken
// unsigned is not), to set beside what the displays counted as taken signed (k6's play_signing).
import { MongoClient } from 'mongodb';

/** `{ keys, batches }`: the run's screens with a key bound, and the signed batches kept for them. */
export async function storedSigned({ url, dbName, screenIds }) {
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000 });
  try {
    await client.connect();
    const db = client.db(dbName);
    const ids = [...screenIds];
    const [keys, batches] = await Promise.all([
      db.collection('screen_keys').countDocuments({ _id: { $in: ids } }),
      db.collection('play_batches').countDocuments({ screenId: { $in: ids } }),
    ]);
    return { keys, batches };
  } finally {
    await client.close();
  }
}
