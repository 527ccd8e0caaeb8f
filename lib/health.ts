import { z } from "zod";
import { db } from "./database/db";
import { ApiError } from "./errors";

/** The answers of readiness (GET /api/health) and liveness (GET /api/live). */
export const healthAnswerSchema = z.object({ ok: z.literal(true), database: z.literal("up") }).meta({ examples: [{ ok: true, database: "up" }] });
export const liveAnswerSchema = z.object({ ok: z.literal(true) }).meta({ examples: [{ ok: true }] });

const HEALTH_TIMEOUT_MS = 2000;

/** Readiness: the database answers a query within two seconds; a 503 otherwise. */
export async function checkHealth(): Promise<z.infer<typeof healthAnswerSchema>> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), HEALTH_TIMEOUT_MS);
  });
  try {
    const prisma = await Promise.race([db(), timeout]);
    await Promise.race([prisma.$queryRaw`SELECT 1`, timeout]);
    return { ok: true, database: "up" };
  } catch {
    throw new ApiError("unavailable", "The database does not answer.", { retryInSeconds: 5 });
  } finally {
    clearTimeout(timer);
  }
}
