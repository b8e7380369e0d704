// Display formatting only: units for times and sizes, and HTML escaping.

export function formatNs(ns: number): string {
  const abs = Math.abs(ns);
  if (abs >= 1e9) return `${(ns / 1e9).toFixed(abs >= 1e11 ? 0 : 3)} s`;
  if (abs >= 1e6) return `${(ns / 1e6).toFixed(1)} ms`;
  if (abs >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`;
  return `${Math.round(ns)} ns`;
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A mapping coverage share (0..1) as the clients show it: "30.8 %". */
export function formatShare(share: number): string {
  return `${(share * 100).toFixed(1)} %`;
}
