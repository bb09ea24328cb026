/**
 * A counter with one label whose values are known in advance, each shown from 0 (so a rate is
 * defined from the start), in Prometheus text. Not in metrics.ts: /metrics reads the API's
 * dependencies, which hold the code that counts (auth/two-factor-challenge.ts), so the counter
 * stands below both.
 */
export interface LabelledCounter<Label extends string> {
  inc(label: Label): void;
  render(): string[];
}

export const createLabelledCounter = <Label extends string>(name: string, help: string, labelName: string, labels: readonly Label[]): LabelledCounter<Label> => {
  const counts = new Map<Label, number>(labels.map((label) => [label, 0]));
  return {
    inc: (label) => {
      counts.set(label, (counts.get(label) ?? 0) + 1);
    },
    render: () => [`# HELP ${name} ${help}`, `# TYPE ${name} counter`, ...[...counts].map(([label, count]) => `${name}{${labelName}="${label}"} ${count}`)],
  };
};
