/*
 * The translation widget (PUBLIC-3): a third-party script, loaded only when the server names one
 * (TRANSLATE_WIDGET_URL, written into the page's <meta name="translate-widget">) and only after
 * the page has shown, so it never delays the tracker. The server's Content-Security-Policy allows
 * its origin on these pages only then. Google's widget calls back the function its URL names
 * (`?cb=translateWidgetInit`): that callback is defined here, so no inline script is needed.
 */

export const WIDGET_ELEMENT_ID = "translate-widget";

interface GoogleTranslate {
  readonly google?: { readonly translate?: { readonly TranslateElement?: new (options: object, elementId: string) => unknown } };
  translateWidgetInit?: () => void;
}

export const configuredWidget = (): string | undefined => {
  const url = document.querySelector<HTMLMetaElement>('meta[name="translate-widget"]')?.content.trim();
  return url ? url : undefined;
};

let loaded = false;

export const loadTranslateWidget = (): void => {
  const url = configuredWidget();
  if (url === undefined || loaded) return;
  loaded = true;
  const host = window as unknown as GoogleTranslate;
  host.translateWidgetInit = () => {
    const TranslateElement = host.google?.translate?.TranslateElement;
    if (TranslateElement) new TranslateElement({ pageLanguage: "en" }, WIDGET_ELEMENT_ID);
  };
  const script = document.createElement("script");
  script.src = url;
  script.async = true;
  document.head.append(script);
};
