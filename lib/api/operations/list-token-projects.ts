import { tokenProjectsSchema } from "../../projects/schemas";
import { operation } from "../operation";

// GET /api/projects — the projects and teams an access token reaches: what a CLI may use after its login
export const listTokenProjectsOperation = operation({
  method: "GET",
  route: "/api/projects",
  auth: "accessToken",
  dpop: true,
  answer: { status: 200 },
  errors: ["malformed_path", "unauthorized", "invalid_token", "invalid_dpop_proof", "use_dpop_nonce", "internal_error"],
  doc: {
    operationId: "listProjects",
    summary: "The projects an access token reaches",
    description:
      "With an access token (`Authorization: Bearer ilat_…`, or `DPoP` with a proof for a bound one): the projects it may link to, as its person reaches them now — the one project of a token made for one, else every personal project of theirs and every project of their teams — and those teams with the person's role (docs/teams.md). A person removed from a team no longer sees its projects.",
    tag: "Project links",
    answers: [{ status: 200, description: "The projects and teams.", json: { name: "TokenProjects", schema: tokenProjectsSchema } }],
  },
});
