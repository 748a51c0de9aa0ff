// Signed proof of play: the proof files of one file over whole UTC days, downloaded as they are (a link with
// `download`: the answer is an attachment) and checked offline with `npx pagecast-verify proof.json`.
const query = (fileId: string, from: string, to: string) =>
  `fileId=${encodeURIComponent(fileId)}&from=${from}&to=${to}`;

/** GET /api/screens/plays/proof: the member's screens' signed records of the file. */
export const playProofPath = (fileId: string, from: string, to: string) =>
  `/api/screens/plays/proof?${query(fileId, from, to)}`;

/** GET /api/screens/plays/sold/proof: buyers' displays' signed records of a file the member sold. */
export const soldPlayProofPath = (fileId: string, from: string, to: string) =>
  `/api/screens/plays/sold/proof?${query(fileId, from, to)}`;
