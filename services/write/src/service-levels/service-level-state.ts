import { DEFAULT_POLICY, type PolicyTerms, type ServiceLevelEvent } from "@etd/events";

/** The policy in force now: the default (version 0) until an Admin sets one. */
export type ServiceLevelState = PolicyTerms;

export const initialServiceLevelState: ServiceLevelState = DEFAULT_POLICY;

export const evolveServiceLevels = (_state: ServiceLevelState, event: ServiceLevelEvent): ServiceLevelState => {
  switch (event.type) {
    case "ServiceLevelPolicySet":
      return { version: event.data.version, allowedMinutes: event.data.allowedMinutes };
  }
};
