import { config } from "@/lib/config";

export default function HomePage() {
  const { name } = config().brand;
  return (
    <>
      <h1>{name}</h1>
      <p>
        {name} lets a command-line or API client hand you over to the browser to approve it, then links the
        client to one of your projects.
      </p>
      <div className="card">
        <h2>Got here from a terminal?</h2>
        <p className="muted">
          Open the exact link your terminal printed. It ends in a long code and leads to a page that shows who is asking.
        </p>
      </div>
    </>
  );
}
