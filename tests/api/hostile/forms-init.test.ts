import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { POST as approveRoute } from "@/app/init/[id]/approve/route";
import { POST as denyRoute } from "@/app/init/[id]/deny/route";
import { db } from "@/lib/database/db";
import { PROJECT_NAME_MAX } from "@/lib/field-lengths";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { createdInit } from "../../helpers/api";
import { approve, COOKIE_NAME, deny } from "../../helpers/forms";
import { inProcess } from "../../helpers/in-process";
import { createInit } from "../../helpers/journey.mjs";
import {
  assertHostileForm,
  expectSuccesses,
  formPairsArb,
  HOSTILE_ATOMS,
  hostileTextArb,
  NUM_RUNS,
  pathParam,
  preview,
  PROPERTY_TIMEOUT_MS,
  SEED,
  segmentArb,
  sometimes,
  urlEncoded,
  type BodySpec,
  type FormField,
} from "../../helpers/hostile";
import { anyPost, OWN_PAGE, ownPagePost, postForm, signedInPersonWithProjects, type FormInput } from "../../helpers/hostile-forms";

// Hostile input through HTTP, property-based: generated init ids,
// fields (project, new project name, code check), bodies, content types, origins, cookies and
// headers thrown at the init page's Approve and Deny forms. Seed, number of runs, each form's
// documented codes and the checks: tests/helpers/hostile/ (the declared codes, FORM_WRITES, checkFormAnswer).
// The suite runs with the default INIT_CODE_CHECK=confirm.

// A new project's RSA-4096 key is generated in the background after an approval (a second or
// more of CPU each): most generated approvals choose an existing project, and ProjectKey, written
// whenever a key is done, is not blamed on the request then running (FORM_WRITES).

/** Approvals (a 303 without error=) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_APPROVED = 50;
/** Denials (a 303 without error=) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_DENIED = 165;

type Fixtures = { session: string; signedOut: string; finished: string[]; ownProject: string; othersProject: string };
let fixtures: Fixtures;

beforeAll(async () => {
  const { session, signedOut, ownProject, othersProject } = await signedInPersonWithProjects();
  // Inits that can no longer be decided: done, denied, expired.
  const [done, denied, expired] = [await createdInit(), await createdInit(), await createdInit()];
  const approval = await approve(done.id, session, { project: ownProject, code_confirmed: "yes" });
  if (approval.headers.get("location")?.includes("error")) throw new Error(`approval failed: ${approval.headers.get("location")}`);
  await deny(denied.id, session);
  const prisma = await db();
  await prisma.init.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
  fixtures = { session, signedOut, finished: [done.id, denied.id, expired.id], ownProject, othersProject };
}, 120_000);

/** The init a request names: a fresh pending one (made just before it), or a segment. */
type Target = { fresh: true } | { fresh: false; segment: string; raw: boolean };

type InitFormInput = FormInput & { target: Target };

/** `{userCode}` in a field is the fresh init's code, `{initId}` its id. */
type Fresh = { id: string; userCode: string } | null;

function targetArb(): fc.Arbitrary<Target> {
  return fc.oneof(
    { arbitrary: fc.constant<Target>({ fresh: true }), weight: 3 },
    { arbitrary: fc.record({ fresh: fc.constant<false>(false), segment: segmentArb([...fixtures.finished, fixtures.ownProject]), raw: fc.boolean() }), weight: 2 },
  );
}

/**
 * One in three: signed in, from this site's page, a form (so that the fields, the init's state,
 * the code check and the project choice are what decides); else anything.
 */
function inputArb(fields: fc.Arbitrary<FormField[]>, hugePrefix: string): fc.Arbitrary<InitFormInput> {
  const encoded = fields.map((pairs): BodySpec => ({ kind: "text", text: urlEncoded(pairs) }));
  const decided: fc.Arbitrary<InitFormInput> = fc.record({ target: targetArb(), ...ownPagePost(fc.constantFrom(...OWN_PAGE), fc.constant(`${COOKIE_NAME}={session}`), encoded) });
  const anything: fc.Arbitrary<InitFormInput> = fc.record({ target: targetArb(), ...anyPost(fields, hugePrefix) });
  return fc.oneof({ arbitrary: decided, weight: 1 }, { arbitrary: anything, weight: 2 });
}

/** New project names: ordinary, HTML and script, bidi and control characters, lone surrogates, white space, at and over the limit. */
function projectNameArb(): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constantFrom("Payments API", "@acme/cli", "My app"), weight: 3 },
    {
      arbitrary: fc.constantFrom(
        "<script>alert(1)</script>",
        '"><img src=x onerror=alert(document.cookie)>',
        "</title><script>alert(1)</script>",
        "javascript:alert(1)",
        "{{constructor.constructor('alert(1)')()}}",
        "\u202egnp.exe",
        "a\u0000b",
        "line\nbreak",
        "\ud800",
        "",
        "   ",
        "\u3000",
        "n".repeat(PROJECT_NAME_MAX),
        "n".repeat(PROJECT_NAME_MAX + 1),
        ` ${"n".repeat(PROJECT_NAME_MAX)} `,
        "\ud83d\ude00".repeat(PROJECT_NAME_MAX / 2 + 1),
      ),
      weight: 3,
    },
    { arbitrary: hostileTextArb(), weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

function approveFieldsArb(): fc.Arbitrary<FormField[]> {
  const { ownProject, othersProject, finished } = fixtures;
  return formPairsArb({
    project: fc.oneof(
      { arbitrary: fc.constant("new"), weight: 1 },
      { arbitrary: fc.constant(ownProject), weight: 5 },
      { arbitrary: fc.constant(othersProject), weight: 1 },
      { arbitrary: fc.constantFrom("NEW", "new ", "", "{initId}", finished[0], "n".repeat(101)), weight: 1 },
      { arbitrary: segmentArb([ownProject, othersProject, "new"]), weight: 1 },
      { arbitrary: fc.constant(undefined), weight: 1 },
    ),
    name: projectNameArb(),
    code_confirmed: fc.oneof(
      { arbitrary: fc.constant("yes"), weight: 6 },
      { arbitrary: fc.constantFrom(undefined, "no", "", "YES", "on", "true", "yes ", "1"), weight: 2 },
      { arbitrary: hostileTextArb(), weight: 1 },
    ),
    user_code: sometimes(
      fc.oneof(
        { arbitrary: fc.constantFrom("{userCode}", "AAAA-AAAA", "", "x".repeat(50), "x".repeat(51)), weight: 2 },
        { arbitrary: hostileTextArb(), weight: 1 },
      ),
      2,
    ),
  });
}

type Route = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

function sendInitForm(route: Route, action: "approve" | "deny", input: InitFormInput, fresh: Fresh) {
  const { target, body } = input;
  const { inUrl, param } = target.fresh ? { inUrl: fresh?.id ?? "", param: fresh?.id ?? "" } : pathParam(target.segment, target.raw);
  // The placeholders as typed and as URL-encoded ("{" is "%7B").
  const fill = (text: string) =>
    fresh === null
      ? text
      : text
          .replaceAll("{userCode}", fresh.userCode)
          .replaceAll("%7BuserCode%7D", encodeURIComponent(fresh.userCode))
          .replaceAll("{initId}", fresh.id)
          .replaceAll("%7BinitId%7D", fresh.id);
  const which = target.fresh ? "a fresh pending init" : `id=${JSON.stringify(preview(param))}${target.raw ? " (sent raw)" : ""}`;
  const { session, signedOut } = fixtures;
  return postForm(route, {
    path: `/init/${inUrl}/${action}`,
    params: { id: param },
    shown: `/init/{id}/${action} ${which}`,
    input,
    body: body.kind === "text" ? { ...body, text: fill(body.text) } : body,
    sessions: { session, signedOut },
    secrets: [session, signedOut],
  });
}

/**
 * A fresh pending init for the inputs that name one (a success decides it), made from the
 * address the form is then sent from: the approving browser is on the client's network
 * (proximity, lib/init/proximity.ts; approvals from elsewhere: tests/api/init/proximity.test.ts).
 */
async function freshInit(input: InitFormInput): Promise<Fresh> {
  if (!input.target.fresh) return null;
  const peer = input.headers.find(([name]) => name === PEER_ADDRESS_HEADER)?.[1] ?? "127.0.0.1";
  const init = await createInit(inProcess, { sender: "@acme/cli", sender_device: "hostile" }, { "user-agent": "acme-cli/1.0", [PEER_ADDRESS_HEADER]: peer });
  return { id: init.id, userCode: init.user_code };
}

describe("hostile input through HTTP: the init page's Approve and Deny forms", () => {
  it(
    `POST /init/{id}/approve answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const answers = await assertHostileForm(
        "POST /init/{id}/approve",
        inputArb(approveFieldsArb(), "project=new&code_confirmed=yes&name="),
        (input, fresh: Fresh) => sendInitForm(approveRoute, "approve", input, fresh),
        freshInit,
      );
      expectSuccesses("POST /init/{id}/approve", "303 without error=, an init approved", answers.get("ok") ?? 0, MIN_APPROVED);
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    `POST /init/{id}/deny answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const answers = await assertHostileForm(
        "POST /init/{id}/deny",
        inputArb(formPairsArb({ extra: sometimes(fc.oneof(fc.constantFrom(...HOSTILE_ATOMS), hostileTextArb())) }), "x="),
        (input, fresh: Fresh) => sendInitForm(denyRoute, "deny", input, fresh),
        freshInit,
      );
      expectSuccesses("POST /init/{id}/deny", "303 without error=, an init denied", answers.get("ok") ?? 0, MIN_DENIED);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
