import { cookies } from "next/headers";
import { cache } from "react";
import { config } from "../config";
import { sessionCookieName } from "./session-cookie";
import { sessionUser, type SessionUser } from "./sessions";

/**
 * The signed-in person of the page being rendered, or null. Cached per request: the layout and
 * the page both ask, and the session is looked up once.
 */
export const currentUser = cache(async (): Promise<SessionUser | null> => {
  const jar = await cookies();
  return sessionUser(jar.get(sessionCookieName(config()))?.value);
});
