// The time window "Reveal in Perfetto" asks for (nsys/openInPerfetto's window, capture clock). Free of `vscode`, so
// the protocol tests use it against the real server.
import type { FilterWindow, NvtxTreeNode, ProfileInfo } from './protocol/types';

/**
 * The window Perfetto opens on for a node: its (longest) interval with a quarter of its length on each side, so the
 * neighbours show, at least 1 µs each side, clipped to the profile (the server refuses a window outside it).
 */
export function revealWindow(node: Pick<NvtxTreeNode, 'startNs' | 'endNs'>, info?: Pick<ProfileInfo, 'startNs' | 'endNs'>): FilterWindow {
  const pad = Math.max(Math.round((node.endNs - node.startNs) / 4), 1000);
  let start = node.startNs - pad;
  let end = node.endNs + pad;
  if (info && info.endNs > info.startNs) {
    start = Math.max(start, info.startNs);
    end = Math.min(end, info.endNs);
  }
  return { start, end, clock: 'capture_ns' };
}
