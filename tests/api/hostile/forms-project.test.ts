import fc from "fast-check";
import { beforeAll, describe, it } from "vitest";
import { POST as renameProjectRoute } from "@/app/projects/[id]/rename/route";
import { PROJECT_NAME_MAX } from "@/lib/field-lengths";
import { COOKIE_NAME } from "../../helpers/forms";
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
  urlEncoded,
  type BodySpec,
} from "../../helpers/hostile";
import { anyPost, OWN_PAGE, ownPagePost, postForm, signedInPersonWithProjects, type FormInput } from "../../helpers/hostile-forms";

// Hostile input through HTTP, property-based: generated project ids, names, bodies, content
// types, origins, cookies and headers thrown at the project page's Rename form. Seed, number of
// runs, the form's documented codes and the checks: tests/helpers/hostile/.

/** Renames (a 303 without error=) of the 1,000 requests, about half the fixed seed's count: a route that refuses everything must fail the property. */
const MIN_RENAMED = 115;

let person: Awaited<ReturnType<typeof signedInPersonWithProjects>>;

beforeAll(async () => {
  person = await signedInPersonWithProjects();
}, 120_000);

type RenameInput = FormInput & { project: { segment: string; raw: boolean } };

describe("hostile input through HTTP: the project page's Rename form", () => {
  it(
    `POST /projects/{id}/rename answers ${NUM_RUNS} generated requests (seed ${SEED}) with a 303 on this site, a documented code, and a refusal writes nothing`,
    async () => {
      const fields = formPairsArb({
        name: fc.oneof(
          { arbitrary: fc.string({ minLength: 1, maxLength: 40 }).filter((name) => name.trim() !== ""), weight: 4 },
          { arbitrary: fc.constantFrom("", "   ", "n".repeat(PROJECT_NAME_MAX), "n".repeat(PROJECT_NAME_MAX + 1), ...HOSTILE_ATOMS), weight: 1 },
          { arbitrary: hostileTextArb(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
      });
      const encoded = fields.map((pairs): BodySpec => ({ kind: "text", text: urlEncoded(pairs) }));
      const post: fc.Arbitrary<FormInput> = fc.oneof(
        { arbitrary: fc.record(ownPagePost(fc.constantFrom(...OWN_PAGE), fc.constant(`${COOKIE_NAME}={session}`), encoded)), weight: 1 },
        { arbitrary: fc.record(anyPost(fields, "name=")), weight: 2 },
      );
      const project = fc.oneof(
        { arbitrary: fc.constant({ segment: person.ownProject, raw: false }), weight: 3 },
        { arbitrary: fc.record({ segment: segmentArb([person.ownProject, person.othersProject]), raw: fc.boolean() }), weight: 2 },
      );
      const answers = await assertHostileForm(
        "POST /projects/{id}/rename",
        fc.tuple(project, post).map(([target, input]): RenameInput => ({ ...input, project: target })),
        (input) => {
          const { inUrl, param } = pathParam(input.project.segment, input.project.raw);
          return postForm(renameProjectRoute, {
            path: `/projects/${inUrl}/rename`,
            params: { id: param },
            shown: `/projects/{id}/rename id=${JSON.stringify(preview(param))}`,
            input,
            sessions: { session: person.session, signedOut: person.signedOut },
            secrets: [person.session, person.signedOut],
          });
        },
      );
      expectSuccesses("POST /projects/{id}/rename", "303 without error=, a project renamed", answers.get("ok") ?? 0, MIN_RENAMED);
    },
    PROPERTY_TIMEOUT_MS,
  );
});
