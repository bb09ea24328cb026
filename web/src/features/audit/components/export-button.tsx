import type { EndpointDeclaration } from "@etd/contract/endpoints";
import { useState } from "react";
import { Button } from "react-aria-components";
import type { CallOf } from "../../../lib/api-client.ts";
import { downloadExport } from "../utils/download-export.ts";

/**
 * A JSON lines export (issue 14: verifiable offline): fetched with the session and handed to the
 * browser as a file. What happened is said in a live region next to the button. `call` is read
 * on the press (undefined: nothing to export yet).
 */
export const ExportButton = <E extends EndpointDeclaration,>({
  label,
  endpoint,
  call,
  fileName,
  isDisabled = false,
}: {
  label: string;
  endpoint: E;
  call: () => CallOf<E> | undefined;
  fileName: string;
  isDisabled?: boolean;
}) => {
  const [state, setState] = useState<{ busy: boolean; message?: string; failed?: boolean }>({ busy: false });
  const run = async () => {
    const target = call();
    if (!target) return;
    setState({ busy: true });
    const result = await downloadExport(endpoint, target, fileName);
    setState("refused" in result ? { busy: false, message: result.refused, failed: true } : { busy: false, message: `Downloaded ${result.fileName} (${result.lines} lines).` });
  };
  return (
    <span className="audit-export">
      <Button
        className="button"
        isDisabled={isDisabled || state.busy}
        onPress={() => void run()}
      >
        {state.busy ? "Exporting…" : label}
      </Button>
      <span role="status" className={state.failed ? "audit-export-message audit-error" : "audit-export-message"}>
        {state.message ?? ""}
      </span>
    </span>
  );
};
