import { cookies } from "next/headers";
import { config } from "../config";
import { sessionCookieName, sessionUser, type SessionUser } from "./sessions";

/** The signed-in person of the page being rendered, or null. */
export async function currentUser(): Promise<SessionUser | null> {
  const jar = await cookies();
  return sessionUser(jar.get(sessionCookieName(config()))?.value);
}
