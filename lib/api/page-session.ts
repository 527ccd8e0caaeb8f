import { headers } from "next/headers";
import { cache } from "react";
import { config } from "../config";
import { ApiError } from "../errors";
import { requestOrigin } from "./client-address";
import { sessionTokenFromCookieHeader } from "./session-cookie";
import { sessionUser, type SessionUser } from "../auth/sessions";

/** The session of the page being rendered: its person, or null; and whether the browser sent two session cookies. */
export type PageSession = { user: SessionUser | null; duplicateCookie: boolean };

/**
 * Read with the routes' own parser (lib/api/session-cookie.ts), so a page never shows one
 * person while its forms act as another. Two session cookies: the page is signed out, as every
 * route refuses such a request (400 duplicate_session_cookie); it shows no form that would then
 * fail, and says why. Cached per request: the layout and the page both ask.
 */
export const pageSession = cache(async (): Promise<PageSession> => {
  const jar = await headers();
  try {
    const cfg = config();
    const token = sessionTokenFromCookieHeader(cfg, jar.get("cookie"));
    return { user: await sessionUser(token, requestOrigin(cfg, new Headers(jar))), duplicateCookie: false };
  } catch (error) {
    if (error instanceof ApiError && error.code === "duplicate_session_cookie") return { user: null, duplicateCookie: true };
    throw error;
  }
});

/** The signed-in person of the page being rendered, or null. */
export const currentUser = async (): Promise<SessionUser | null> => (await pageSession()).user;
