/// <reference types="vite/client" />
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { PublicApp } from "./public-app.tsx";
import "../styles/public.css";

/*
 * The traveller's pages (PUBLIC-1..3): their own entry (track.html), so a traveller's browser
 * loads React and these pages, none of the console's code, router or query cache.
 */

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <PublicApp />
  </StrictMode>,
);
