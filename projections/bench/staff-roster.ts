import { GATEWAYS_STREAM, staffStream, type EventMetadata, type GatewayId, type IsoDateTime, type LandingDomain, type Role, type StaffId } from "@etd/events";
import { gatewayDecider, staffDecider, type GatewayCommand, type GatewaysState, type StaffCommand, type StaffState } from "@etd/write";
import type { Seeded } from "./seeded.ts";
import { streamDraft, type Budget, type PlannedAppend, type StreamDraft } from "./stream-draft.ts";

/*
 * The team and the payment gateways of the workload: who works the orders, and the staff and
 * gateway streams' own events (members added, renamed, promoted, leaving and replaced, passwords
 * changed; gateways registered and switched per domain), decided by the real deciders.
 */

export interface Member {
  readonly id: StaffId;
  name: string;
  role: Role;
  readonly email: string;
  active: boolean;
}

/** Appends for one stream, run in order by one writer. */
export interface StreamWork {
  readonly streamId: string;
  readonly appends: readonly PlannedAppend[];
}

const FIRST = ["Maria", "Jonas", "Aisha", "Paolo", "Rhea", "Miguel", "Liza", "Andre", "Joy", "Ramon", "Grace", "Noel", "Carmela", "Dennis", "Irene", "Felix", "Hana", "Victor", "Tala", "Oscar"];
const LAST = ["Santos", "Reyes", "Cruz", "Bautista", "Garcia", "Mendoza", "Torres", "Flores", "Navarro", "Aquino", "Castillo", "Domingo", "Lim", "Tan", "Ocampo", "Salazar"];

/** The shape of a back office team: a few admins and managers, mostly processing staff. */
const ROLES: readonly (readonly [Role, number])[] = [
  ["Admin", 2],
  ["Manager", 3],
  ["Team", 12],
  ["Telecaller", 4],
  ["Night Staff", 3],
];

const GATEWAYS = [
  ["stripe", "Stripe"],
  ["paypal", "PayPal"],
  ["authorize-net", "Authorize.Net"],
  ["checkout-com", "Checkout.com"],
] as const;

const DOMAINS: readonly LandingDomain[] = ["primary", "secondary"];

export const staffMetadata = (member: Member, at: string, random: Seeded): EventMetadata => ({
  actor: { kind: "staff", id: member.id, name: member.name, role: member.role },
  correlationId: `req-${random.hex(16)}`,
  requestIp: `198.51.100.${random.int(1, 254)}`,
  occurredAt: at as IsoDateTime,
});

export const systemMetadata = (name: string, at: string, random: Seeded, causationId?: string): EventMetadata => ({
  actor: { kind: "system", name },
  correlationId: `${name}-${random.hex(12)}`,
  ...(causationId === undefined ? {} : { causationId }),
  occurredAt: at as IsoDateTime,
});

export interface Roster {
  /** Someone active in one of the roles. */
  pick(roles: readonly Role[]): Member;
  /** The streams' opening events: every member added, the gateways registered and chosen. */
  setup(at: string): StreamWork[];
  /** One change to the team or the gateways, as happens every few days. */
  change(at: string): StreamWork[];
}

export const createRoster = (random: Seeded, budget: Budget): Roster => {
  const members: Member[] = [];
  const drafts = new Map<StaffId, StreamDraft<StaffCommand, StaffState>>();
  const gateways: StreamDraft<GatewayCommand, GatewaysState> = streamDraft(gatewayDecider, GATEWAYS_STREAM, budget, random);
  let hired = 0;

  const newMember = (role: Role): Member => {
    hired++;
    const first = random.pick(FIRST);
    const last = random.pick(LAST);
    const member: Member = {
      id: random.uuid() as StaffId,
      name: `${first} ${last}`,
      role,
      email: `${first}.${last}.${hired}@staff.example.com`.toLowerCase(),
      active: true,
    };
    members.push(member);
    drafts.set(member.id, streamDraft(staffDecider, staffStream(member.id), budget, random));
    return member;
  };
  for (const [role, count] of ROLES) for (let i = 0; i < count; i++) newMember(role);

  const admin = () => members.find((m) => m.active && m.role === "Admin")!;
  const work = (draft: { streamId: string; take: () => PlannedAppend | undefined }): StreamWork[] => {
    const append = draft.take();
    return append ? [{ streamId: draft.streamId, appends: [append] }] : [];
  };
  const add = (member: Member, at: string): StreamWork[] => {
    const draft = drafts.get(member.id)!;
    const by = admin();
    draft.step({ type: "AddStaffMember", staffId: member.id, name: member.name, email: member.email, role: member.role, actor: by === member ? { system: "setup" } : by }, by === member ? systemMetadata("setup", at, random) : staffMetadata(by, at, random));
    return work(draft);
  };

  return {
    pick: (roles) => {
      const candidates = members.filter((m) => m.active && roles.includes(m.role));
      return random.pick(candidates.length > 0 ? candidates : members.filter((m) => m.active));
    },

    setup: (at) => {
      const out = members.flatMap((member) => add(member, at));
      for (const [id, name] of GATEWAYS) gateways.step({ type: "RegisterGateway", gatewayId: id as GatewayId, gatewayName: name }, staffMetadata(admin(), at, random));
      gateways.step({ type: "SelectGateway", gatewayId: "stripe" as GatewayId, domain: "primary" }, staffMetadata(admin(), at, random));
      gateways.step({ type: "SelectGateway", gatewayId: "paypal" as GatewayId, domain: "secondary" }, staffMetadata(admin(), at, random));
      return [...out, ...work(gateways)];
    },

    change: (at) => {
      const by = random.chance(0.5) ? admin() : members.find((m) => m.active && m.role === "Manager") ?? admin();
      const kind = random.weighted([
        ["password", 60],
        ["rename", 10],
        ["role", 12],
        ["turnover", 10],
        ["gateway", 8],
      ] as const);
      if (kind === "gateway") {
        const domain = random.pick(DOMAINS);
        const current = gateways.state.active[domain];
        const next = random.pick(GATEWAYS.filter(([id]) => id !== current))[0];
        gateways.step({ type: "SelectGateway", gatewayId: next as GatewayId, domain }, staffMetadata(admin(), at, random));
        return work(gateways);
      }
      const member = random.pick(members.filter((m) => m.active && m.id !== by.id && m.role !== "Admin"));
      const draft = drafts.get(member.id)!;
      // Only an Admin sets another Manager's password, name or email, or changes a Manager's role (ADR 0027).
      const over = (target: Member) => (target.role === "Manager" && by.role !== "Admin" ? admin() : by);
      if (kind === "password") {
        // The member's own Change Password, or a new one set on the edit form.
        if (random.chance(0.7)) {
          draft.step({ type: "ChangePassword", staffId: member.id, actor: member }, staffMetadata(member, at, random));
        } else {
          const changer = over(member);
          draft.step({ type: "UpdateStaffMember", staffId: member.id, name: member.name, email: member.email, role: member.role, changesPassword: true, actor: changer, team: { admins: 1 } }, staffMetadata(changer, at, random));
        }
        return work(draft);
      }
      if (kind === "rename" || kind === "role") {
        const editor = over(member);
        if (kind === "rename") member.name = `${member.name.split(" ")[0]!} ${random.pick(LAST)}`;
        else member.role = random.pick(["Team", "Telecaller", "Night Staff", "Manager"] as const);
        // A rename to the same name is "no change" for the decider: nothing to append.
        draft.step({ type: "UpdateStaffMember", staffId: member.id, name: member.name, email: member.email, role: member.role, actor: editor, team: { admins: 1 } }, staffMetadata(editor, at, random));
        return work(draft);
      }
      if (!draft.step({ type: "DeleteStaffMember", staffId: member.id, actor: { id: by.id, name: by.name, role: by.role }, team: { admins: 1 } }, staffMetadata(by, at, random))) return [];
      member.active = false;
      return [...work(draft), ...add(newMember(member.role), at)];
    },
  };
};
