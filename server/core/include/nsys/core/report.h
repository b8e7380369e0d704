#pragma once
// nsys/report: a profile as one plain-text (Markdown-ish) document for editor buffers: a summary block,
// the top kernels as a fixed-width table, the findings of analyze, the NVTX ranges with the most wall time. Spans
// locate each kernel name and each finding in the text (LSP positions: 0-based line, UTF-16 column and length),
// so a front end can answer hovers and place diagnostics.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "nsys/agent/answer.h"

namespace nsys::core {

struct ReportSpan {
  int64_t line = 0;
  int64_t character = 0;  // UTF-16 code units from the line start
  int64_t length = 0;     // UTF-16 code units
  std::string name;       // kernels: the full (demangled) name; findings: the root cause id
};

struct ProfileReport {
  std::string text;
  std::vector<ReportSpan> kernels;
  std::vector<ReportSpan> findings;
  std::vector<agent::Finding> finding_details;  // findings[i]'s finding, in the same order
};

// Receives the report as it is computed: the whole document so far, its parts not yet known each one line
// under its heading; the last call precedes the complete report. Called on the computing thread.
using ReportSink = std::function<void(const ProfileReport&)>;

// How many kernels and NVTX ranges the report lists.
inline constexpr size_t kReportTopKernels = 15;
inline constexpr size_t kReportTopRanges = 10;

// The number of UTF-16 code units of UTF-8 text (a 4-byte sequence counts 2; bytes that are not UTF-8 count 1).
int64_t Utf16Length(std::string_view utf8);

}  // namespace nsys::core
