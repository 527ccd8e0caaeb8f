// The wire contract of the initlink API as the README documents it (times in milliseconds since
// the Unix epoch, intervals in milliseconds). Written here, not imported from the app, so that
// the client stands alone.

/** Create Init's body (`POST /api/init`). */
export type CreateInitRequest = {
  /** The client application's id, e.g. `@acme/cli` (1–200 characters). */
  sender: string;
  sender_device?: string | null;
  sender_os?: string | null;
  sender_ip?: string | null;
  /** What the access is for, in the client's own words (up to 140 characters): the page shows it as such. */
  binding_message?: string | null;
  /** True when the client prints `user_code`: the page then asks the person to type it. */
  user_code_shown?: boolean | null;
};

/** Create Init's answer (201). `secret` is the client's alone: never print or log it. */
export type CreatedInit = {
  id: string;
  url: string;
  redirect_url: string;
  interval: number;
  timestamp: number;
  user_code: string;
  expires_at: number;
  secret: string;
};

type StatusFields = {
  id: string;
  /** The time of this answer, by the server's clock. */
  timestamp: number;
  interval: number;
  expires_at: number;
};

export type PendingStatus = StatusFields & { status: "pending" };

/** `team_id`: the project's team (docs/teams.md), null for a personal project; absent from servers before teams. */
export type Project = { id: string; name: string; team_id?: string | null };

/** `GET /api/projects`: the projects an access token reaches, and their teams with the person's role. */
export type TokenProjects = {
  projects: { id: string; name: string; created_at: number; team_id: string | null }[];
  teams: { id: string; name: string; role: "member" | "admin" | "owner" }[];
};

/** An approved init. `project`, `approved_by` and the token are given to the secret's holder only; the token once. */
export type DoneStatus = StatusFields & {
  status: "done";
  project_id: string;
  project_url: string;
  project?: Project;
  /** Who approved, if their account shares their email with clients; null otherwise (the default). */
  approved_by?: { email: string } | null;
  access_token?: string;
  access_token_expires_at?: number;
};

export type DeniedStatus = StatusFields & { status: "denied" };
export type ExpiredStatus = StatusFields & { status: "expired" };

/** `GET /api/init/{id}`'s answer. */
export type InitStatus = PendingStatus | DoneStatus | DeniedStatus | ExpiredStatus;

/** How an init ended. */
export type Outcome = DoneStatus | DeniedStatus | ExpiredStatus;

/** The access token collected after approval, scoped to `project`. */
/** An access token and how it is sent: `DPoP` when it is bound to the client's DPoP key (RFC 9449), else `Bearer`. */
export type AccessToken = { access_token: string; token_type: "Bearer" | "DPoP" };

export type CollectedToken = AccessToken & {
  access_token_expires_at: number;
  project: Project;
  project_url: string;
  /** Null unless the approver's account shares their email with clients. */
  approved_by: { email: string } | null;
};

/** Create Project Link's answer (`POST /api/projects/{projectId}/link/{iv}`), with the `iv` the client chose. */
export type ProjectLink = {
  success: true;
  /** `"Bearer <JWT>"`, ready for an `Authorization` header. */
  bearer: string;
  /** The project's RSA-4096 public key, SubjectPublicKeyInfo PEM. */
  public: string;
  public_fingerprint: string;
  link_id: string;
  expires_at: number;
  iv: string;
};

/** `GET /api/projects/{projectId}` with a link's bearer. */
export type LinkedProject = {
  id: string;
  name: string;
  created_at: number;
  public: string;
  public_fingerprint: string;
  link: { id: string; iv: string; created_at: number; expires_at: number };
};

/** The codes the service answers with (README, API). */
export type ApiErrorCode =
  | "invalid_request"
  | "invalid_json"
  | "duplicate_session_cookie"
  | "invalid_secret"
  | "unauthorized"
  | "invalid_token"
  | "invalid_dpop_proof"
  | "use_dpop_nonce"
  | "link_approval_pending"
  | "link_denied"
  | "link_approval_expired"
  | "cross_site_request"
  | "not_found"
  | "method_not_allowed"
  | "link_conflict"
  | "link_revoked"
  | "payload_too_large"
  | "unsupported_media_type"
  | "slow_down"
  | "rate_limited"
  | "internal_error"
  | "unavailable"
  | "key_not_ready"
  | "server_busy";

/** The codes of failures the client itself finds. */
export type ClientErrorCode =
  /** The init was denied: it yields no token. */
  | "init_denied"
  /** The init expired before anyone approved it. */
  | "init_expired"
  /** The init is still pending: there is no token yet. */
  | "init_pending"
  /** The init is approved but its token was delivered already (to an earlier request with the secret). */
  | "token_already_collected"
  /** The server could not be reached, or the connection broke. */
  | "network_error"
  /** The server answered something that is not the documented JSON. */
  | "invalid_response";

/** A code the service may add later is kept as it came. */
export type ErrorCode = ApiErrorCode | ClientErrorCode | (string & {});

/** The service's error body. */
export type ErrorBody = {
  error: string;
  code: string;
  success?: false;
  fields?: { field: string; message: string }[];
  interval?: number;
};
