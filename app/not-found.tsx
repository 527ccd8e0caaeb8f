import Link from "next/link";

export default function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>There is nothing at this address. If a terminal sent you here, check that you opened the whole link.</p>
      <p>
        <Link href="/">Go to the home page</Link>
      </p>
    </>
  );
}
