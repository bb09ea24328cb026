import { useCallback, useRef, useState, type ComponentType, type ReactNode } from "react";
import { Button, type ButtonProps, type PressEvent } from "react-aria-components";

/*
 * Popup controls whose code is fetched on first use (issue 28, P6). A list page shows a select or
 * a menu on every visit but opens it rarely, and react-aria's popover, list box, menu and overlay
 * positioning cost a queue page ~45 KB gzipped. Until that code is needed a stand-in shows: the
 * same trigger button, same markup and size, so nothing moves when the real control replaces it.
 * Hovering, focusing or pressing the stand-in fetches the code; whatever was pressed before it
 * arrived is done again on the real control, which also takes the focus back, so a press or a key
 * is never lost. Once loaded the real control renders at once everywhere, for the rest of the visit.
 */

/** A popup control's module, fetched once and kept. */
export interface FirstUse<P> {
  readonly loaded: () => ComponentType<P & ResumeProps> | undefined;
  readonly load: () => Promise<ComponentType<P & ResumeProps>>;
}

/** Fetches `load` when first asked (again after a failure), and keeps what it gave. */
export const firstUse = <P,>(load: () => Promise<ComponentType<P & ResumeProps>>): FirstUse<P> => {
  let component: ComponentType<P & ResumeProps> | undefined;
  let pending: Promise<ComponentType<P & ResumeProps>> | undefined;
  return {
    loaded: () => component,
    load: () =>
      (pending ??= load().then(
        (loaded) => (component = loaded),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      )),
  };
};

/** What the member did to the stand-in before the real control arrived: a press (how), or a key the trigger answers. */
export type FirstPress = { readonly pointerType: PressEvent["pointerType"] } | { readonly key: string };

/** Given to the real control when it replaces a stand-in. */
export interface ResumeProps {
  readonly resume?: { readonly focused: boolean; readonly hovered: boolean; readonly press: FirstPress | undefined } | undefined;
}

/**
 * A press older than this when the code arrives is not done again: on a slow link the member has
 * moved on (typing a remark, say), and a menu opening then would take their keys.
 */
const STALE_PRESS_MS = 1_500;

/**
 * The stand-in's side: the real control once loaded (at once when it already is), and the
 * handlers its trigger button needs (StandInButton) to fetch it and remember a first press.
 */
export const useFirstUse = <P,>(control: FirstUse<P>) => {
  const [real, setReal] = useState(() => ({ Component: control.loaded(), resume: undefined as ResumeProps["resume"] }));
  const focused = useRef(false);
  const hovered = useRef(false);
  const press = useRef<{ readonly first: FirstPress; readonly at: number } | undefined>(undefined);
  const want = useCallback(() => {
    control.load().then(
      (Component) => {
        // Done again only while the member is still at the control (its focus or pointer) and soon after.
        const still = press.current && (focused.current || hovered.current) && performance.now() - press.current.at < STALE_PRESS_MS;
        setReal({ Component, resume: { focused: focused.current, hovered: hovered.current, press: still ? press.current?.first : undefined } });
      },
      // The stand-in stays; the next hover, focus or press asks again.
      () => undefined,
    );
  }, [control]);
  const standIn = {
    onHoverChange: (isHovered: boolean) => {
      hovered.current = isHovered;
      if (isHovered) want();
    },
    onFocusChange: (isFocused: boolean) => {
      focused.current = isFocused;
      if (isFocused) want();
    },
    onFirstPress: (first: FirstPress) => {
      press.current = { first, at: performance.now() };
      want();
    },
  };
  return { ...real, standIn };
};

export type StandIn = ReturnType<typeof useFirstUse>["standIn"];

/**
 * The stand-in's trigger: a react-aria Button like the real trigger (so it hovers, focuses and
 * presses alike). `keys` are the keys the real trigger answers (opening it, choosing another
 * option): they are kept for it, as it would keep them from the page's own shortcuts; any other
 * key goes on to the page.
 */
export const StandInButton = ({
  standIn,
  keys,
  children,
  ...props
}: Omit<ButtonProps, "children" | "onPressStart" | "onPress" | "onHoverChange" | "onFocusChange" | "onKeyDown"> & {
  readonly standIn: StandIn;
  readonly keys: readonly string[];
  readonly children: ReactNode;
}) => (
  <Button
    {...props}
    onHoverChange={standIn.onHoverChange}
    onFocusChange={standIn.onFocusChange}
    // As the real triggers open: a mouse or pen on press start, a touch on release; keys below.
    onPressStart={(event) => {
      if (event.pointerType !== "keyboard" && event.pointerType !== "touch") standIn.onFirstPress({ pointerType: event.pointerType });
    }}
    onPress={(event) => {
      if (event.pointerType === "touch") standIn.onFirstPress({ pointerType: event.pointerType });
    }}
    onKeyDown={(event) => {
      if (keys.includes(event.key) && !event.altKey && !event.ctrlKey && !event.metaKey) standIn.onFirstPress({ key: event.key });
      else event.continuePropagation();
    }}
  >
    {children}
  </Button>
);

/** The keys a menu's or a select's trigger answers; a select also moves its choice with the side arrows. */
export const MENU_TRIGGER_KEYS = ["Enter", " ", "ArrowDown", "ArrowUp"] as const;
export const SELECT_TRIGGER_KEYS = [...MENU_TRIGGER_KEYS, "ArrowLeft", "ArrowRight"] as const;
