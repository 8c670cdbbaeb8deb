import { ConfigurationError } from '../errors/configuration-error.js';
import { MIN_SNAPSHOT_KEY_BYTES, snapshotKeyBytes } from './snapshot-signature.js';
import type { OptionCheck, OptionPlace } from '../options/check-options.js';

const EXPECTED = `a secret of at least ${MIN_SNAPSHOT_KEY_BYTES} bytes (a string or a Uint8Array), or a non-empty list of them to rotate keys (the first signs, all verify)`;

/** What a value is, without showing it: a key is a secret, even a wrong one. */
function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function checkKey(value: unknown, place: OptionPlace): void {
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) {
    throw new ConfigurationError(`${place.owner}: \`${place.path}\` must be ${EXPECTED}, got ${kind(value)}.`);
  }
  const bytes = snapshotKeyBytes(value);
  if (bytes < MIN_SNAPSHOT_KEY_BYTES) {
    throw new ConfigurationError(
      `${place.owner}: \`${place.path}\` is ${bytes} bytes; a snapshot key must be at least ${MIN_SNAPSHOT_KEY_BYTES} bytes of secret, e.g. 64 random hex characters kept in your server's configuration.`,
    );
  }
}

/**
 * The check of `snapshotKey`: one key, or a non-empty list of keys, each at least 32 bytes. Its
 * messages name the key (`snapshotKey[1]`) and its length, never its value.
 */
export const isSnapshotKeys: OptionCheck = (value, place) => {
  if (!Array.isArray(value)) return checkKey(value, place);
  if (value.length === 0) throw new ConfigurationError(`${place.owner}: \`${place.path}\` must be ${EXPECTED}, got an empty list.`);
  value.forEach((key, index) => checkKey(key, { ...place, path: `${place.path}[${index}]` }));
};
