import type { TeamMember } from "../../../lib/team-members.ts";

/*
 * The pieces both audit forms share (queue at a moment, staff activity): a team member select and
 * the line saying what is wrong with the form.
 */

export const StaffSelect = ({
  id,
  label,
  emptyLabel,
  members,
  value,
  onChange,
}: {
  id: string;
  label: string;
  /** The first option, chosen while no member is. */
  emptyLabel: string;
  members: readonly TeamMember[];
  value: string;
  onChange: (staffId: string) => void;
}) => (
  <div className="field">
    <label className="label" htmlFor={id}>
      {label}
    </label>
    <select id={id} name="staffId" className="input" value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">{emptyLabel}</option>
      {members.map((member) => (
        <option key={member.id} value={member.id}>
          {member.name} ({member.type})
        </option>
      ))}
    </select>
  </div>
);

export const FormProblem = ({ problem }: { problem: string | undefined }) =>
  problem ? (
    <p className="field-error audit-form-problem" role="alert">
      {problem}
    </p>
  ) : null;
