import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";

/*
 * Documents sent per hour, today against the same weekday last week (issue 27), drawn with
 * Recharts. This module is the only one that imports the charting library and is loaded on its
 * own (React.lazy in day-at-a-glance.tsx), so the library is a chunk of its own that only the
 * dashboard fetches. Recharts' accessibility layer makes the chart one tab stop whose arrow keys
 * walk the hours and say each hour's figures; the figure around it names and describes it, and
 * the same numbers are a table beside it for anyone who does not read charts.
 *
 * The two series differ in shape as well as colour (bars, and a dashed line with dots), so
 * colour is never the only way to tell them apart (WCAG 1.4.1); both colours stand out from the
 * white ground by more than 3:1 (WCAG 1.4.11). No animation: the figures are what matters.
 */

export interface SentHourPoint {
  /** "09:00" */
  readonly hour: string;
  readonly today: number;
  readonly lastWeek: number;
}

const TODAY_COLOUR = "#0b4f8a";
const LAST_WEEK_COLOUR = "#4d5766";

export const SentPerHourChart = ({ points, title, description }: { points: readonly SentHourPoint[]; title: string; description: string }) => (
  <ComposedChart
    data={[...points]}
    responsive
    style={{ width: "100%", height: 280 }}
    margin={{ top: 8, right: 8, bottom: 8, left: 0 }}
    accessibilityLayer
    title={title}
    desc={description}
  >
    <CartesianGrid strokeDasharray="3 3" vertical={false} />
    <XAxis dataKey="hour" tick={{ fill: "#4d5766" }} minTickGap={8} />
    <YAxis allowDecimals={false} width={36} tick={{ fill: "#4d5766" }} />
    {/* Today first, as drawn and as the table has it (both sort by name otherwise). */}
    <Tooltip
      labelFormatter={(hour) => (typeof hour === "string" ? `${hour} UTC` : hour)}
      itemSorter={(item) => (item.dataKey === "today" ? 0 : 1)}
      isAnimationActive={false}
    />
    <Legend itemSorter={null} />
    <Bar dataKey="today" name="Today" fill={TODAY_COLOUR} isAnimationActive={false} />
    <Line
      dataKey="lastWeek"
      name="Same weekday last week"
      stroke={LAST_WEEK_COLOUR}
      strokeWidth={2}
      strokeDasharray="6 3"
      dot={{ r: 3, fill: LAST_WEEK_COLOUR }}
      isAnimationActive={false}
    />
  </ComposedChart>
);
