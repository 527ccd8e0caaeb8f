import { z } from "zod";

/** The page a report form returns to, where it shows what was revoked. */
export const reportApprovalFormSchema = z.object({ from: z.enum(["activity", "project", "init"]).default("activity") });

export type ReportReturn = z.infer<typeof reportApprovalFormSchema>["from"];
