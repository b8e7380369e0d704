// The mapping coverage of the shown profile in the status bar: "NVTX coverage 30.8 %", the share of
// kernel time whose innermost NVTX range launches exactly one kernel per call, as nsys/profileInfo reports it. The
// server computes it in the background after a load (null until then), so a null is asked again a few times.
import * as vscode from 'vscode';
import { mappingCoverageOf, NsysClient } from './protocol/client';
import type { MappingCoverage } from './protocol/types';
import { ProfileDocument, Services } from './profiles';
import { formatNs, formatShare } from './view/format';

/** Waits between the asks while the server has not computed the coverage yet (then it stays "not computed"). */
export const COVERAGE_RETRY_MS = [500, 1000, 2000, 4000, 8000, 15000];

/**
 * The coverage of a profile from nsys/profileInfo, asked again while it is null; `onValue` sees each answer. Stops
 * when `wanted()` turns false. Resolves with the last value (undefined: the server does not report coverage).
 */
export async function watchCoverage(
  client: NsysClient,
  profileId: string,
  onValue: (coverage: MappingCoverage | null | undefined) => void,
  wanted: () => boolean = () => true,
  delays: readonly number[] = COVERAGE_RETRY_MS,
): Promise<MappingCoverage | null | undefined> {
  for (let attempt = 0; ; attempt++) {
    const value = mappingCoverageOf(await client.profileInfo(profileId));
    if (!wanted()) return value;
    onValue(value);
    if (value !== null || attempt >= delays.length) return value;
    await new Promise((r) => setTimeout(r, delays[attempt]));
    if (!wanted()) return value;
  }
}

export function coverageLabel(coverage: MappingCoverage | null): string {
  return coverage ? `NVTX coverage ${formatShare(coverage.share)}` : 'NVTX coverage …';
}

export function coverageTooltip(coverage: MappingCoverage | null): string {
  if (!coverage) return 'nsys-ai has not computed the NVTX mapping coverage of this profile yet.';
  return (
    `${formatNs(coverage.mappedNs)} of ${formatNs(coverage.kernelNs)} kernel time is launched inside an innermost ` +
    'NVTX range that launches exactly one kernel per call. Click for refinements that raise it.'
  );
}

export class CoverageStatus implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  private shown: ProfileDocument | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly services: Services) {
    this.item = vscode.window.createStatusBarItem('nsysAi.coverage', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'nsys-ai NVTX coverage';
    this.item.command = 'nsysAi.suggestRefinements';
    this.subscription = services.registry.onDidChangeShown((doc) => void this.show(doc));
  }

  /** Follows the profile the views show; hidden when none is, or when the server does not report coverage. */
  async show(doc: ProfileDocument | undefined): Promise<void> {
    this.shown = doc;
    if (!doc) {
      this.item.hide();
      return;
    }
    try {
      const { profileId } = await doc.current();
      const client = await this.services.client();
      await watchCoverage(
        client,
        profileId,
        (coverage) => {
          if (coverage === undefined) {
            this.item.hide();
            return;
          }
          this.item.text = `$(symbol-ruler) ${coverageLabel(coverage)}`;
          this.item.tooltip = coverageTooltip(coverage);
          this.item.show();
        },
        () => this.shown === doc,
      );
    } catch {
      if (this.shown === doc) this.item.hide(); // a profile that failed to open says so in its view
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
