import * as client from "openid-client";

/**
 * Your CLI's login: the device authorization grant (RFC 8628) with any OAuth library, here
 * openid-client. `show` prints the link and the code for the person; the answer carries the
 * access token, the refresh token and the project the person chose (project_id).
 */
export async function login(initlink: string, show: (link: string, code: string) => void, options?: client.DiscoveryRequestOptions) {
  const config = await client.discovery(new URL(initlink), "acme-cli", undefined, client.None(), { algorithm: "oauth2", ...options });
  const device = await client.initiateDeviceAuthorization(config, {});
  show(device.verification_uri_complete ?? device.verification_uri, device.user_code);
  return client.pollDeviceAuthorizationGrant(config, device);
}
