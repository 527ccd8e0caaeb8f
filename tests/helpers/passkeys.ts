import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { dispatch } from "./in-process";
import { cookieHeader, SITE } from "./forms";
import { PASSWORD } from "./journey.mjs";

// A software authenticator for the API tests: it makes real ES256 credentials and signs real
// assertions (W3C WebAuthn Level 3 §6.1 authenticator data, "none" attestation), as a browser's
// platform authenticator would, so the service's verification (SimpleWebAuthn) runs unchanged.
// It can also do what a phishing page's browser would: sign client data naming another origin.

type Credential = { id: Buffer; privateKey: KeyObject; publicKey: KeyObject; counter: number; rpId: string };

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest();

/** Flags of authenticator data (§6.1): user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/** Where the browser says the page was, whether the authenticator verified the person, the user handle it returns (none by default). */
export type Ceremony = { origin?: string; userVerified?: boolean; userHandle?: string };

export class SoftwareAuthenticator {
  readonly credentials: Credential[] = [];
  /** Added to each signature counter on every use (0: an authenticator that keeps no counter). */
  constructor(private readonly counterStep = 1) {}

  register(options: PublicKeyCredentialCreationOptionsJSON, { origin = SITE, userVerified = true }: Ceremony = {}): RegistrationResponseJSON {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const credential: Credential = { id: randomBytes(16), privateKey, publicKey, counter: 0, rpId: options.rp.id ?? new URL(origin).hostname };
    this.credentials.push(credential);
    // COSE_Key (RFC 9053 §7.1.1): kty EC2, alg ES256, crv P-256, x, y.
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([sha256(credential.rpId), Buffer.from([UP | (userVerified ? UV : 0) | AT]), Buffer.alloc(4), Buffer.alloc(16), idLength, credential.id, coseKey]);
    const clientDataJSON = JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false });
    const noStatement = new Map<string, string>();
    const attestationObject = isoCBOR.encode(new Map<string, string | Map<string, string> | Uint8Array>([["fmt", "none"], ["attStmt", noStatement], ["authData", authData]]));
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ["internal"] },
      clientExtensionResults: {},
    };
  }

  /** An assertion by `credential` (the first one by default) for the options' challenge. */
  assert(options: PublicKeyCredentialRequestOptionsJSON, { origin = SITE, userVerified = true, userHandle }: Ceremony = {}, credential = this.credentials[0]): AuthenticationResponseJSON {
    credential.counter += this.counterStep;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authenticatorData = Buffer.concat([sha256(credential.rpId), Buffer.from([UP | (userVerified ? UV : 0)]), counter]);
    const clientDataJSON = JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false });
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(signature), userHandle: userHandle === undefined ? undefined : b64url(userHandle) },
      clientExtensionResults: {},
    };
  }
}

function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return dispatch("POST", path, { body: new URLSearchParams(fields).toString(), headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded", ...headers } });
}

function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return dispatch("POST", path, { body: body === undefined ? null : JSON.stringify(body), headers: { origin: SITE, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers } });
}

/** The options for a new passkey, for `proof` (as the settings page's script sends it: lib/passkeys/register-passkey.ts). */
export const registrationOptions = (session: string, proof: unknown, headers: Record<string, string> = {}) => postJson("/settings/passkeys/options", proof, { ...cookieHeader(session), ...headers });
export const signInOptions = (headers: Record<string, string> = {}) => postJson("/auth/passkey/options", undefined, headers);
export const stepUpOptions = (session: string, approval: unknown) => postJson("/auth/passkey/step-up", { for: approval }, cookieHeader(session));

export const addPasskeyForm = (session: string, name: string, credential: unknown) => postForm("/settings/passkeys/add", { name, credential: JSON.stringify(credential) }, cookieHeader(session));
export const removePasskeyForm = (session: string, id: string) => postForm(`/settings/passkeys/${encodeURIComponent(id)}/remove`, {}, cookieHeader(session));
export const passkeySignInForm = (credential: unknown, query = "") => postForm(`/auth/passkey${query}`, { credential: JSON.stringify(credential) });
export const approvalsSettingForm = (session: string, fields: Record<string, string>) => postForm("/settings/passkeys/approvals", fields, cookieHeader(session));

/** What confirms adding a passkey: the account's password, or an assertion by an authenticator holding one of its passkeys. */
export type AddingProof = { password: string } | { passkey: SoftwareAuthenticator };

/** The proof in the options request's body: an assertion is made for a fresh step-up challenge for "add_passkey". */
export async function proofBody(session: string, proof: AddingProof): Promise<Record<string, unknown>> {
  if ("password" in proof) return { current_password: proof.password };
  const options = await (await stepUpOptions(session, { kind: "add_passkey" })).json();
  return { passkey_assertion: proof.passkey.assert(options) };
}

/** Adds a passkey made by `authenticator` to the account, confirmed by `proof` (the password, for a first passkey); returns its id. */
export async function addedPasskey(session: string, authenticator: SoftwareAuthenticator, name = "laptop", proof: AddingProof = { password: PASSWORD }): Promise<string> {
  const answer = await registrationOptions(session, await proofBody(session, proof));
  if (answer.status !== 200) throw new Error(`the options for a new passkey answered ${answer.status} ${await answer.text()}`);
  const options = await answer.json();
  const response = await addPasskeyForm(session, name, authenticator.register(options));
  const location = response.headers.get("location") ?? "";
  const id = new URL(location, SITE).searchParams.get("added");
  if (response.status !== 303 || id === null) throw new Error(`adding a passkey answered ${response.status} ${location}`);
  return id;
}

/** A step-up assertion for `approval`, as the page's script sends it in the approve form. */
export async function stepUpAssertion(session: string, authenticator: SoftwareAuthenticator, approval: unknown, ceremony: Ceremony = {}): Promise<string> {
  const options = await (await stepUpOptions(session, approval)).json();
  return JSON.stringify(authenticator.assert(options, ceremony));
}
