import { dispatch } from "./in-process";
import { approve, deny, newAccount } from "./forms";

// The OAuth endpoints through the real route handlers (tests/helpers/in-process.ts), as a
// public client sends them: form fields (RFC 6749 §3.2, RFC 8628 §3.1).

export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
export const CLIENT_ID = "@acme/cli";

/** `headers` adds to a public client's (a `DPoP` proof). */
const form = (fields: Record<string, string> | string, headers: Record<string, string> = {}) => ({
  body: typeof fields === "string" ? fields : new URLSearchParams(fields).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "acme-cli/1.0", ...headers },
});

export const postDeviceAuthorization = (fields: Record<string, string> | string, headers: Record<string, string> = {}) =>
  dispatch("POST", "/api/oauth/device_authorization", form(fields, headers));
export const postToken = (fields: Record<string, string> | string, headers: Record<string, string> = {}) => dispatch("POST", "/api/oauth/token", form(fields, headers));

export type DeviceAuthorization = { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; expires_in: number; interval: number };

export async function deviceAuthorized(clientId = CLIENT_ID, headers: Record<string, string> = {}): Promise<DeviceAuthorization & { initId: string }> {
  const response = await postDeviceAuthorization({ client_id: clientId }, headers);
  if (response.status !== 200) throw new Error(`device authorization answered ${response.status}: ${await response.text()}`);
  const answer = (await response.json()) as DeviceAuthorization;
  return { ...answer, initId: answer.verification_uri_complete.split("/").at(-1) ?? "" };
}

export const exchange = (deviceCode: string, clientId = CLIENT_ID, headers: Record<string, string> = {}) =>
  postToken({ grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: clientId }, headers);

/** A new person approves the device authorization (sent with `headers`) into a new project, typing its code. */
export async function approvedDevice(name = "Device app", headers: Record<string, string> = {}) {
  const device = await deviceAuthorized(CLIENT_ID, headers);
  const person = await newAccount();
  const answer = await approve(device.initId, person.token, { project: "new", name, user_code: device.user_code });
  if (answer.status !== 303 || (answer.headers.get("location") ?? "").includes("error=")) throw new Error(`approval refused: ${answer.headers.get("location")}`);
  return { ...device, person };
}

/** A new person denies it. */
export async function deniedDevice() {
  const device = await deviceAuthorized();
  const person = await newAccount();
  await deny(device.initId, person.token);
  return device;
}
