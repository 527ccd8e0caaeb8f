"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { NewEndpointAnswer } from "@/lib/events/endpoints";
import { EVENT_TYPE_NAMES, EVENT_TYPES, PERSONAL_EVENT_TYPES, TEAM_EVENT_TYPES, type EventType } from "@/lib/events/event-types";
import { ShownOnce } from "../copy-button";
import { ErrorAlert, FieldError } from "../form-parts";

/** Whose a new endpoint is: the person's own (`team` empty) or a team's they are an admin or owner of. */
export type OwnerChoice = { team: string; label: string };

/** The form's fields, as lib/events/schemas.ts names them. */
const FORM_FIELDS = ["url", "description", "team", "types"] as const;

type FormField = (typeof FORM_FIELDS)[number];

type Problems = Partial<Record<FormField, string>>;

const isFormField = (field: string): field is FormField => (FORM_FIELDS as readonly string[]).includes(field);

/** "must be an https:// URL" as a sentence of its own: "Must be an https:// URL." */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith(".") ? "" : "."}`;

const isAnswer = (body: unknown): body is NewEndpointAnswer =>
  typeof body === "object" &&
  body !== null &&
  "id" in body &&
  typeof body.id === "string" &&
  "secret" in body &&
  typeof body.secret === "string" &&
  "url" in body &&
  typeof body.url === "string";

const errorOf = (body: unknown): string | null =>
  typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : null;

/** The fields the answer names (`fields`: each field and what is wrong with it), or null when it names none or one this form does not have. */
function problemsOf(body: unknown): Problems | null {
  if (typeof body !== "object" || body === null || !("fields" in body) || !Array.isArray(body.fields)) return null;
  const problems: Problems = {};
  for (const entry of body.fields as unknown[]) {
    if (typeof entry !== "object" || entry === null || !("field" in entry) || !("message" in entry)) return null;
    const { field, message } = entry;
    if (typeof field !== "string" || typeof message !== "string" || !isFormField(field)) return null;
    problems[field] ??= sentence(message);
  }
  return Object.keys(problems).length === 0 ? null : problems;
}

/** The types any endpoint may receive; the personal and the team events follow, each under a note saying whose endpoints receive them. */
const ANY_ENDPOINT_TYPES = EVENT_TYPE_NAMES.filter((type) => !TEAM_EVENT_TYPES.includes(type) && !PERSONAL_EVENT_TYPES.includes(type));

function TypeBoxes({ types }: { types: readonly EventType[] }) {
  return types.map((type) => (
    <div key={type} className="event-type">
      <label className="check">
        <input type="checkbox" name="type" value={type} aria-describedby={`event-type-${type}`} /> <code>{type}</code>
      </label>
      <span className="hint" id={`event-type-${type}`}>
        {EVENT_TYPES[type].summary}
      </span>
    </div>
  ));
}

/**
 * The new-endpoint form. It posts with fetch and shows the answer in place, as the new-credential
 * form does: the signing secret is on screen once and never put in a URL, a cookie or a rendered
 * page. The event types' checkboxes go as one field of names separated by spaces
 * (lib/events/schemas.ts); the server refuses team events for a personal endpoint, and a denied or
 * expired request's for a team's.
 */
export function NewEndpointForm({ owners, urlMax, descriptionMax }: { owners: OwnerChoice[]; urlMax: number; descriptionMax: number }) {
  const router = useRouter();
  const [created, setCreated] = useState<NewEndpointAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problems>({});
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const types = data.getAll("type").filter((value) => typeof value === "string");
    setError(null);
    setCreated(null);
    if (types.length === 0) {
      setProblems({ types: "Choose at least one event type." });
      return;
    }
    setProblems({});
    const fields = new URLSearchParams({
      url: String(data.get("url") ?? ""),
      description: String(data.get("description") ?? ""),
      team: String(data.get("team") ?? ""),
      types: types.join(" "),
    });
    setSending(true);
    try {
      const response = await fetch("/webhooks/create", {
        method: "POST",
        body: fields,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        cache: "no-store",
      });
      const body: unknown = await response.json();
      if (response.ok && isAnswer(body)) {
        setCreated(body);
        form.reset();
        router.refresh();
        return;
      }
      const named = problemsOf(body);
      if (named === null) setError(errorOf(body) ?? "The endpoint could not be added. Please try again.");
      else setProblems(named);
    } catch {
      setError("The endpoint could not be added. Check your connection and try again.");
    } finally {
      setSending(false);
    }
  };

  const invalid = (field: FormField) => (problems[field] === undefined ? undefined : true);
  const describedBy = (field: FormField, hint?: string) => [problems[field] === undefined ? null : `${field}-error`, hint].filter(Boolean).join(" ") || undefined;

  return (
    <>
      <form onSubmit={submit} className="card stack" aria-labelledby="new-endpoint-heading">
        <h2 id="new-endpoint-heading">New endpoint</h2>
        <ErrorAlert message={error} />
        <label>
          Endpoint URL
          <input
            name="url"
            type="url"
            required
            maxLength={urlMax}
            autoComplete="off"
            spellCheck={false}
            placeholder="https://api.example.com/webhooks/initlink"
            aria-invalid={invalid("url")}
            aria-describedby={describedBy("url", "url-hint")}
          />
          <FieldError id="url-error" message={problems.url} />
          <span className="hint" id="url-hint">
            Each event is a POST of JSON, signed as Standard Webhooks says; an answer of 2xx within 10 seconds counts as delivered.
          </span>
        </label>
        <label>
          Description (optional)
          <input
            name="description"
            type="text"
            maxLength={descriptionMax}
            autoComplete="off"
            aria-invalid={invalid("description")}
            aria-describedby={describedBy("description")}
          />
          <FieldError id="description-error" message={problems.description} />
        </label>
        {owners.length > 1 ? (
          <label>
            Belongs to
            <select name="team" defaultValue="" aria-invalid={invalid("team")} aria-describedby={describedBy("team", "team-hint")}>
              {owners.map((owner) => (
                <option key={owner.team} value={owner.team}>
                  {owner.label}
                </option>
              ))}
            </select>
            <FieldError id="team-error" message={problems.team} />
            <span className="hint" id="team-hint">
              Personal: the events of your personal projects and your own. A team&apos;s: the events of the team and its projects; its admins and owners manage it.
            </span>
          </label>
        ) : null}
        <fieldset aria-describedby={describedBy("types")}>
          <legend>Events to send</legend>
          <FieldError id="types-error" message={problems.types} />
          <TypeBoxes types={ANY_ENDPOINT_TYPES} />
          <fieldset aria-describedby="personal-events-hint">
            <legend>Personal events</legend>
            <span className="hint" id="personal-events-hint">
              A denied or expired request belongs to no project yet: only a person&apos;s own endpoints receive these.
            </span>
            <TypeBoxes types={PERSONAL_EVENT_TYPES} />
          </fieldset>
          <fieldset aria-describedby="team-events-hint">
            <legend>Team events</legend>
            <span className="hint" id="team-events-hint">
              Only a team&apos;s endpoint receives these.
            </span>
            <TypeBoxes types={TEAM_EVENT_TYPES} />
          </fieldset>
        </fieldset>
        <button type="submit" disabled={sending}>
          {sending ? "Adding…" : "Add endpoint"}
        </button>
      </form>
      {created ? (
        <section className="card stack new-token" aria-labelledby="created-endpoint-heading">
          <h2 id="created-endpoint-heading">Endpoint added</h2>
          <p className="long-words">
            <code className="url">{created.url}</code>
          </p>
          <p className="warning">Copy the signing secret now: it is shown once, never again. If it is lost, rotate the secret on the endpoint&apos;s page.</p>
          <ShownOnce label="Signing secret" copyLabel="Copy secret" value={created.secret} autoFocus />
          <p className="muted">
            Your receiver verifies each request with it, for instance with <code>new Webhook(secret).verify(body, headers)</code> from a Standard Webhooks library.{" "}
            <Link href={`/webhooks/${created.id}`}>Open the endpoint&apos;s page</Link> to send it a test event.
          </p>
        </section>
      ) : null}
    </>
  );
}
