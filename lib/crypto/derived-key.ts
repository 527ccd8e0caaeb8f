import { hkdfSync } from "node:crypto";

// Keys for one purpose each, derived from the master key with HKDF (RFC 5869): a MAC made for
// one purpose (a DPoP nonce, a browser's mark) is no MAC of another. Derived once per process.

const derived = new WeakMap<Buffer, Map<string, Buffer>>();

/** The 32-byte key of `purpose` under `masterKey`. */
export function derivedKey(masterKey: Buffer, purpose: string): Buffer {
  const ofMaster = derived.get(masterKey) ?? new Map<string, Buffer>();
  derived.set(masterKey, ofMaster);
  let key = ofMaster.get(purpose);
  if (key === undefined) {
    key = Buffer.from(hkdfSync("sha256", masterKey, Buffer.alloc(0), purpose, 32));
    ofMaster.set(purpose, key);
  }
  return key;
}
