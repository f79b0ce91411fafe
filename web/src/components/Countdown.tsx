import { useEffect, useState } from "react";

export function remaining(deadline: string, now: number): string {
  const ms = Date.parse(deadline) - now;
  if (Number.isNaN(ms)) return "";
  if (ms <= 0) return "deadline passed: processing soon";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  if (d > 0) return `${d} d ${h} h left`;
  if (h > 0) return `${h} h ${m} min left`;
  return `${m} min ${String(sec).padStart(2, "0")} s left`;
}

/** Time to the phase's deadline, ticking each second. */
export function Countdown({ deadline, paused }: { deadline: string | null; paused: boolean }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (paused) return <span className="countdown paused">paused</span>;
  if (!deadline) return <span className="countdown none">no deadline</span>;
  const left = remaining(deadline, now);
  const urgent = Date.parse(deadline) - now < 3600_000;
  return (
    <span className={`countdown ${urgent ? "urgent" : ""}`} title={new Date(deadline).toLocaleString()}>
      <time dateTime={deadline}>{left}</time>
    </span>
  );
}
