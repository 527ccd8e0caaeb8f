import { z } from "zod";
import { signedInUserId } from "../auth/sessions";
import type { Config } from "../config";
import { readFormBody } from "../http/body";
import { redirectResponse } from "../http/response";
import { parseInput } from "../http/validate";
import { projectNameSchema } from "../projects/projects";
import { approveInit, denyInit, type CodeCheck, type ProjectChoice } from "./decide";

const approveFormSchema = z.object({
  project: z.string({ error: "choose a project" }).max(100),
  name: z.string().optional(),
  code_confirmed: z.string().optional(),
  user_code: z.string().max(50).optional(),
});

const newProjectFormSchema = z.object({ name: projectNameSchema });

const signInToDecide = "Sign in to approve or deny.";

export async function approveFromForm(cfg: Config, request: Request, initId: string): Promise<Response> {
  const userId = await signedInUserId(cfg, request.headers, signInToDecide);
  const fields = parseInput(approveFormSchema, Object.fromEntries(await readFormBody(request)));
  const choice: ProjectChoice =
    fields.project === "new" ? { kind: "new", name: parseInput(newProjectFormSchema, fields).name } : { kind: "existing", id: fields.project };
  const check: CodeCheck = { confirmed: fields.code_confirmed === "yes", entered: fields.user_code ?? "" };
  await approveInit(cfg, userId, initId, choice, check);
  return redirectResponse(cfg.appUrl, `/init/${initId}`);
}

export async function denyFromForm(cfg: Config, request: Request, initId: string): Promise<Response> {
  await signedInUserId(cfg, request.headers, signInToDecide);
  await readFormBody(request);
  await denyInit(initId);
  return redirectResponse(cfg.appUrl, `/init/${initId}`);
}
