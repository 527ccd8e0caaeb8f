// @initlink/client: a typed client of the initlink API for Node 20 and later (fetch, node:crypto,
// and jose for DPoP proofs). See docs/client.md.
export { InitlinkClient, type CallOptions, type ClientOptions, type CreateLinkOptions, type WaitOptions, type WaitProgress } from "./client.js";
export { newDpopKey } from "./dpop.js";
export { InitlinkError, isInitlinkError } from "./errors.js";
export { publicKeyFingerprint, randomIv } from "./fingerprint.js";
export type * from "./types.js";
