import { z } from "zod";

/** A linked identity, in /settings/identity/{id}/unlink. */
export const identityIdParamsSchema = z.object({ id: z.string() });
