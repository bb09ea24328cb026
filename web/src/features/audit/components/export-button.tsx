import { useState } from "react";
import { Button } from "react-aria-components";
import { downloadExport } from "../api/audit-queries.ts";

/**
 * A JSON lines export (issue 14: verifiable offline): fetched with the session and handed to the
 * browser as a file. What happened is said in a live region next to the button.
 */
export const ExportButton = ({ label, apiPath, fileName, isDisabled = false }: { label: string; apiPath: () => string | undefined; fileName: string; isDisabled?: boolean }) => {
  const [state, setState] = useState<{ busy: boolean; message?: string; failed?: boolean }>({ busy: false });
  const run = async () => {
    const target = apiPath();
    if (!target) return;
    setState({ busy: true });
    const result = await downloadExport(target, fileName);
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
