/*
 * Puppeteer's settings for this repository. PDFs are rendered by the system's Chromium
 * (Debian's /usr/bin/chromium, or CHROMIUM_PATH), so `npm install` must not download a browser
 * of its own: the install script is also disabled under package.json's `allowScripts`, and this
 * file keeps it from downloading should it ever run.
 */
module.exports = {
  skipDownload: true,
  chrome: { skipDownload: true },
  "chrome-headless-shell": { skipDownload: true },
  firefox: { skipDownload: true },
};
