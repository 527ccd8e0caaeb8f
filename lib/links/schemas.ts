import { z } from "zod";

// Existing clients send 16 random bytes as 32 hexadecimal characters.
const ivSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{32,128}$/, { error: "must be 32 to 128 hexadecimal characters" })
  .transform((iv) => iv.toLowerCase());

export const createLinkParamsSchema = z.object({ projectId: z.string(), iv: ivSchema });

export const projectParamsSchema = z.object({ projectId: z.string() });

export const revokeLinkParamsSchema = z.object({ id: z.string(), linkId: z.string() });

/** The browser approval of a link (docs/api.md, Compatibility): /projects/{id}/link/{iv}. */
export const linkApprovalParamsSchema = z.object({ id: z.string(), iv: ivSchema });

export const isLinkIv = (value: string) => ivSchema.safeParse(value).success;
