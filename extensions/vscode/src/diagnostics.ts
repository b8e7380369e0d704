// Findings of nsys/analyze as diagnostics on the profile's URI, so they appear in the Problems panel.
import * as vscode from 'vscode';
import type { Finding } from './protocol/types';
import { severityClass } from './view/html';

export function findingToDiagnostic(finding: Finding): vscode.Diagnostic {
  const parts = [finding.title];
  if (finding.answer?.summary) parts.push(finding.answer.summary);
  const recommendations = finding.answer?.recommendations ?? [];
  if (recommendations.length) parts.push(`Recommendation: ${recommendations.join(' ')}`);
  if (finding.answer?.verify) parts.push(`Verify: ${finding.answer.verify}`);
  const severity = {
    high: vscode.DiagnosticSeverity.Warning,
    medium: vscode.DiagnosticSeverity.Information,
    low: vscode.DiagnosticSeverity.Hint,
  }[severityClass(finding.severity)];
  const diagnostic = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), parts.join('\n'), severity);
  diagnostic.source = 'nsys-ai';
  if (finding.rootCause || finding.skill) diagnostic.code = finding.rootCause ?? finding.skill;
  return diagnostic;
}

export function publishFindings(collection: vscode.DiagnosticCollection, uri: vscode.Uri, findings: Finding[]): void {
  collection.set(uri, findings.map(findingToDiagnostic));
}
