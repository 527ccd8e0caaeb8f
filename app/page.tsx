import Link from "next/link";
import { currentUser } from "@/lib/api/page-session";
import { passwordSignUpOpen } from "@/lib/auth/account-policy";
import { config } from "@/lib/config";
import { listProjects } from "@/lib/projects/projects";
import { groupLabel } from "./project-groups";

/** Projects the signed-in home page lists before "All projects". */
const HOME_PROJECTS = 5;

// The home page: signed out, what this is and the way in; signed in, the person's projects and
// the way to a code their terminal shows. The header already carries the name.
export default async function HomePage() {
  const user = await currentUser();
  if (user === null) return <SignedOutHome />;
  const projects = await listProjects(user.id);
  // listProjects puts the personal ones first; here the newest, whoever's, each with its team.
  const newest = projects.toSorted((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, HOME_PROJECTS);
  return (
    <>
      <h1>Your projects</h1>
      <section className="card stack" aria-labelledby="code-heading">
        <h2 id="code-heading">A command-line tool asks you to log in?</h2>
        <p className="muted">Open the link it printed, or type the code it shows.</p>
        <Link href="/device" className="button">
          Enter a code
        </Link>
      </section>
      {projects.length === 0 ? (
        <p className="muted">No projects yet. Approving a tool from your terminal creates one.</p>
      ) : (
        <ul className="card list">
          {newest.map((project) => (
            <li key={project.id}>
              <Link href={`/projects/${project.id}`}>{project.name}</Link>
              {project.team === null ? null : <span className="muted"> · {groupLabel(project.team)}</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="muted">
        {projects.length > HOME_PROJECTS ? (
          <>
            <Link href="/projects">All {projects.length} projects</Link> ·{" "}
          </>
        ) : null}
        <Link href="/activity">Activity</Link> · <Link href="/docs">API reference</Link>
      </p>
    </>
  );
}

function SignedOutHome() {
  const { name } = config().brand;
  return (
    <>
      <h1>Log in your command-line tools through the browser</h1>
      <p>
        When a tool asks you to log in, {name} shows you who is asking and from where. You approve it into one of your projects, and the tool gets access to that
        project only.
      </p>
      <div className="card stack">
        <h2>Got here from a terminal?</h2>
        <p className="muted">Open the exact link your terminal printed: it leads to a page that shows who is asking. Or sign in and type the code it shows.</p>
        <p>
          <Link href="/signin?returnTo=%2Fdevice" className="button">
            Sign in to enter a code
          </Link>
        </p>
      </div>
      <p className="muted">
        {passwordSignUpOpen(config()) ? (
          <>
            New here? <Link href="/signup">Create an account</Link> ·{" "}
          </>
        ) : null}
        <Link href="/docs">API reference</Link>
      </p>
    </>
  );
}
