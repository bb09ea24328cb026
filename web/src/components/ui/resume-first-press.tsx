import { useContext, useEffect, useRef, type Context, type RefObject } from "react";
import type { ResumeProps } from "./first-use.tsx";

/** A popup's state as react-aria's MenuTrigger and Select give it to their children. */
interface Opens {
  readonly open: (focusStrategy?: "first" | "last" | null) => void;
}

/**
 * Rendered inside the trigger button of a real control that replaced a stand-in
 * (components/ui/first-use.tsx), with the context its state comes in (RootMenuTriggerStateContext,
 * SelectStateContext): on its first render the trigger takes over from the stand-in. It is
 * hovered if the stand-in was (the browser tells no element that appeared under a still pointer),
 * it takes the focus if the stand-in had it, and the stand-in's first press is done again: a key
 * is pressed again on the trigger; a pointer press opens the popup as it would have (a virtual
 * click with the focus on its first item). Inside the button, not beside it: a Select renders its
 * children twice (once to build its collection, where the button renders nothing), and the press
 * must be done once.
 */
export const ResumeFirstPress = <S extends Opens>({
  resume,
  state,
  ready,
  trigger,
}: ResumeProps & {
  readonly state: Context<S | null>;
  /** Whether the control can answer a press yet (a Select builds its list after its first render, and opens no empty list). */
  readonly ready?: (state: S) => boolean;
  readonly trigger: RefObject<HTMLElement | null>;
}) => {
  const popup = useContext(state);
  const done = useRef(false);
  useEffect(() => {
    const element = trigger.current;
    if (done.current || !resume || !element || !popup || (ready && !ready(popup))) return;
    done.current = true;
    const { focused, hovered, press } = resume;
    if (hovered) element.dispatchEvent(new PointerEvent("pointerover", { bubbles: true, pointerType: "mouse" }));
    if (focused || press) element.focus({ preventScroll: true });
    if (!press) return;
    if ("key" in press) {
      for (const type of ["keydown", "keyup"]) element.dispatchEvent(new KeyboardEvent(type, { key: press.key, bubbles: true, cancelable: true }));
      return;
    }
    popup.open(press.pointerType === "virtual" ? "first" : null);
  }, [resume, trigger, popup, ready]);
  return null;
};
