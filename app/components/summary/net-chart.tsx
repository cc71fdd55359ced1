import { dayLabel, formatNet } from "#api/summary";

export type NetPoint = { date: string; net: number };

/**
 * The 7-day net result as a small bar chart in plain SVG (beyond the spec; issue 9): rendered
 * on the server, no chart JavaScript shipped. Bars above the zero line are green, below red.
 */
export function NetChart({ points }: { points: NetPoint[] }) {
  if (points.length === 0) return null;
  const W = 280;
  const H = 64;
  const pad = 2;
  const max = Math.max(1, ...points.map((p) => Math.abs(p.net)));
  const hasNeg = points.some((p) => p.net < 0);
  const hasPos = points.some((p) => p.net > 0);
  const zero = hasNeg && hasPos ? H / 2 : hasNeg ? pad : H - pad;
  const scale = (hasNeg && hasPos ? H / 2 - pad : H - 2 * pad) / max;
  const slot = W / points.length;
  const bar = Math.max(4, slot * 0.6);
  const label = points.map((p) => `${dayLabel(p.date).day} ${dayLabel(p.date).month}: ${formatNet(p.net)}`).join(", ");
  return (
    <svg
      role="img"
      aria-label={`Net result, last ${points.length} days (FCB): ${label}`}
      viewBox={`0 0 ${W} ${H + 14}`}
      width="100%"
      style={{ maxWidth: W, display: "block" }}
      data-testid="summary-chart"
    >
      <line x1={0} x2={W} y1={zero} y2={zero} stroke="var(--gray-7)" strokeWidth={1} />
      {points.map((p, i) => {
        const h = Math.abs(p.net) * scale;
        const x = i * slot + (slot - bar) / 2;
        const y = p.net >= 0 ? zero - h : zero;
        const { day } = dayLabel(p.date);
        return (
          <g key={p.date}>
            <title>{`${dayLabel(p.date).day} ${dayLabel(p.date).month}: ${formatNet(p.net)}`}</title>
            <rect x={x} y={y} width={bar} height={Math.max(h, p.net === 0 ? 0 : 1)} rx={1} fill={p.net >= 0 ? "var(--green-9)" : "var(--red-9)"} />
            <text x={i * slot + slot / 2} y={H + 12} textAnchor="middle" fontSize={10} fill="var(--gray-11)">
              {day}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
