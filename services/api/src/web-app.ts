import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express from "express";

/*
 * The built React app (web/dist) served by the API process, so `npm start` is the whole product
 * on one port. Every path that is not the API's, the metrics' or a file's gets index.html, so a
 * deep link (/admin/view-order/100234, /track-order/…) opens the app, whose router takes over.
 * Vite names assets by content hash: they never change, so browsers keep them for a year;
 * index.html names the current ones, so it is revalidated on every load.
 */

export const WEB_DIST = fileURLToPath(new URL("../../../web/dist", import.meta.url));

/** Paths the app never answers with index.html: a missing asset must stay a 404, not HTML. */
const NOT_THE_APP = /^\/(api|metrics|uploads|assets)(\/|$)/;

const IMMUTABLE = "public, max-age=31536000, immutable";

let hinted = false;

/** Mounts the app when it has been built; otherwise says how to build it, once per process. */
export const mountWebApp = (app: express.Express, dist: string = WEB_DIST): void => {
  const indexFile = path.join(dist, "index.html");
  if (!existsSync(indexFile)) {
    if (!hinted) console.warn(`The web app is not built (${indexFile} is missing): run \`npm run build -w @etd/web\` to serve it.`);
    hinted = true;
    return;
  }
  app.use(
    express.static(dist, {
      index: false,
      setHeaders: (res, file) => {
        const isAsset = path.relative(dist, file).split(path.sep)[0] === "assets";
        res.setHeader("cache-control", isAsset ? IMMUTABLE : "no-cache");
      },
    }),
  );
  app.use((req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || NOT_THE_APP.test(req.path)) {
      next();
      return;
    }
    res.setHeader("cache-control", "no-cache");
    res.sendFile(indexFile, (error) => {
      if (error) next(error);
    });
  });
};
