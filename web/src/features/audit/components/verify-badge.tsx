import { Button } from "react-aria-components";
import { dataOf, verifyBadgeView } from "../audit-model.ts";
import { useLogVerification } from "../hooks/use-audit-queries.ts";

/**
 * The log's tamper evidence (issue 14, ADR 0021): the chain is walked only when asked (it may
 * take seconds), and the answer is kept for the visit. The result is announced when it arrives.
 */
export const VerifyBadge = () => {
  const verification = useLogVerification();
  const answer = verification.data;
  const refused = answer && answer.status !== 1 ? answer.message : undefined;
  const view = verifyBadgeView(dataOf(answer));
  return (
    <div className="audit-verify">
      <p className={`audit-badge audit-badge-${view.tone}`} role="status" data-tone={view.tone}>
        {verification.isFetching ? (
          "Verifying the log…"
        ) : refused ? (
          refused
        ) : (
          <>
            <span aria-hidden="true" className="audit-badge-icon">
              {view.icon}
            </span>{" "}
            {view.text}
          </>
        )}
      </p>
      <Button className="button button-small" isDisabled={verification.isFetching} onPress={() => void verification.refetch()}>
        {answer ? "Verify again" : "Verify"}
      </Button>
    </div>
  );
};
