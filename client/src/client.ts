import type { KeyObject } from "node:crypto";
import { DpopProver, newDpopKey } from "./dpop.js";
import { InitlinkError } from "./errors.js";
import { randomIv } from "./fingerprint.js";
import { type Answer, bodyAs, errorOf, isRecord, send, sleep } from "./http.js";
import type { AccessToken, CollectedToken, CreatedInit, CreateInitRequest, InitStatus, LinkedProject, Outcome, ProjectLink, TokenProjects } from "./types.js";

export type ClientOptions = {
  /** The service's address, e.g. `https://initlink.example.com` (its `APP_URL`). */
  server: string | URL;
  /** Sent as `User-Agent`; the project page shows it for the linked client. */
  userAgent?: string;
  /**
   * The DPoP key (RFC 9449) the access token is bound to: a private key, ECDSA P-256 or P-384, or
   * Ed25519. By default a new one (newDpopKey); keep it beside the token to use the token later.
   * `false` for a plain bearer token.
   */
  dpopKey?: KeyObject | false;
};

export type WaitProgress = {
  /** Milliseconds until the init expires, by the server's clock at its last answer. */
  remainingMs: number;
  expiresAt: number;
  /** `wait`: requests held by the server (`Prefer: wait`); `poll`: a request every `interval`. */
  mode: "wait" | "poll";
};

export type WaitOptions = {
  signal?: AbortSignal;
  /** Called after every answer that leaves the init pending. */
  onProgress?: (progress: WaitProgress) => void;
  /** False to poll at `interval` even where the server would hold requests. */
  preferWait?: boolean;
};

export type CallOptions = { signal?: AbortSignal };

export type CreateLinkOptions = CallOptions & {
  /** The link's name, 32–128 hex characters; a new random one if absent. The same iv again gets the same link. */
  iv?: string;
  /** How long to keep retrying while a new project's key is generated (`503 key_not_ready`). */
  keyWaitMs?: number;
};

/** The longest the service holds a request (`Prefer: wait`). */
const WAIT_CAP_SECONDS = 60;
/** Network failures and 5xx answers in a row that a wait rides out before it gives up. */
const TRANSIENT_FAILURES = 3;
/** Slow-downs in a row that a single status read waits out. */
const STATUS_RETRIES = 3;
const INIT_STATUSES = new Set(["pending", "done", "denied", "expired"]);

const isTransient = (error: unknown) => error instanceof InitlinkError && (error.code === "network_error" || (error.status !== null && error.status >= 500));

/**
 * The initlink API, for a client that wants a person's approval and then a project link:
 * createInit → (print redirect_url and user_code) → waitForOutcome → collectToken → createLink → getProject.
 */
export class InitlinkClient {
  /** The service's root, ending in "/" so that API paths resolve below it. */
  readonly server: URL;
  readonly #userAgent: string | undefined;
  readonly #dpop: DpopProver | null;

  constructor({ server, userAgent, dpopKey = newDpopKey() }: ClientOptions) {
    const root = new URL(server);
    if (root.protocol !== "http:" && root.protocol !== "https:") throw new TypeError(`Not an http(s) address: ${root.href}`);
    if (!root.pathname.endsWith("/")) root.pathname += "/";
    root.search = "";
    root.hash = "";
    this.server = root;
    this.#userAgent = userAgent;
    this.#dpop = dpopKey === false ? null : new DpopProver(dpopKey);
  }

  /** The project's page, where the person sees its key's fingerprint. */
  projectPage(projectId: string): string {
    return new URL(`projects/${encodeURIComponent(projectId)}`, this.server).href;
  }

  /** Create Init (`POST /api/init`): the init to send the person to. Keep its `secret` to yourself. */
  async createInit(request: CreateInitRequest, { signal }: CallOptions = {}): Promise<CreatedInit> {
    const answer = await this.#send("POST", "api/init", { body: JSON.stringify(request), headers: { "content-type": "application/json" }, signal });
    if (answer.status !== 201) throw errorOf(answer);
    return bodyAs<CreatedInit>(
      answer,
      { id: "string", url: "string", redirect_url: "string", interval: "number", timestamp: "number", user_code: "string", expires_at: "number", secret: "string" },
      "Create Init answer",
    );
  }

  /**
   * Waits until the init is approved, denied or expired. Holds requests open with `Prefer: wait`
   * where the server applies it (an answer as soon as the status changes), else polls at the
   * init's `interval`; a `slow_down` lengthens the interval as it says. It asks with the init's
   * secret, so a `done` outcome carries the access token: hand it to collectToken.
   * Rejects with the signal's reason when aborted.
   */
  async waitForOutcome(init: CreatedInit, { signal, onProgress, preferWait = true }: WaitOptions = {}): Promise<Outcome> {
    let interval = init.interval;
    let remainingMs = init.expires_at - init.timestamp;
    let mode: WaitProgress["mode"] = preferWait ? "wait" : "poll";
    let failures = 0;
    for (;;) {
      const sentAt = Date.now();
      const waitSeconds = Math.min(WAIT_CAP_SECONDS, Math.max(1, Math.ceil(remainingMs / 1000)));
      let answer: Answer;
      try {
        // Every read carries a proof: the one that hands out the token binds it to the key.
        answer = await this.#send("GET", init.url, { headers: { authorization: `Bearer ${init.secret}`, ...(mode === "wait" ? { prefer: `wait=${waitSeconds}` } : {}) }, signal, prove: true });
        if (answer.status >= 500) throw errorOf(answer);
        failures = 0;
      } catch (error) {
        if (!isTransient(error) || ++failures > TRANSIENT_FAILURES) throw error;
        await sleep(interval, signal);
        continue;
      }
      if (answer.status === 429) {
        // RFC 8628 §3.5: slow_down; the body says the interval to keep from now on.
        const refusal = errorOf(answer);
        const suggested = isRecord(answer.body) ? answer.body.interval : undefined;
        if (refusal.code === "slow_down" && typeof suggested === "number") interval = Math.max(interval, suggested);
        await sleep(Math.max(interval, (refusal.retryAfterSeconds ?? 0) * 1000), signal);
        continue;
      }
      const status = this.#statusOf(answer);
      if (status.status !== "pending") return status;
      interval = status.interval;
      remainingMs = status.expires_at - status.timestamp;
      // A server that did not hold the request will not hold the next: poll.
      if (mode === "wait" && !answer.headers.has("preference-applied")) mode = "poll";
      onProgress?.({ remainingMs, expiresAt: status.expires_at, mode });
      // A held request counts as one poll when it arrived: the next may follow once `interval` has passed since.
      await sleep(Math.max(0, sentAt + interval - Date.now()), signal);
    }
  }

  /**
   * The access token of an approved init. Given the outcome of waitForOutcome, takes the token it
   * carries; otherwise (or if it carries none) asks once with the init's secret. The token is
   * delivered once: store it before anything else. Throws `init_denied`, `init_expired`,
   * `init_pending` or `token_already_collected` when there is none to have.
   */
  async collectToken(init: CreatedInit, outcome?: InitStatus, { signal }: CallOptions = {}): Promise<CollectedToken> {
    let status = outcome ?? (await this.#readStatus(init, signal));
    if (status.status === "done" && status.access_token === undefined && outcome !== undefined) status = await this.#readStatus(init, signal);
    switch (status.status) {
      case "denied":
        throw new InitlinkError("init_denied", "The request was denied: it yields no access token.");
      case "expired":
        throw new InitlinkError("init_expired", "The request expired before anyone approved it.");
      case "pending":
        throw new InitlinkError("init_pending", "The request is still waiting for approval.");
      case "done": {
        const { access_token, access_token_expires_at, project, approved_by, project_url } = status;
        if (access_token === undefined) throw new InitlinkError("token_already_collected", "The access token of this request was collected already.");
        if (access_token_expires_at === undefined || project === undefined) {
          throw new InitlinkError("invalid_response", "The server's token pickup is not as documented.");
        }
        return { access_token, token_type: this.#dpop === null ? "Bearer" : "DPoP", access_token_expires_at, project, approved_by: approved_by ?? null, project_url };
      }
    }
  }

  /**
   * Create Project Link (`POST /api/projects/{projectId}/link/{iv}`) with an access token: a
   * string is a bearer token; a collected token (`token_type: "DPoP"`) is sent with a proof of
   * this client's DPoP key. While a new project's key is generated (`503 key_not_ready`) it
   * retries as `Retry-After` says, for up to `keyWaitMs`.
   */
  async createLink(projectId: string, accessToken: string | AccessToken, { iv = randomIv(), keyWaitMs = 60_000, signal }: CreateLinkOptions = {}): Promise<ProjectLink> {
    const path = `api/projects/${encodeURIComponent(projectId)}/link/${encodeURIComponent(iv)}`;
    const { access_token, token_type } = typeof accessToken === "string" ? { access_token: accessToken, token_type: "Bearer" } : accessToken;
    const giveUpAt = Date.now() + keyWaitMs;
    for (;;) {
      const answer = await this.#send("POST", path, { headers: { authorization: `${token_type} ${access_token}` }, signal, prove: token_type === "DPoP", accessToken: access_token });
      if (answer.status === 200) {
        const link = bodyAs<Omit<ProjectLink, "iv">>(answer, { success: "boolean", bearer: "string", public: "string", public_fingerprint: "string", link_id: "string", expires_at: "number" }, "Create Project Link answer");
        return { ...link, iv };
      }
      const error = errorOf(answer);
      const retryInMs = (error.retryAfterSeconds ?? 1) * 1000;
      if (error.code !== "key_not_ready" || Date.now() + retryInMs > giveUpAt) throw error;
      await sleep(retryInMs, signal);
    }
  }

  /**
   * The projects an access token reaches (`GET /api/projects`): the one of a token made for one,
   * else every personal project of its person and every project of their teams, with those teams.
   */
  async listProjects(accessToken: string | AccessToken, { signal }: CallOptions = {}): Promise<TokenProjects> {
    const { access_token, token_type } = typeof accessToken === "string" ? { access_token: accessToken, token_type: "Bearer" } : accessToken;
    const answer = await this.#send("GET", "api/projects", { headers: { authorization: `${token_type} ${access_token}` }, signal, prove: token_type === "DPoP", accessToken: access_token });
    if (answer.status !== 200) throw errorOf(answer);
    return bodyAs<TokenProjects>(answer, { projects: "array", teams: "array" }, "projects");
  }

  /** The project a link's bearer opens (`GET /api/projects/{projectId}`); `bearer` with or without its `Bearer ` prefix. */
  async getProject(projectId: string, bearer: string, { signal }: CallOptions = {}): Promise<LinkedProject> {
    const authorization = bearer.startsWith("Bearer ") ? bearer : `Bearer ${bearer}`;
    const answer = await this.#send("GET", `api/projects/${encodeURIComponent(projectId)}`, { headers: { authorization }, signal });
    if (answer.status !== 200) throw errorOf(answer);
    return bodyAs<LinkedProject>(answer, { id: "string", name: "string", created_at: "number", public: "string", public_fingerprint: "string", link: "object" }, "project");
  }

  /** One status read with the secret, waiting out a slow_down (a poll made just before) as it says. */
  async #readStatus(init: CreatedInit, signal: AbortSignal | undefined): Promise<InitStatus> {
    for (let attempt = 0; ; attempt++) {
      const answer = await this.#send("GET", init.url, { headers: { authorization: `Bearer ${init.secret}` }, signal, prove: true });
      if (answer.status === 200) return this.#statusOf(answer);
      const error = errorOf(answer);
      if (answer.status !== 429 || attempt === STATUS_RETRIES) throw error;
      await sleep((error.retryAfterSeconds ?? 1) * 1000, signal);
    }
  }

  #statusOf(answer: Answer): InitStatus {
    if (answer.status !== 200) throw errorOf(answer);
    const status = bodyAs<InitStatus>(answer, { id: "string", status: "string", timestamp: "number", interval: "number", expires_at: "number" }, "init status");
    if (!INIT_STATUSES.has(status.status)) throw new InitlinkError("invalid_response", `Unknown init status "${status.status}".`, { status: answer.status });
    return status;
  }

  /**
   * One request; with `prove`, it carries a DPoP proof (of `accessToken`, if given). Every answer's
   * `DPoP-Nonce` is kept for the next proof, and a proof refused for want of it is made again, once (§8).
   */
  async #send(method: string, path: string, options: { headers?: Record<string, string>; body?: string; signal?: AbortSignal; prove?: boolean; accessToken?: string }): Promise<Answer> {
    const url = new URL(path, this.server);
    const dpop = options.prove === true ? this.#dpop : null;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { ...(this.#userAgent === undefined ? {} : { "user-agent": this.#userAgent }), ...options.headers };
      if (dpop !== null) headers.dpop = await dpop.proof(method, url, options.accessToken);
      const answer = await send(method, url, { body: options.body, signal: options.signal, headers });
      const newNonce = this.#dpop?.remember(answer.headers) ?? false;
      const askedForNonce = isRecord(answer.body) && answer.body.code === "use_dpop_nonce";
      if (dpop === null || attempt > 0 || !askedForNonce || !newNonce) return answer;
    }
  }
}
