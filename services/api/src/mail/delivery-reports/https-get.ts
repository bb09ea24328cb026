/*
 * The network edge of the SNS webhook: fetching a signing certificate and visiting a
 * SubscribeURL. Only URLs that passed the SNS host rule (sns.ts) get here; both are injected
 * (settings.ts) so tests serve their own certificate.
 */

/** The HTTPS GET both SNS URLs need, bounded in time and size; redirects are not followed. */
const get = async (url: string): Promise<string> => {
  const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  if (text.length > 64 * 1024) throw new Error(`GET ${url} answered more than 64 KB`);
  return text;
};

/** The real certificate fetch: HTTPS, whose own check of the server is what makes the host rule mean anything. */
export const fetchCertificateOverHttps = (url: string): Promise<string> => get(url);

/** Confirms a subscription by visiting its SubscribeURL, as SNS asks. */
export const visitSubscribeUrl = async (url: string): Promise<void> => {
  await get(url);
};
