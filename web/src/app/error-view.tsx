import { Link, useRouter, type ErrorComponentProps } from "@tanstack/react-router";
import { Button } from "react-aria-components";

/** A screen that failed to load or render: say so, offer a retry, never a blank page. */
export const ErrorView = ({ error, reset }: ErrorComponentProps) => {
  const router = useRouter();
  console.error(error);
  return (
    <section className="page error-view" role="alert">
      <h1 className="page-title">Something went wrong</h1>
      <p>This screen could not be shown. Please try again.</p>
      <div className="toolbar">
        <Button
          className="button button-primary"
          onPress={() => {
            reset();
            void router.invalidate();
          }}
        >
          Try again
        </Button>
        <Link to="/admin" className="button">
          Back to the dashboard
        </Link>
      </div>
    </section>
  );
};

export const NotFoundView = () => (
  <section className="page not-found">
    <h1 className="page-title">Page not found</h1>
    <p>There is no page at this address.</p>
    <Link to="/admin" className="button">
      Back to the dashboard
    </Link>
  </section>
);
