import { notFound } from "next/navigation";
import { ApiError } from "@/lib/errors";
import { teamView, type TeamView } from "@/lib/teams/teams";

// What the teams' pages share.

/** "1 member", "3 members". */
export const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/** What `reading` finds; Next's not-found page for what lib/teams refuses as not_found (a team the person is not in reads as none). */
export async function orNotFound<T>(reading: Promise<T>): Promise<T> {
  try {
    return await reading;
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") notFound();
    throw error;
  }
}

/** The team as `userId` sees it, or the not-found page. */
export const teamOrNotFound = (userId: string, teamId: string): Promise<TeamView> => orNotFound(teamView(userId, teamId));
