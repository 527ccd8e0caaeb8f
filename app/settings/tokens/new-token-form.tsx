"use client";

import { useRouter } from "next/navigation";
import { Fragment, useState, type FormEvent } from "react";
import { TOKEN_NAME_MAX } from "@/lib/field-lengths";
import type { NewTokenAnswer } from "@/lib/access-tokens/issue-access-token";
import { CopyButton } from "../../copy-button";
import { ErrorAlert } from "../../form-parts";
import { LocalTime } from "../../local-time";

export type Choice = { value: string; label: string };

/** Choices under a heading (an <optgroup>); `label` null: choices of their own, at the top level. */
export type ChoiceGroup = { label: string | null; choices: Choice[] };

const options = (choices: Choice[]) =>
  choices.map((choice) => (
    <option key={choice.value} value={choice.value}>
      {choice.label}
    </option>
  ));

const isNewTokenAnswer = (body: unknown): body is NewTokenAnswer =>
  typeof body === "object" && body !== null && "token" in body && typeof body.token === "string" && "name" in body && typeof body.name === "string";

const errorOf = (body: unknown): string | null =>
  typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : null;

/**
 * The new-token form. It posts with fetch and shows the answer in place: the token is on screen
 * once and is never put in a URL, a cookie or the page the server renders.
 */
export function NewTokenForm({ scopes, lifetimes, defaultLifetime }: { scopes: ChoiceGroup[]; lifetimes: Choice[]; defaultLifetime: string }) {
  const router = useRouter();
  const [created, setCreated] = useState<NewTokenAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (typeof value === "string") fields.append(name, value);
    }
    setSending(true);
    setError(null);
    setCreated(null);
    try {
      const response = await fetch("/settings/tokens/create", {
        method: "POST",
        body: fields,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        cache: "no-store",
      });
      const body: unknown = await response.json();
      if (response.ok && isNewTokenAnswer(body)) {
        setCreated(body);
        form.reset();
        router.refresh();
      } else {
        setError(errorOf(body) ?? "The token could not be created. Please try again.");
      }
    } catch {
      setError("The token could not be created. Check your connection and try again.");
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <form onSubmit={submit} className="card stack" aria-labelledby="new-token-heading">
        <h2 id="new-token-heading">New token</h2>
        <ErrorAlert message={error} />
        <label>
          Token name
          <input name="name" type="text" required maxLength={TOKEN_NAME_MAX} autoComplete="off" placeholder="e.g. laptop CLI" />
        </label>
        <label>
          Projects
          <select name="scope" defaultValue="all">
            {scopes.map((group, at) =>
              group.label === null ? (
                <Fragment key={at}>{options(group.choices)}</Fragment>
              ) : (
                <optgroup key={at} label={group.label}>
                  {options(group.choices)}
                </optgroup>
              ),
            )}
          </select>
        </label>
        <label>
          Expires
          <select name="lifetime" defaultValue={defaultLifetime}>
            {options(lifetimes)}
          </select>
        </label>
        <button type="submit" disabled={sending}>
          {sending ? "Creating…" : "Create token"}
        </button>
      </form>
      {created ? (
        <section className="card stack new-token" aria-labelledby="created-token-heading">
          <h2 id="created-token-heading">Token “{created.name}” created</h2>
          <p className="warning">Copy it now: it will not be shown again.</p>
          <label>
            New access token
            <input
              type="text"
              className="secret"
              value={created.token}
              readOnly
              autoFocus
              spellCheck={false}
              autoComplete="off"
              onFocus={(event) => event.currentTarget.select()}
            />
          </label>
          <CopyButton text={created.token} label="Copy" />
          <p className="muted">Expires {created.expires_at === null ? "never" : <LocalTime value={new Date(created.expires_at)} />}.</p>
        </section>
      ) : null}
    </>
  );
}
