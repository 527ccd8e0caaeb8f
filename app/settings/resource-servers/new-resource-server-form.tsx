"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { TOKEN_NAME_MAX } from "@/lib/field-lengths";
import type { NewResourceServerAnswer } from "@/lib/resource-servers/manage-resource-servers";
import { ShownOnce } from "../../copy-button";
import { ErrorAlert } from "../../form-parts";

type Project = { id: string; name: string };

/** Projects under a heading (a legend): "Personal" or a team's name; `label` null for none, when no project is a team's. */
export type ProjectChoiceGroup = { key: string; label: string | null; projects: Project[] };

function ProjectBoxes({ projects, checked }: { projects: Project[]; checked: boolean }) {
  return projects.map((project) => (
    <label className="check" key={project.id}>
      <input type="checkbox" name="project" value={project.id} defaultChecked={checked} /> {project.name}
    </label>
  ));
}

const isAnswer = (body: unknown): body is NewResourceServerAnswer =>
  typeof body === "object" && body !== null && "client_id" in body && typeof body.client_id === "string" && "client_secret" in body && typeof body.client_secret === "string";

const errorOf = (body: unknown): string | null =>
  typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : null;

/**
 * The new-credential form. It posts with fetch and shows the answer in place, as the new-token
 * form does: the secret is on screen once and never put in a URL, a cookie or a rendered page.
 * The projects' checkboxes go as one field of ids separated by spaces (lib/resource-servers/schemas.ts).
 */
export function NewResourceServerForm({ groups, introspectionEndpoint }: { groups: ProjectChoiceGroup[]; introspectionEndpoint: string }) {
  // One project in all: ticked already.
  const only = groups.reduce((count, group) => count + group.projects.length, 0) === 1;
  const router = useRouter();
  const [created, setCreated] = useState<NewResourceServerAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const chosen = data.getAll("project").filter((value) => typeof value === "string");
    if (chosen.length === 0) {
      setError("Choose at least one project it may check.");
      return;
    }
    const fields = new URLSearchParams({ name: String(data.get("name") ?? ""), projects: chosen.join(" ") });
    setSending(true);
    setError(null);
    setCreated(null);
    try {
      const response = await fetch("/settings/resource-servers/create", {
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
      } else {
        setError(errorOf(body) ?? "The credential could not be created. Please try again.");
      }
    } catch {
      setError("The credential could not be created. Check your connection and try again.");
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <form onSubmit={submit} className="card stack" aria-labelledby="new-credential-heading">
        <h2 id="new-credential-heading">New credential</h2>
        <ErrorAlert message={error} />
        <label>
          Credential name
          <input name="name" type="text" required maxLength={TOKEN_NAME_MAX} autoComplete="off" placeholder="e.g. payments API, production" />
        </label>
        <fieldset>
          <legend>Projects it may check</legend>
          {groups.map((group) =>
            group.label === null ? (
              <ProjectBoxes key={group.key} projects={group.projects} checked={only} />
            ) : (
              <fieldset key={group.key}>
                <legend>{group.label}</legend>
                <ProjectBoxes projects={group.projects} checked={only} />
              </fieldset>
            ),
          )}
        </fieldset>
        <button type="submit" disabled={sending}>
          {sending ? "Creating…" : "Create credential"}
        </button>
      </form>
      {created ? (
        <section className="card stack new-token" aria-labelledby="created-credential-heading">
          <h2 id="created-credential-heading">Credential “{created.name}” created</h2>
          <p className="warning">Copy the secret now: it will not be shown again.</p>
          <ShownOnce label="Client ID" copyLabel="Copy client ID" value={created.client_id} />
          <ShownOnce label="Client secret" copyLabel="Copy secret" value={created.client_secret} autoFocus />
          <p className="muted">
            Your API sends them as HTTP Basic credentials (<code>client_secret_basic</code>) to <code className="url">{introspectionEndpoint}</code>. It may check{" "}
            {created.projects.map((project) => project.name).join(", ")}.
          </p>
        </section>
      ) : null}
    </>
  );
}
