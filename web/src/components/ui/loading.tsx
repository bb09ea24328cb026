/** What a screen shows while its route loads (the router shows it after a short wait). */
export const Loading = () => (
  <p className="admin-loading" role="status">
    Loading…
  </p>
);
