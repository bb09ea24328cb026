import { useEffect, useEffectEvent } from "react";

/*
 * The queues' keyboard (issue 16 part C, after Zammad's and Gmail's): j/k or the arrow keys move
 * the current row, Enter opens it, x selects it, a assigns to me, n takes the next order (issue 27),
 * / goes to the search box and ? lists the shortcuts. A key is a shortcut only when nobody is typing
 * and no dialog is open: a letter typed in the search box, a select or a rich-text field stays a
 * letter.
 */

export type QueueKeyCommand = "next" | "previous" | "open" | "toggle" | "assign" | "takeNext" | "search" | "help";

export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
}

/** The command a key press asks for, or undefined when it is no shortcut (modifier chords never are: they belong to the browser). */
export const queueKeyCommand = ({ key, ctrlKey, metaKey, altKey }: KeyPress): QueueKeyCommand | undefined => {
  if (ctrlKey || metaKey || altKey) return undefined;
  switch (key) {
    case "j":
    case "ArrowDown":
      return "next";
    case "k":
    case "ArrowUp":
      return "previous";
    case "Enter":
      return "open";
    case "x":
      return "toggle";
    case "a":
      return "assign";
    case "n":
      return "takeNext";
    case "/":
      return "search";
    case "?":
      return "help";
    default:
      return undefined;
  }
};

/** Where typing happens: a key pressed there is text, never a shortcut. */
const TYPING =
  "input:not([type='checkbox']):not([type='radio']):not([type='button']):not([type='submit']):not([type='reset']), select, textarea, [contenteditable]:not([contenteditable='false']), [role='textbox'], [role='combobox'], [role='listbox'], [role='menu']";
/** Where Enter or Space already means something (press the button, follow the link, tick the box). */
const PRESSABLE = "button, a[href], input[type='checkbox'], input[type='radio'], label, [role='button'], [role='link'], [role='checkbox'], [role='tab'], summary";
/** An open dialog owns the keyboard until it closes. */
const DIALOG = "[role='dialog'], [role='alertdialog'], [aria-modal='true']";

const elementOf = (target: EventTarget | null): Element | null => (target instanceof Element ? target : null);

/** Whether a key press at `target` is someone typing (or inside a dialog), so no shortcut runs. */
export const isTypingAt = (target: EventTarget | null): boolean => {
  const element = elementOf(target);
  if (element === null) return false;
  if (element instanceof HTMLElement && element.isContentEditable) return true;
  return element.closest(TYPING) !== null || element.closest(DIALOG) !== null;
};

/** Whether any dialog is open on the page now. */
export const isDialogOpen = (doc: Document): boolean => doc.querySelector(DIALOG) !== null;

/**
 * Listens on the document while `enabled`: each shortcut reaches `run`, after the checks above.
 * Enter keeps its own meaning on a focused button, link or checkbox: it presses, follows or ticks it.
 */
export const useQueueKeyboard = (enabled: boolean, run: (command: QueueKeyCommand) => void): void => {
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.isComposing) return;
    const command = queueKeyCommand(event);
    if (command === undefined) return;
    if (isTypingAt(event.target) || isDialogOpen(document)) return;
    if (command === "open" && elementOf(event.target)?.closest(PRESSABLE)) return;
    // "/" would start the browser's quick find, the arrows would scroll the page: the shortcut wins.
    event.preventDefault();
    run(command);
  });
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, [enabled]);
};
