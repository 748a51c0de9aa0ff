import { PAIRING_CODE_ALPHABET, PAIRING_CODE_LENGTH } from '@pagecast/contracts';

/**
 * A code from random bytes: each byte picks a letter of a 32-letter alphabet (256 is a multiple of 32, so the
 * choice is uniform). Six letters are 2^30 codes: with few codes alive for five minutes and claims rate-limited,
 * guessing one is hopeless.
 */
export function codeFromBytes(bytes: Uint8Array): string {
  if (bytes.length < PAIRING_CODE_LENGTH) throw new Error('not enough random bytes');
  let code = '';
  for (let i = 0; i < PAIRING_CODE_LENGTH; i++) {
    code += PAIRING_CODE_ALPHABET[(bytes[i] as number) % PAIRING_CODE_ALPHABET.length];
  }
  return code;
}
