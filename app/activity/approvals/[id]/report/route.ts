import { reportApprovalOperation } from "@/lib/api/operations/report-approval";
import { route } from "@/lib/api/route";
import { reportApproval } from "@/lib/approvals/report-approval";

export const POST = route(reportApprovalOperation, async ({ cfg, auth: user, params, body, origin }) => {
  const { projectId } = await reportApproval(cfg, user.id, params.id, origin);
  const reported = `reported=${encodeURIComponent(params.id)}`;
  if (body.from === "init") return { to: `/init/${encodeURIComponent(params.id)}` };
  if (body.from === "project" && projectId !== null) return { to: `/projects/${encodeURIComponent(projectId)}?${reported}` };
  return { to: `/activity?${reported}` };
});
