import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { POST as deviceAuthorizationRoute } from "@/app/api/oauth/device_authorization/route";
import { POST as tokenRoute } from "@/app/api/oauth/token/route";
import { MAX_FORM_BODY_BYTES } from "@/lib/api/body";
import {
  assertHostile,
  clientHeadersArb,
  dpopHeaderArb,
  expectSuccesses,
  formBodySpecArb,
  formContentTypeArb,
  formPairsArb,
  hostileTextArb,
  HOSTILE_ATOMS,
  NUM_RUNS,
  PROPERTY_TIMEOUT_MS,
  queryArb,
  SEED,
  sendToRoute,
  sometimes,
  type HeaderList,
} from "../../helpers/hostile";
import { hostileProofs, newDpopKey } from "../../helpers/dpop";
import { approvedDevice, deniedDevice, deviceAuthorized, DEVICE_CODE_GRANT } from "../../helpers/oauth";

// Hostile input, property-based: generated form bodies, content types
// and headers (DPoP proofs among them, RFC 9449) thrown at the OAuth endpoints. Every answer is documented, never a 5xx, in OAuth's
// error shape; a refusal writes nothing (a device-code poll's authorization_pending and
// slow_down are polls: tests/helpers/hostile/properties.ts).

const textValue = fc.oneof(
  { arbitrary: fc.string({ minLength: 1, maxLength: 40 }), weight: 4 },
  { arbitrary: fc.constantFrom(...HOSTILE_ATOMS).map(String), weight: 2 },
  { arbitrary: hostileTextArb(), weight: 2 },
  { arbitrary: fc.constantFrom(199, 200, 201).map((length) => "x".repeat(length)), weight: 1 },
);

/** The client's headers, and sometimes a DPoP proof from `proofs`. */
const withDpopArb = (proofs: string[]) =>
  fc.tuple(clientHeadersArb(), sometimes(dpopHeaderArb(proofs))).map(([headers, dpop]): HeaderList => (dpop === undefined ? headers : [...headers, ["dpop", dpop]]));

describe("hostile input: the OAuth endpoints", () => {
  const proofs: Record<string, string[]> = {};
  beforeAll(async () => {
    const key = await newDpopKey();
    proofs.device = await hostileProofs(key, "POST", "/api/oauth/device_authorization");
    proofs.token = await hostileProofs(key, "POST", "/api/oauth/token");
  });

  it(
    `POST /api/oauth/device_authorization answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async () => {
      const pairs = formPairsArb({ client_id: sometimes(fc.oneof({ arbitrary: fc.constant("@acme/cli"), weight: 3 }, { arbitrary: textValue, weight: 2 }), 1), scope: sometimes(textValue) });
      const input = fc.record({ body: formBodySpecArb(pairs, MAX_FORM_BODY_BYTES, "client_id="), contentType: formContentTypeArb(), headers: withDpopArb(proofs.device), query: queryArb() });
      const answered = await assertHostile("POST /api/oauth/device_authorization", input, ({ body, contentType, headers, query }) =>
        sendToRoute(deviceAuthorizationRoute, { method: "POST", path: "/api/oauth/device_authorization", query, params: {}, headers, extra: { "content-type": contentType }, body }),
      );
      expectSuccesses("POST /api/oauth/device_authorization", "200, a device authorization", answered.get(200) ?? 0, 100);
    },
    PROPERTY_TIMEOUT_MS,
  );

  const codes: string[] = [];
  beforeAll(async () => {
    codes.push((await deviceAuthorized()).device_code, (await deniedDevice()).device_code, (await approvedDevice()).device_code);
  });

  it(
    `POST /api/oauth/token answers ${NUM_RUNS} generated requests (seed ${SEED}) as documented, and a refusal writes nothing`,
    async () => {
      const deviceCode = fc.oneof({ arbitrary: fc.constantFrom(0, 1, 2).map((index) => codes[index]), weight: 4 }, { arbitrary: textValue, weight: 1 });
      const grantType = fc.oneof({ arbitrary: fc.constant(DEVICE_CODE_GRANT), weight: 4 }, { arbitrary: fc.constantFrom("authorization_code", "refresh_token", "password", "client_credentials"), weight: 1 }, { arbitrary: textValue, weight: 1 });
      const clientId = fc.oneof({ arbitrary: fc.constant("@acme/cli"), weight: 4 }, { arbitrary: textValue, weight: 1 });
      // An authorization code's fields, none of them a live code (its one use is tests/api/oauth/authorization-code.test.ts's).
      const codeFields = {
        code: sometimes(fc.oneof(fc.constant("ilac_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE"), textValue)),
        redirect_uri: sometimes(fc.oneof(fc.constant("http://127.0.0.1:43117/callback"), textValue)),
        code_verifier: sometimes(fc.oneof(fc.constant("x".repeat(43)), textValue)),
      };
      const pairs = formPairsArb({ grant_type: sometimes(grantType, 1), device_code: sometimes(deviceCode, 1), client_id: sometimes(clientId, 1), ...codeFields });
      const input = fc.record({ body: formBodySpecArb(pairs, MAX_FORM_BODY_BYTES, "grant_type="), contentType: formContentTypeArb(), headers: withDpopArb(proofs.token), query: queryArb() });
      const answered = await assertHostile("POST /api/oauth/token", input, ({ body, contentType, headers, query }) =>
        sendToRoute(tokenRoute, { method: "POST", path: "/api/oauth/token", query, params: {}, headers, extra: { "content-type": contentType }, body, secrets: codes }),
      );
      // The approved code is exchanged once among them: the generated requests reach the grant.
      expectSuccesses("POST /api/oauth/token", "200, the approved code exchanged", answered.get(200) ?? 0, 1);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
