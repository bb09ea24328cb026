import { Link, useRouter, type ErrorComponentProps } from "@tanstack/react-router";

/** A screen that failed to load or render: say so, offer a retry, never a blank page. */
export const ErrorView = ({ error, reset }: ErrorComponentProps) => {
  const router = useRouter();
  console.error(error);
  return (
    <section className="page error-view" role="alert">
      <h1 className="page-title">Something went wrong</h1>
      <p>This screen could not be shown. Please try again.</p>
      <div className="toolbar">
        {/* A plain button: this view must show even when a screen's code (and its components) failed to load. */}
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          Try again
        </button>
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
