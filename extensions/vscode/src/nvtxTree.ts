// The NVTX tree view: the profile's NVTX hierarchy per thread, one level per nsys/nvtxTree request, asked only when
// a node is expanded. It shows the profile the registry shows (the active view) and starts over when that changes.
import * as path from 'path';
import * as vscode from 'vscode';
import { errorMessage, Unsupported } from './protocol/client';
import type { NvtxTreeNode } from './protocol/types';
import { ProfileDocument, Services } from './profiles';
import { formatCount, formatNs } from './view/format';

export { revealWindow } from './reveal';

export const TREE_VIEW_ID = 'nsysAi.nvtxTree';

/** An element of the tree: a server node, or a line of text (an error, "more were cut"). */
export type TreeElement =
  | { type: 'node'; doc: ProfileDocument; node: NvtxTreeNode }
  | { type: 'message'; text: string; tooltip?: string };

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The short line beside a node's name: GPU time, instances, kernels. */
export function nodeDescription(node: NvtxTreeNode): string {
  if (node.kind === 'kernel') return `${formatNs(node.gpuNs)} GPU · ${plural(node.instances, 'launch', 'launches')}`;
  const parts = [`${formatNs(node.gpuNs)} GPU`];
  if (node.kind === 'range') parts.push(`${formatCount(node.instances)}×`);
  parts.push(plural(node.kernelCount, 'kernel'));
  return parts.join(' · ');
}

/** The hover of a node: every figure the server gave, in words. */
export function nodeTooltip(node: NvtxTreeNode): string {
  const lines = [node.kind === 'thread' ? node.label : node.name];
  if (node.pid !== undefined) lines.push(`pid ${node.pid}${node.tid !== undefined ? `, tid ${node.tid}` : ''}`);
  if (node.kind === 'range') lines.push(`${plural(node.instances, 'instance')}, ${formatNs(node.wallNs)} wall in all`);
  if (node.kind === 'kernel') lines.push(`${plural(node.instances, 'launch', 'launches')} directly in this range`);
  if (node.kind === 'thread') lines.push(`${formatNs(node.wallNs)} of NVTX ranges (wall)`);
  lines.push(`${formatNs(node.gpuNs)} GPU time in ${plural(node.kernelCount, 'kernel')}`);
  if (node.endNs > node.startNs) {
    const longest = node.kind === 'thread' ? 'Span' : 'Longest instance';
    lines.push(`${longest}: ${formatNs(node.endNs - node.startNs)} (capture clock ${node.startNs}–${node.endNs} ns)`);
  }
  return lines.join('\n');
}

const ICONS: Record<NvtxTreeNode['kind'], string> = { thread: 'server-process', range: 'symbol-namespace', kernel: 'chip' };

export function nodeTreeItem(node: NvtxTreeNode): vscode.TreeItem {
  const item = new vscode.TreeItem(
    node.label || node.name,
    node.hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.description = nodeDescription(node);
  item.tooltip = nodeTooltip(node);
  item.iconPath = new vscode.ThemeIcon(ICONS[node.kind] ?? 'circle-outline');
  // package.json's view/item/context menu offers "Reveal in Perfetto" on items with a time interval.
  item.contextValue = node.endNs > node.startNs ? `nsysAi.nvtx.${node.kind}.revealable` : `nsysAi.nvtx.${node.kind}`;
  return item;
}

export class NvtxTreeProvider implements vscode.TreeDataProvider<TreeElement>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<TreeElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;
  /** Called with the shown profile's file name (or undefined) whenever it changes, e.g. for the view's description. */
  onProfile?: (name: string | undefined) => void;

  constructor(private readonly services: Services) {
    this.subscription = services.registry.onDidChangeShown((doc) => this.refresh(doc));
  }

  refresh(doc = this.services.registry.shown()): void {
    this.onProfile?.(doc ? path.basename(doc.uri.fsPath) : undefined);
    this.changed.fire(undefined);
  }

  getTreeItem(element: TreeElement): vscode.TreeItem {
    if (element.type === 'node') return nodeTreeItem(element.node);
    const item = new vscode.TreeItem(element.text, vscode.TreeItemCollapsibleState.None);
    item.tooltip = element.tooltip ?? element.text;
    item.iconPath = new vscode.ThemeIcon('info');
    item.contextValue = 'nsysAi.nvtx.message';
    return item;
  }

  /** The top level (threads) of the shown profile, or a node's children: one request each, on expansion only. */
  async getChildren(element?: TreeElement): Promise<TreeElement[]> {
    if (element?.type === 'message') return [];
    const doc = element?.doc ?? this.services.registry.shown();
    if (!doc) return []; // the view's welcome text says how to open a profile
    try {
      const { profileId } = await doc.current();
      const client = await this.services.client();
      const result = await client.nvtxTree(profileId, element?.node.id);
      if (result instanceof Unsupported) {
        return [{ type: 'message', text: 'This nsys-ai server has no nsys/nvtxTree; update nsys-ai to see the NVTX tree.' }];
      }
      const children: TreeElement[] = result.nodes.map((node) => ({ type: 'node', doc, node }));
      if (!element && children.length === 0) children.push({ type: 'message', text: 'This profile has no NVTX ranges.' });
      if (result.truncated) {
        children.push({
          type: 'message',
          text: `Only the first ${result.nodes.length} are shown (most GPU time first).`,
          tooltip: 'The server lists at most 500 children per node; the rest were cut.',
        });
      }
      return children;
    } catch (err) {
      return [{ type: 'message', text: errorMessage(err) }];
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
