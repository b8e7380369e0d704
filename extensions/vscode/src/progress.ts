// Server work shown as a cancellable notification: the server's $/progress percentages and messages move the bar,
// and Cancel sends $/cancelRequest (through the request's cancellation token).
import * as vscode from 'vscode';
import { errorMessage, isCancelled, RequestOptions } from './protocol/client';
import type { WorkDoneProgressValue } from './protocol/types';

export function withServerProgress<T>(title: string, work: (opts: RequestOptions) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (progress, cancel) => {
      let last = 0;
      const onProgress = (value: WorkDoneProgressValue) => {
        const pct = typeof value.percentage === 'number' ? Math.min(Math.max(value.percentage, 0), 100) : undefined;
        const increment = pct !== undefined && pct > last ? pct - last : undefined;
        if (pct !== undefined && pct > last) last = pct;
        if (increment !== undefined || value.message) progress.report({ increment, message: value.message });
      };
      return work({ cancel, onProgress });
    },
  );
}

/** Shows a server error as the server worded it; a cancellation the user asked for shows nothing. */
export function showServerError(err: unknown): void {
  if (isCancelled(err)) return;
  void vscode.window.showErrorMessage(errorMessage(err));
}
