// A team member's role (docs/teams.md has the table of who may do what). Each role may do
// everything the one below it may.
export const TEAM_ROLES = ["member", "admin", "owner"] as const;

export type TeamRole = (typeof TEAM_ROLES)[number];

export const isTeamRole = (value: string): value is TeamRole => (TEAM_ROLES as readonly string[]).includes(value);

/** Whether `role` may do what `needed` may. */
export const hasRole = (role: TeamRole, needed: TeamRole): boolean => TEAM_ROLES.indexOf(role) >= TEAM_ROLES.indexOf(needed);

/** The roles that may do what `needed` may, for a database condition. */
export const rolesAtLeast = (needed: TeamRole): TeamRole[] => TEAM_ROLES.filter((role) => hasRole(role, needed));

export const ROLE_LABELS: Record<TeamRole, string> = { member: "Member", admin: "Admin", owner: "Owner" };
